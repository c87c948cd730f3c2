"""The one registry of artifact parsers.

Each entry says which file names it claims and which pure function turns the file's bytes
into facts. The engine only ever goes through `classify` and `ARTIFACTS`, so a new family
plugs in here without touching discovery or the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from collectors.collect.artifacts.aie import is_graph_source, is_plio_output_name, parse_aie_output, parse_graph_source
from collectors.collect.artifacts.component import parse_component, parse_hls_config
from collectors.collect.artifacts.cosim import parse_cosim_rpt, parse_cosim_sim_log
from collectors.collect.artifacts.csynth import may_be_passed_over, parse_csynth
from collectors.collect.artifacts.hls_log import parse_csim_log, parse_hls_log, parse_hls_step_log, parse_tcl_backup
from collectors.collect.artifacts.hls_log_names import STEP_LOGS, is_session_log, is_step_log, is_tcl_backup
from collectors.collect.artifacts.hls_project import (
    HLS_PROJECT_FILES,
    is_ide_prj,
    parse_hls_app,
    parse_hls_script,
    parse_ide_prj,
    parse_solution_aps,
)
from collectors.collect.artifacts.latrpt import parse_lat_rpt
from collectors.collect.artifacts.loom import parse_config, parse_map, split_name
from collectors.collect.artifacts.profile import (
    XRT_RUN_FOLDER,
    parse_emu_timeline,
    parse_profile_kernels,
    parse_xsim_log,
)
from collectors.collect.artifacts.runner_meta import parse_runner_meta
from collectors.collect.artifacts.summary import parse_aierun_summary, parse_build_summary
from collectors.collect.artifacts.sysdiagram import parse_system_diagram
from collectors.collect.artifacts.vpp_log import is_vpp_log, parse_vpp_log
from collectors.collect.artifacts.xrt_recipe import parse_recipe, parse_runner_report

Parser = Callable[[Any], dict[str, Any]]  # bytes, or a binary stream for streaming parsers
Claim = Callable[[str, str], bool]  # (file name, parent directory name) -> claimed?


@dataclass(frozen=True)
class Artifact:
    kind: str
    tails: tuple[str, ...]  # what the file name ends with after its last dot ("xml", "compile_summary")
    claims: Claim
    parse: Parser | None  # None: a structural marker, never read
    family: str = "hls"  # "hls": schema 1.0; otherwise the extension family it feeds
    stream: bool = False  # parse gets an open binary file: no size limit, constant memory
    in_path: str | None = None  # claimed only below a directory of this name
    not_in_path: str | None = None  # never claimed below a directory of this name
    # path -> whether the walk only stats it (read when a run needs its facts, see Parsed); None: read at once
    deferred: Callable[[str], bool] | None = None


ARTIFACTS: dict[str, Artifact] = {}
ANY_TAIL = "*"  # claims files whatever their name ends with (only below its `in_path`)
_BY_TAIL: dict[str, list[Artifact]] = {}


def register(
    kind: str,
    tails: tuple[str, ...],
    claims: Claim,
    parse: Parser | None,
    family: str = "hls",
    stream: bool = False,
    in_path: str | None = None,
    not_in_path: str | None = None,
    deferred: Callable[[str], bool] | None = None,
) -> None:
    artifact = Artifact(kind, tails, claims, parse, family, stream, in_path, not_in_path, deferred)
    ARTIFACTS[kind] = artifact
    for tail in tails:
        _BY_TAIL.setdefault(tail, []).append(artifact)


def _when_asked(path: str) -> bool:
    """Every file of a kind read only when a run asks for its facts."""
    return True


def _exact(name: str) -> Claim:
    return lambda file, parent: file == name


# A v++ build packages 3-6 copies of a kernel's report: the pick rule chooses one by path and
# mtime: the copies it may pass over are read only when it (or the part lookup) asks for them.
register("csynth", ("xml",), _exact("csynth.xml"), parse_csynth, deferred=may_be_passed_over)
register("lat_rpt", ("rpt",), _exact("lat.rpt"), parse_lat_rpt)
# (`.autopilot/db/blackbox_cosim.rpt` is the tool's note of an RTL blackbox's JSON path)
register("cosim_rpt", ("rpt",), lambda f, p: f.endswith("cosim.rpt"), parse_cosim_rpt, not_in_path=".autopilot")
register("profile", ("csv",), _exact("profile_kernels.csv"), parse_profile_kernels)
# in XRT's own folder of a hardware emulation run (`.run/<pid>/hw_emu/...`): the platform the kernel
# trace names, the release the simulator's log does; read only beside a profile that makes a run
# (tinaba96/master: 13 logs of runs that kept no profile, 2019.x's with no banner, were 13 lines)
register(
    "emu_timeline",
    ("csv",),
    _exact("timeline_kernels.csv"),
    parse_emu_timeline,
    in_path=XRT_RUN_FOLDER,
    deferred=_when_asked,
)
register("xsim_log", ("log",), _exact("simulate.log"), parse_xsim_log, in_path=XRT_RUN_FOLDER, deferred=_when_asked)
register("sysdiagram", ("json",), _exact("systemDiagramModel.json"), parse_system_diagram)
register("vpp_log", ("log",), is_vpp_log, parse_vpp_log)
register("hls_log", ("log",), is_session_log, parse_hls_log)
register("hls_step_log", ("log",), is_step_log, parse_hls_step_log)
register("hls_tcl_backup", ("log",), is_tcl_backup, parse_tcl_backup)
# (a copy of a component's `hls_run_csim.log` out of its logs/ is a step's log, not a top's report:
# Jason1790213836/Sobel-Edge-Detection-Accelerator-on-FPGA keeps three, each a problem line)
register("csim_log", ("log",), lambda f, p: f.endswith("_csim.log") and f != STEP_LOGS["csim"], parse_csim_log)
# a co-simulation's own log, beside lat.rpt: read only where its report passed with no figure
register(
    "cosim_sim_log",
    ("log",),
    lambda f, p: p in ("verilog", "vhdl"),
    parse_cosim_sim_log,
    in_path="report",
    deferred=_when_asked,
)
# (a unified component's `vitis-run` steps write `<work>.hlsrun_<step>_summary`: a version source)
RUN_SUMMARIES = tuple(f"hlsrun_{step}_summary" for step in ("csim", "cosim", "impl", "package"))
register(
    "summary",
    ("compile_summary", "hlscompile_summary", "link_summary", *RUN_SUMMARIES),
    lambda f, p: True,
    parse_build_summary,
)
register("runner_meta", ("meta",), lambda f, p: f.startswith("vitis_run."), parse_runner_meta)
# (its part is read only where no report or log names one: a solution that only simulated)
register("aps", ("aps",), lambda f, p: True, parse_solution_aps, deferred=_when_asked)
register("hls_app", ("app", "xml"), lambda f, p: f in HLS_PROJECT_FILES, parse_hls_app)
# a solution's own script, and the project's scripts named as the tools' examples name them (their
# `set_top` names the top where only per-module reports say which: Arthur-Chang016/ECE5775's run.tcl)
HLS_SCRIPTS = frozenset({"script.tcl", "run_hls.tcl", "hls.tcl", "run.tcl"})
register("hls_script", ("tcl",), lambda f, p: f in HLS_SCRIPTS, parse_hls_script)
register("ide_prj", ("prj", "sdx"), is_ide_prj, parse_ide_prj)  # a Vitis IDE project's platform
register("vitis_comp", ("json",), _exact("vitis-comp.json"), parse_component)
register("hls_config", ("cfg",), _exact("hls_config.cfg"), parse_hls_config)

# The extension families (docs/collection.md, "Extension families"): records of their own, in a second file.
for simulator in ("aiesimulator_output", "x86simulator_output"):
    register(
        f"aie_output:{simulator}",
        ("txt",),
        is_plio_output_name,
        parse_aie_output,
        "aie_sim",
        stream=True,
        in_path=simulator,
    )
register("aie_summary", ("aierun_summary",), lambda f, p: True, parse_aierun_summary, "aie_sim")
register("aie_graph", ("h", "hpp", "cpp", "cc"), lambda f, p: is_graph_source(f), parse_graph_source, "aie_sim")
# the HLS code analyzer keeps its own recipe.json files under csim/code_analyzer/.internal/
register(
    "xrt_recipe", ("json",), lambda f, p: f.startswith("recipe"), parse_recipe, "xrt_recipe", not_in_path=".internal"
)
register(
    "xrt_report",
    ("json",),
    lambda f, p: "report" in f.lower() and not f.startswith("recipe"),
    parse_runner_report,
    "xrt_recipe",
)
register(
    "loom_map", ("json",), lambda f, p: f.endswith(".map.json") and split_name(f) is not None, parse_map, "cgra_map"
)
register(
    "loom_config",
    ("json",),
    lambda f, p: f.endswith(".config.json") and split_name(f) is not None,
    parse_config,
    "cgra_map",
    not_in_path="mapper-snapshots",
)
# every other file the mapper writes into mapper-snapshots/ is a snapshot of its DFG and ADG
register("loom_snapshot", (ANY_TAIL,), lambda f, p: True, None, "cgra_map", in_path="mapper-snapshots")


def classify(name: str, parent: str, path: str = "") -> str | None:
    """The kind of artifact a file is, from its name, its parent directory's name and (for kinds
    that live below a known directory) its path. The tail after the last dot picks the few
    parsers to ask: this runs for every file of the tree."""
    candidates = _BY_TAIL.get(name.rpartition(".")[2], [])
    if _ANY_PATHS and any(f"/{folder}/" in path for folder in _ANY_PATHS):
        candidates = candidates + _BY_TAIL[ANY_TAIL]
    for artifact in candidates:
        if artifact.in_path is not None and f"/{artifact.in_path}/" not in path:
            continue
        if artifact.not_in_path is not None and f"/{artifact.not_in_path}/" in path:
            continue
        if artifact.claims(name, parent):
            return artifact.kind
    return None


_ANY_PATHS = tuple(a.in_path for a in _BY_TAIL.get(ANY_TAIL, []) if a.in_path)

# a design's sources read for what they declare (an AI Engine graph's PLIOs), not reports: what is
# wrong with one is a problem only where a run consulted it (mztulip/dijkstra_zynq's graph1.h, an
# HLS testbench's empty header, was an "empty file" problem line of an HLS design)
QUIET_KINDS = frozenset({"aie_graph"})
# the tools' logs: an empty one says nothing, and is no file at all, not a problem (S12P/sisyphus-
# fpga24-artifact's empty Merlin `refer_induct/refer_induct.log`, read by no run, was one)
LOG_KINDS = frozenset({"hls_log", "hls_step_log", "hls_tcl_backup", "vpp_log"})
# what makes a directory a project of its own (a graph source or a report alone does not)
_FACTS_ONLY = ("aie_graph", "aie_summary", "xrt_report")  # what speaks for a record, never one of its own
EXTENSION_KINDS = frozenset(kind for kind, a in ARTIFACTS.items() if a.family != "hls" and kind not in _FACTS_ONLY)
# report files (docs/collection.md): they make a project built, and one in no project is a
# problem. Logs, summaries and runner files are build evidence or run facts, not reports.
REPORT_KINDS = frozenset({"csynth", "lat_rpt", "cosim_rpt", "csim_log", "profile", "sysdiagram"}) | EXTENSION_KINDS
