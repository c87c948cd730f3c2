"""Where an HLS project names its top function: `hls.app` / `vivado_hls.app` (`<project top=...>`)
and a solution's `script.tcl` (`set_top`). Needed for Vivado HLS 2015.x/2016.x, which write the
design's report only as `<top>_csynth.xml`."""

from __future__ import annotations

import re
from typing import Any

from collectors.collect.artifacts.vpp_log import platform_name
from collectors.files import decode_text
from collectors.problems import NotThisKind

_APP_TOP = re.compile(r"<(?:\w+:)?project\b[^>]*?\btop=\"([^\"]+)\"")
_APP_ROOT = re.compile(rb"<(?:\w+:)?project\b")  # an `.app`'s root element (2013: `<AutoPilot:project`)
_APP_NAME = re.compile(r"<(?:\w+:)?project\b[^>]*?\bname=\"([^\"]+)\"")
_SET_TOP = re.compile(r"^\s*set_top\s+(?:-\S+\s+)*\{?([A-Za-z_]\w*)\}?", re.MULTILINE)
LEGACY_REPORT_SUFFIX = "_csynth.xml"
# what makes a folder an HLS project: its `.app`, or the GUI's index of the project's logs, which
# stays where GitHub's C++ .gitignore (`*.app`) kept the `.app` out (necst/pynqrypt,
# rezaAdinepour/HLS-Tutorial: the GUI's session log beside the project was read by no run; Vivado
# HLS names it `.vivado_hls_log_all.xml`: robertszafa/elastic-sycl-hls)
HLS_PROJECT_FILES = frozenset({"hls.app", "vivado_hls.app", ".vitis_hls_log_all.xml", ".vivado_hls_log_all.xml"})


def parse_hls_app(data: bytes) -> dict[str, Any]:
    """The project's top function and its name (`open_project NAME` made it: a folder renamed
    since still says the name its logs know it by). The GUI's log index, which stands for a
    missing `.app` (HLS_PROJECT_FILES), is no `<project>`: nothing in it is read (a merge
    conflict left in one, Karniela/RSA_Implementation_on_PYNQ's, is no problem of a run's)."""
    if _APP_ROOT.search(data) is None:
        return {"top": None, "name": None}
    text = decode_text(data)
    top, name = _APP_TOP.search(text), _APP_NAME.search(text)
    return {"top": top.group(1) if top else None, "name": name.group(1) if name else None}


def parse_hls_script(data: bytes) -> dict[str, Any]:
    tops = _SET_TOP.findall(decode_text(data))
    return {"top": tops[-1] if tops else None}


# a solution's `.aps`: `<TargetInfo value="xc7a100t:-csg324:-1"/>` (device, package, speed grade)
_APS_PART = re.compile(r"<TargetInfo\s+value=\"([^\"]+)\"")


def parse_solution_aps(data: bytes) -> dict[str, Any]:
    """A solution's part as its `.aps` keeps it: the value without its colons, as typed
    (`xc7a100t-csg324-1`, `xc7z010clg400-1`; the run's device is spelled as the project's
    synthesis reports spell it: runs/facts.py hls_device)."""
    match = _APS_PART.search(decode_text(data))
    return {"part": match.group(1).replace(":", "") if match else None}


def may_hold_the_top_report(files: list[str]) -> bool:
    """A folder whose `<m>_csynth.xml` may be the design's report: a `syn/report` of Vivado HLS
    2015.x/2016.x (per-module reports, no csynth.xml), or any folder a top's report was copied
    to without a csynth.xml (wh-xu/CSE237C's `fir128_baseline/fir_csynth.xml`)."""
    return "csynth.xml" not in files


_PRJ_PLATFORM = re.compile(r"\bplatform=\"([^\"]+)\"")


# where simulators keep their `.prj` source lists (an HLS solution's cosimulation, Vivado's xsim)
SIMULATOR_FOLDERS = frozenset({"verilog", "vhdl", "systemc", "xsim", "behav", "wrapc", "wrapc_pc"})
_PROJECT_ROOT = re.compile(r"<(?:\w+:)?(?:\w*Project|project)\b")


SDX_PROJECT = "project.sdx"  # the SDx IDE's (2016.3-2019.1) project file


def is_ide_prj(name: str, parent: str) -> bool:
    """A Vitis IDE project's `<project>.prj`, whatever its folder is called (a repository cloned
    under another name: hw_lane_detection/lane_detector_v2.prj), not a simulator's source list;
    or an SDx IDE project's `project.sdx`."""
    if name == SDX_PROJECT:
        return True
    return name.endswith(".prj") and (name == parent + ".prj" or parent not in SIMULATOR_FOLDERS)


def parse_ide_prj(data: bytes) -> dict[str, Any]:
    """The platform an IDE project builds for: a path to its `.xpfm` (Vitis, `<name>.prj`) or its
    name (SDx, `project.sdx`: `xilinx:aws-vu9p-f1:4ddr-xpr-2pr:4.0`). A `.prj` that is no
    project document (a simulator's list of sources) is another tool's file."""
    text = decode_text(data)
    if not _PROJECT_ROOT.search(text):
        raise NotThisKind("not a project document")
    match = _PRJ_PLATFORM.search(text)
    return {"platform": platform_name(match.group(1)) if match else None}
