"""Where an HLS project names its top function: `hls.app` / `vivado_hls.app` (`<project top=...>`)
and a solution's `script.tcl` (`set_top`). Needed for Vivado HLS 2015.x/2016.x, which write the
design's report only as `<top>_csynth.xml`."""

from __future__ import annotations

import re
from typing import Any

from collectors.files import decode_text

_APP_TOP = re.compile(r"<project\b[^>]*?\btop=\"([^\"]+)\"")
_SET_TOP = re.compile(r"^\s*set_top\s+(?:-\S+\s+)*\{?([A-Za-z_]\w*)\}?", re.MULTILINE)
LEGACY_REPORT_SUFFIX = "_csynth.xml"


def parse_hls_app(data: bytes) -> dict[str, Any]:
    match = _APP_TOP.search(decode_text(data))
    return {"top": match.group(1) if match else None}


def parse_hls_script(data: bytes) -> dict[str, Any]:
    tops = _SET_TOP.findall(decode_text(data))
    return {"top": tops[-1] if tops else None}


def is_legacy_report_folder(folder: str, files: list[str]) -> bool:
    """A `syn/report` folder of Vivado HLS 2015.x/2016.x: per-module reports and no csynth.xml."""
    return folder == "report" and "csynth.xml" not in files


_PRJ_PLATFORM = re.compile(r"\bplatform=\"([^\"]+)\"")


def parse_ide_prj(data: bytes) -> dict[str, Any]:
    """The platform a Vitis IDE project (`<name>.prj`) builds for: a path to its `.xpfm`."""
    match = _PRJ_PLATFORM.search(decode_text(data))
    name = match.group(1).replace("\\", "/").rpartition("/")[2].removesuffix(".xpfm") if match else ""
    return {"platform": name or None}
