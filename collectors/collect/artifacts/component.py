"""`vitis-comp.json` of a unified (2024+) component: where its work directory is."""

from __future__ import annotations

import posixpath
from typing import Any

from collectors.files import load_json
from collectors.problems import ArtifactError

DEFAULT_WORK_DIR = "."


def parse_component(data: bytes) -> dict[str, Any]:
    """{"work_dir": <relative folder>}: the component folder itself when the JSON names none,
    or names one outside the component (absolute, or climbing out with ".."). The file is a
    build marker first: one that is not JSON still marks the folder and gets the default."""
    try:
        document = load_json(data)
    except ArtifactError:
        return {"work_dir": DEFAULT_WORK_DIR}
    configuration = document.get("configuration") if isinstance(document, dict) else None
    named = configuration.get("work_dir") if isinstance(configuration, dict) else None
    return {"work_dir": safe_work_dir(named)}


def safe_work_dir(named: Any) -> str:
    if not isinstance(named, str) or not named.strip():
        return DEFAULT_WORK_DIR
    normal = posixpath.normpath(named.strip().replace("\\", "/"))
    if normal.startswith(("/", "..")):
        return DEFAULT_WORK_DIR
    return normal
