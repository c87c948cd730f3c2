"""A unified (2024+) component's `vitis-comp.json` (where its work directory is) and
`hls_config.cfg` (its part and top function)."""

from __future__ import annotations

import posixpath
import re
from typing import Any

from collectors.files import decode_text, load_json
from collectors.problems import ArtifactError
from collectors.records.model import as_dict

DEFAULT_WORK_DIR = "."


def parse_component(data: bytes) -> dict[str, Any]:
    """{"work_dir": <relative folder>, "hls": whether it is an HLS component}: the work folder is
    the component folder itself when the JSON names none, or names one outside the component
    (absolute, or climbing out with ".."). The file is a build marker first: one that is not
    JSON still marks the folder and gets the defaults."""
    try:
        document = load_json(data)
    except ArtifactError:
        return {"work_dir": DEFAULT_WORK_DIR, "hls": True}
    document = as_dict(document)
    configuration = as_dict(document.get("configuration"))
    kind = document.get("type") or configuration.get("componentType")
    # a workspace's host application or platform has a vitis-comp.json too: it runs no HLS
    return {"work_dir": safe_work_dir(configuration.get("work_dir")), "hls": kind in (None, "HLS", "hls")}


def safe_work_dir(named: Any) -> str:
    if not isinstance(named, str) or not named.strip():
        return DEFAULT_WORK_DIR
    normal = posixpath.normpath(named.strip().replace("\\", "/"))
    if normal.startswith(("/", "..")):
        return DEFAULT_WORK_DIR
    return normal


# `part=xczu15eg-ffvb1156-2-i` before any section; `syn.top=InputDoubleConv` under [hls]
_CONFIG_PART = re.compile(r"^\s*part\s*=\s*(\S+)\s*$", re.MULTILINE)
_CONFIG_TOP = re.compile(r"^\s*syn\.top\s*=\s*([A-Za-z_]\w*)", re.MULTILINE)


def parse_hls_config(data: bytes) -> dict[str, Any]:
    """A unified component's `hls_config.cfg`: its part and top function (None where unnamed)."""
    text = decode_text(data)
    part, top = _CONFIG_PART.findall(text), _CONFIG_TOP.findall(text)
    return {"part": part[-1] if part else None, "top": top[-1] if top else None}
