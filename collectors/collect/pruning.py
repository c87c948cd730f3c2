"""Which folders the walk prunes for discovery (build output, shared folders, the tool's state)
and which files mark a project or show that a build ran (docs/collection.md, "Which folders are projects")."""

from __future__ import annotations

import os
import re

from collectors.collect.artifacts.component import DEFAULT_WORK_DIR, parse_component
from collectors.collect.artifacts.hls_log_names import PROJECT_SESSION_LOGS, TCL_SESSION_LOG
from collectors.collect.artifacts.hls_project import HLS_PROJECT_FILES, SDX_PROJECT
from collectors.collect.artifacts.vpp_log import VPP_BUILD_PREFIXES, is_vpp_build_dir, is_vpp_log
from collectors.files import read_report
from collectors.problems import ArtifactError

BUILD_OUTPUT_NAMES = frozenset(
    {
        "package",
        "xclbin",
        ".run",
        ".Xil",
        ".ipcache",
        ".jobs",
        ".tlog",
        "_vimage",
        "emulation",
        "reports",
        "logs",
        ".autopilot",
        "_sds",
        "hls_files",
        "sd_card",
        # the extension families' output folders (docs/collection.md, "Extension families")
        "aiesimulator_output",
        "x86simulator_output",
        "mapper-snapshots",
        "Work",
    }
)
COMPONENT_JSON = "vitis-comp.json"  # a unified component's file (its work directory is build output)
SOLUTION_PREFIX = "solution"  # an HLS solution's folder: solution1, solution_opt, ...
BUILD_OUTPUT_PREFIXES = (*VPP_BUILD_PREFIXES, "package.", SOLUTION_PREFIX, "_xocc_")
SHARED_NAMES = frozenset({"common", "data", "result", "libs", "__pycache__", ".git"})
BUILD_MARKERS = frozenset(
    {"Makefile", "makefile", "hls.tcl", "run_hls.tcl", "hls_config.cfg", COMPONENT_JSON, "description.json"}
)
SOURCE_ENDINGS = (".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".hh", ".cl")
VPP_SUMMARIES = (".compile_summary", ".link_summary")  # what v++ writes beside its output
COMPILE_SUMMARY = ".hlscompile_summary"  # an HLS component's compile, in its work directory
STATE_DIR = ".vitis-tui"  # the tool's own state, never walked
NEVER_WALKED = frozenset({".git", "__pycache__", STATE_DIR})
# the Vitis IDE's build configurations: one run of the application each (runs/vpp_runs.py)
# (SDx 2016-2017 called the software emulation Emulation-CPU)
IDE_CONFIGURATIONS = {
    "Emulation-SW": "vitis.sw_emu",
    "Emulation-CPU": "vitis.sw_emu",
    "Emulation-HW": "vitis.hw_emu",
    "Hardware": "vitis.hw",
}
# a v++ link's output, whatever -o / --temp_dir named its folder: the kernels' packaged copies.
# (Not a bare `iprepo/`: a CMake build of an HLS IP library keeps its Vivado IP repository
# beside a dozen HLS projects, javadsaberlatibari/FPGA_Consensus's fpga-network-stack/.)
LINK_OUTPUT_DIRS = frozenset({"sys_link"})


def is_build_output_name(name: str) -> bool:
    return name in BUILD_OUTPUT_NAMES or name.startswith(BUILD_OUTPUT_PREFIXES) or is_vpp_build_dir(name)


def is_evidence_file(name: str) -> bool:
    return (
        name in PROJECT_SESSION_LOGS
        or (is_vpp_log(name, "") and name.endswith(".log"))
        or (name.startswith("vitis_run.") and name.endswith(".meta"))
        or name.endswith(".link_summary")  # a v++ link ran here (or its outputs were copied here)
    )


def is_build_output(path: str, files: list[str], dirs: list[os.DirEntry], beside_component: bool | None = None) -> bool:
    """Whether a directory (not the walk's root) is build output: pruned for discovery.
    `beside_component`: whether its parent holds a vitis-comp.json, where the caller knows."""
    name = os.path.basename(path)
    names = {d.name for d in dirs}
    if (
        is_build_output_name(name)
        and not _design_named_solution(path, files, names)
        and not _kept_empty(name, files, names)
    ):
        return True
    if beside_component is not False and _is_component_work_dir(path):
        return True  # whatever it holds: 2025.2 writes a second vitis-comp.json (work_dir ".") there
    if any(f in HLS_PROJECT_FILES for f in files) or _holds_own_aps(name, files, names):
        return True
    if ".autopilot" in names:
        return True  # an HLS work directory, whatever its name
    if is_vpp_output(path, files, names) or is_ide_configuration(path, files, names):
        return True
    # a component's work directory holds its summary; the component itself (vitis-comp.json)
    # may be its own work directory (work_dir ".") and stays a project
    return COMPONENT_JSON not in files and any(f.endswith(COMPILE_SUMMARY) for f in files)


# what an HLS solution folder holds besides its `.aps` (a bare one committed without it: syn/ alone)
SOLUTION_FOLDERS = frozenset({"syn", "csim", "sim", "impl", ".autopilot"})


def _holds_own_aps(name: str, files: list[str], names: set[str]) -> bool:
    """An HLS solution's folder: its own `<name>.aps`, or a `.aps` beside a solution's folders (a
    solution renamed after it ran). Renamed copies in a designer's write-up folder make none
    (yihuajack/ECE4810J_FA2021's Lab4/solution3_vitis_hls.aps beside its PDFs hid the project
    Lab4/source_code below, and gave its records the checkout's name)."""
    apses = [f.casefold() for f in files if f.endswith(".aps")]  # (Windows: Solution1/solution1.aps)
    return bool(apses) and (f"{name.casefold()}.aps" in apses or bool(names & SOLUTION_FOLDERS))


def _design_named_solution(path: str, files: list[str], names: set[str]) -> bool:
    """A folder named `solution*` that is a design's, not an HLS solution: its own build marker or
    HLS session log (a vitis-run Tcl session's in its `logs/`), and none of a solution's folders
    (Joseph-Luke-04/Program-Synthesis-for-Efficient-ML's results/HLS/solution_addition_alignment:
    its hls.tcl, vitis_hls.log and project). It is walked as any folder (one holding a `.aps` is
    a solution all the same: is_build_output). A `solution_report/` of copied reports stays build
    output: its project is the folder above."""
    return (
        os.path.basename(path).startswith(SOLUTION_PREFIX)
        and not names & SOLUTION_FOLDERS
        and (
            any(f in BUILD_MARKERS or f in PROJECT_SESSION_LOGS for f in files)
            or ("logs" in names and os.path.isfile(os.path.join(path, "logs", TCL_SESSION_LOG)))
        )
    )


def _kept_empty(name: str, files: list[str], names: set[str]) -> bool:
    """A folder named `solution*` that holds no folder and nothing but what keeps an empty
    folder in git (`.gitkeep`, a file with no extension: an50's NN/Files/<layer>/solutions/nihao,
    which made every layer's folder a built design and hid the NN project): no solution's
    output, nor build evidence; walked as any folder."""
    return (
        name.startswith(SOLUTION_PREFIX)
        and not names
        and all(f.startswith(".") or "." not in f or f.startswith("README") for f in files)
    )


def is_vpp_output(path: str, files: list[str], names: set[str]) -> bool:
    """A `<name>.build` folder holding v++ output (the IDE's temporary folder), a v++ link's
    output folder of any name (it holds `sys_link/` or `int/xo/`), a v++ temporary folder of
    any name (`temp_dir=build` in its configuration: is_vpp_temp_dir), or the folder v++ wrote
    its logs to, of any name (`--log_dir log_dir`: is_vpp_log_dir)."""
    if path.endswith(".build") and ("logs" in names or "link" in names or any(f.endswith(".xo") for f in files)):
        return True
    if is_vpp_temp_dir(files, names) or is_vpp_output_dir(files, names) or is_vpp_log_dir(path, files, names):
        return True
    return bool(names & LINK_OUTPUT_DIRS) or ("int" in names and os.path.isdir(os.path.join(path, "int", "xo")))


VPP_OUTPUTS = (".xclbin", ".xo")
VPP_LOG_VIEWER = "optraceViewer.html"  # what v++ writes into the folder of its logs


def is_vpp_log_dir(path: str, files: list[str], names: set[str]) -> bool:
    """The folder v++ wrote its logs to (`--log_dir`), of any name: its `optraceViewer.html`, or,
    where a compile failed before writing it (whoami90506/MSoC-Self-Paced's log_dir/: it and its
    per-output copy were projects of their own), an output's `v++_<output>.log` beside the
    folder `<output>/` of that output's logs, holding its `v++.log`."""
    if VPP_LOG_VIEWER in files:
        return True
    outputs = (f[len("v++_") : -len(".log")] for f in files if f.startswith("v++_") and f.endswith(".log"))
    return any(output in names and os.path.isfile(os.path.join(path, output, "v++.log")) for output in outputs)


def is_vpp_output_dir(files: list[str], folders: set[str]) -> bool:
    """The folder `v++ -o <folder>/<name>` wrote into, of any name: its `.xclbin` or `.xo` with their
    summaries, and no folder, source, marker, log, profile nor runner file of its own (greywolf37/
    FPGA_accelerated_CNN's build/: a `*.link_summary` is build evidence, and the folder was the
    deepest built project, hiding the one that ran the build). A harness's copy of a run (its
    `profile_kernels.csv` beside the link summary: grouping) stays a project."""
    return (
        not folders
        and any(name.endswith(VPP_OUTPUTS) for name in files)
        and any(name.endswith(VPP_SUMMARIES) for name in files)
        and not any(
            name.endswith((*SOURCE_ENDINGS, ".log", ".csv", ".meta")) or name in BUILD_MARKERS for name in files
        )
    )


def is_vpp_temp_dir(files: list[str], folders: set[str]) -> bool:
    """A folder v++ was told to work in (`--temp_dir`, `--log_dir` and `--report_dir` below it):
    its build summary beside `logs/` and `reports/`, or the guidance v++ leaves in its temporary
    folder (`v++_compile_<kernel>_guidance.pb3`; `.pb` and `.json` in 2020.x: a `_x` copied as
    `saved_x`, a `--temp_dir xo`, ravicho/PORT_test1's `--temp_dir build/<cfg>/temp_dir` whose
    logs and reports went to folders beside it); and no source of its own."""
    return (
        ("reports" in folders and "logs" in folders and any(name.endswith(VPP_SUMMARIES) for name in files))
        or any(_VPP_GUIDANCE.match(name) for name in files)
    ) and not any(name.endswith(SOURCE_ENDINGS) for name in files)


_VPP_GUIDANCE = re.compile(r"v\+\+_(?:compile|link)_.+_guidance\.(?:pb3?|json)$")


# the classic Vitis IDE's AI Engine configuration (aiesimulator; x86simulator's is Emulation-SW):
# no v++ build, but the application's output all the same, not a design of its own
AIE_CONFIGURATION = "Emulation-AIE"


def is_ide_configuration(path: str, files: list[str], names: set[str]) -> bool:
    """An IDE build configuration folder: one of IDE_CONFIGURATIONS (or AIE_CONFIGURATION)
    holding its generated makefile or a `<container>.build`, or in a folder of the IDE
    (is_ide_project)."""
    name = os.path.basename(path)
    if name not in IDE_CONFIGURATIONS and name != AIE_CONFIGURATION:
        return False
    if "makefile" in files or "Makefile" in files or any(n.endswith(".build") for n in names):
        return True
    return is_ide_project(os.path.dirname(path))


def is_ide_project(folder: str) -> bool:
    """A folder of the Vitis IDE: its `.project` (Eclipse), `<folder>.prj` or SDx's `project.sdx`
    (committed without the other, `.project` being ignored)."""
    name = os.path.basename(folder)
    return any(os.path.isfile(os.path.join(folder, file)) for file in (".project", name + ".prj", SDX_PROJECT))


def _is_component_work_dir(path: str) -> bool:
    """Whether a directory is `hls` beside a vitis-comp.json, or the work directory it names."""
    component, name = os.path.split(path)
    comp_json = os.path.join(component, COMPONENT_JSON)
    if not os.path.isfile(comp_json):
        return False
    if name == "hls":
        return True
    try:
        work_dir = parse_component(read_report(comp_json))["work_dir"]
    except ArtifactError:
        return False
    return work_dir != DEFAULT_WORK_DIR and work_dir.split("/")[0] == name


_IDE_COMPANION = re.compile(r"^(.+?)_(?:system_hw_link|system|kernels)$")
_COMPANION_ENDINGS = ("_system_hw_link", "_system", "_kernels")


def ide_application(path: str) -> str | None:
    """The IDE application a companion project (`<app>_system`, `<app>_system_hw_link`,
    `<app>_kernels`) belongs to: its sibling `<app>` holding the IDE's `.project`."""
    if not path.endswith(_COMPANION_ENDINGS):
        return None  # (most folders: no pattern matched against their name)
    match = _IDE_COMPANION.match(os.path.basename(path))
    if match is None:
        return None
    app = os.path.join(os.path.dirname(path), match.group(1))
    return app if is_ide_project(app) else None


def ide_companions(app: str) -> list[str]:
    """The companion folders beside an IDE application that exist."""
    found = []
    for suffix in ("_system", "_system_hw_link", "_kernels"):
        if os.path.isdir(app + suffix) and is_ide_project(app):
            found.append(app + suffix)
    return found
