"""v++ `*compile_summary` / `*link_summary` files: an `<ENTRY>{json}</ENTRY>` stream."""

from __future__ import annotations

import re
from typing import Any

from ..files import decode_text
from ..problems import ArtifactError

_TOOL_VERSION = re.compile(r'"toolVersion"\s*:\s*"([^"]*)"')
_YEAR_VERSION = re.compile(r"\b(20\d\d\.\d+(?:\.\d+)?)\b")


def parse_build_summary(data: bytes) -> dict[str, Any]:
    text = decode_text(data)
    if "<ENTRY>" not in text:
        raise ArtifactError("no <ENTRY> records (not a v++ summary)")
    version = None
    for raw in _TOOL_VERSION.findall(text):
        match = _YEAR_VERSION.search(raw)  # "Vitis V++ Compiler Release 2022.2. SW Build ..." -> 2022.2
        if match:
            version = match.group(1)
            break
    return {"vitis_version": version}
