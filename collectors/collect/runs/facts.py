"""A run's facts by precedence: the runner's metadata over tool logs and summaries over reports
(docs/collection.md, "Where a run's facts come from"), and the report that speaks for the run (the
pick rule, csynth.may_be_passed_over)."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, partial
from itertools import chain
from typing import Any

from collectors.collect.artifacts.csynth import PENALTY_PARTS
from collectors.collect.artifacts.hls_log import BANNER_ONLY
from collectors.collect.artifacts.hls_log_names import STEP_LOGS
from collectors.collect.artifacts.hls_project import LEGACY_REPORT_SUFFIX
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.pruning import COMPILE_SUMMARY
from collectors.collect.runs.layout import (
    MODULE_REPORTS,
    NAMED_REPORTS,
    SIMULATION_REPORTS,
    ProjectFiles,
    RunGroup,
    inside,
    named_tops,
    report_function,
    solution_of,
    top_model_name,
    work_of,
)
from collectors.collect.runs.runtimes import run_runtime, set_aside_runtime
from collectors.collect.runs.sessions import earlier_names_logs, named_after, session_logs
from collectors.collect.runs.versions import (
    fixed_versions,
    only_release,
    own_summaries,
    step_versions,
    version_of,
    versions_of,
)
from collectors.records.model import VPP_TARGETS

RUN_FACTS = ("device", "vitis_version", "runtime_seconds")


@dataclass
class RunFacts:
    """What the tool's own files say about one run, before the runner's metadata is laid over."""

    chosen: Parsed | None  # the csynth.xml that speaks for the run
    solution: str | None  # the HLS solution the run's payloads come from
    hls_logs: list[Parsed]  # the HLS logs of the session that ran that solution
    derived: dict[str, Any]  # device, vitis_version, runtime_seconds
    errors: bool  # an ERROR: line of the synthesis step in the run's v++ or HLS logs
    versions: dict[str, str | None]  # report type -> the version its sessions give
    find_top: Callable[[], str | None] = field(repr=False, compare=False)

    @cached_property
    def top(self) -> str | None:
        """The top function of that solution (run_top): worked out where a simulation report is
        picked or a problem line names it (a campaign's synthesis-only runs never ask)."""
        return self.find_top()

    def fields(self, report_type: str | None) -> dict[str, Any]:
        """The derived facts of one report type's record (None: of the run as shown)."""
        if report_type is None or report_type not in self.versions:
            return self.derived
        return {**self.derived, "vitis_version": self.versions[report_type]}


# the step of an HLS flow each record comes from (hls_log.step_versions)
STEP_OF_REPORT = {"hls_synth": "synthesis", "sw_run": "csim", "rtl_sim": "cosim"}


def derive_facts(proj: ProjectFiles, group: RunGroup) -> RunFacts:
    chosen = pick_csynth(proj, group)
    solution = chosen_solution(proj, group, chosen)
    hls_logs = _session_logs(proj, group, solution)
    fixed = fixed_versions(group, chosen, own_summaries(proj, group, solution))
    find_top = partial(run_top, proj, group, solution, chosen)
    if group.target == "vitis.csim":  # (the function its verdict speaks of: payloads._sw_run)
        find_top = partial(_simulated_top, proj, group, solution, find_top)
    unknown = {p.path for p in _untimed_own_logs(proj, solution, hls_logs)} if solution is not None else set()
    timing = _of_the_runs_top([p for p in _timing_logs(group, hls_logs) if p.path not in unknown], find_top)
    runtime = run_runtime(group, timing, solution, next(iter(fixed[2]), None))
    derived = {
        "device": group.device,
        "vitis_version": version_of(fixed, versions_of(hls_logs)),
        "runtime_seconds": set_aside_runtime(proj, group, hls_logs, solution) if runtime is None else runtime,
    }
    versions: dict[str, str | None] = {}
    if group.solutions and group.target not in VPP_TARGETS:
        # an HLS run: a log speaks for a record only through the sessions that ran its step
        # the last resort, after the chosen report's: a session whose log shows only its banner
        last_resort = next(iter(step_versions(hls_logs, BANNER_ONLY)), None) or only_release(hls_logs)
        written = {"hls_synth": fixed[2]}  # (the release of the report the synthesis wrote)
        versions = {
            rtype: version_of(fixed, step_versions(hls_logs, step, written.get(rtype))) or last_resort
            for rtype, step in STEP_OF_REPORT.items()
        }
    # a unified component's compile that failed (its summary, its compile log); a v++ kernel's
    # compile summary says CS_FAILED of a later try beside the .xo an earlier one made
    component = [p for p in group.of("summary") if p.path.endswith(COMPILE_SUMMARY)]
    failed = [p for p in component + hls_logs if p.facts.get("synthesis_failed")]
    errors = bool(failed) or any(p.facts["errors"] for p in group.of("vpp_log") + hls_logs)
    top = partial(run_top, proj, group, solution, chosen)  # (worked out when asked)
    return RunFacts(chosen, solution, hls_logs, derived, errors, versions, top)


def _untimed_own_logs(proj: ProjectFiles, solution: str, hls_logs: list[Parsed]) -> list[Parsed]:
    """The logs in a solution's folder that time none of its runs: those of its earlier names
    (sessions.earlier_names_logs); and its own log where its one timed session is the end of a
    Tcl session that ran other solutions first, as another solution's own log shows (it opened
    this one and has no time of it, and its timed session is the one it begins with): the
    session's total is written into the last solution's log, by Vivado HLS (A-T-Kristensen/
    patmos_HLS, 2016.4: matmul_3b_4x4.log's 113 s, 1b's and 2b's synthesis in it) and by Vitis
    HLS alike (Stepaka/Xilinx_lab and danila-kuryakin/fpga_labs, 2021.2: ex_sol6.log's 182.135 s
    and 156.149 s, six solutions' syntheses and co-simulations). A later session of the
    solution's own, after that part (Stepaka's lab6_z1: the GUI's re-synthesis of sol2, 7.066 s,
    in sol2.log after the Tcl session's part), times it."""
    name = posixpath.basename(solution)
    own = [p for p in hls_logs if p.kind == "hls_log" and proj.folder(p) == solution]
    own = [p for p in own if p.facts.get("timed_sessions") == 1 and p.facts.get("timed_first")]
    continued = own and any(
        name in log.facts["opened"] and name not in log.facts["timed_by_opened"]
        for log in proj.readable("hls_log")
        if proj.folder(log) != solution and named_after(log, posixpath.basename(proj.folder(log)))
    )
    return earlier_names_logs(proj, solution, hls_logs) + (own if continued else [])


def meta_facts(metas: list[Parsed], target: str, device: str | None, report_type: str | None) -> dict[str, Any]:
    """Runner facts for one run (and report type): general files first, targeted ones over them."""
    general: dict[str, Any] = {}
    targeted: dict[str, Any] = {}
    for meta in sorted(metas, key=lambda m: m.path):
        facts = meta.facts["facts"]
        if report_type is not None and facts.get("report_type") not in (None, report_type):
            continue
        if "target" not in facts:
            general.update(facts)
        elif facts["target"] == target and facts.get("device") in (None, device):
            targeted.update(facts)
    return {**general, **targeted}


# a unified component's step log that is the whole session of a run of this target
STEP_LOG_OF = {"vitis.csynth": STEP_LOGS["synthesis"], "vitis.csim": STEP_LOGS["csim"]}


def _timing_logs(group: RunGroup, hls_logs: list[Parsed]) -> list[Parsed]:
    """The HLS logs whose elapsed time is the run's: the sessions' logs; of a component's step
    logs, each times one step: the compile times a vitis.csynth run, the csim step a vitis.csim
    one (a cosim run spans the compile and the cosim step: none times it)."""
    step_log = STEP_LOG_OF.get(group.target)
    return [p for p in hls_logs if p.kind == "hls_log" or posixpath.basename(p.path) == step_log]


def _of_the_runs_top(logs: list[Parsed], find_top: Callable[[], str | None]) -> list[Parsed]:
    """The logs that may time the run: not a component's step log that applied another top than
    the run's (bianca4444/Optical-Flow: the synthesised top's old failed C simulation speaks for
    the run, and took the 22.438 s of a later one's of the top the configuration names since)."""
    applied = {log.path: _applied_top(log) for log in logs}
    top = find_top() if any(applied.values()) else None  # (worked out only where a log applied one)
    if top is None:
        return logs
    return [log for log in logs if applied[log.path] in (None, top.casefold())]


def _applied_top(log: Parsed) -> str | None:
    """The top a step log says its step applied (`Applying ini 'syn.top=...'`), casefolded."""
    tops = [s.partition("=")[2] for s in log.facts.get("ini_design", ()) if s.startswith("syn.top=")]
    return tops[-1].casefold() if log.kind == "hls_step_log" and tops else None


def hls_device(proj: ProjectFiles, items: list[Parsed]) -> str | None:
    """The FPGA part of an HLS solution: its best csynth.xml's, else its HLS log's, else (a
    unified component) its hls_config.cfg's or its compile's command line's, else its `.aps`'s."""
    reports = sorted(
        (p for p in items if p.kind == "csynth"), key=lambda p: csynth_pick_key(proj.rel[p.path], p.mtime_ns)
    )
    for report in reports:  # best first: the next copy is read only when this one gives no part
        part = report.facts["UserAssignments"].get("Part") if report.ok else None
        if part:
            return part
    logs = [p for p in items if p.kind in ("hls_log", "hls_step_log") and p.ok and p.facts["device"]]
    for log in sorted(
        logs, key=lambda p: (p.kind != "hls_log", _STEP_LOG_ORDER.get(posixpath.basename(p.path), 9), p.path)
    ):
        return log.facts["device"]
    # a solution that only simulated: the part (a unified component's) configuration asks for,
    # else its `.aps` names (a marker: unreadable, it names none)
    config = min(
        (p for p in items if p.kind == "hls_config" and p.ok and p.facts["part"]), key=lambda p: p.path, default=None
    )
    if config is not None:
        return config.facts["part"]
    in_order = sorted(items, key=lambda p: p.path)
    asked = (p.facts.get("part") for p in in_order if p.kind == "summary" and p.ok)
    named = (p.peek().get("part") for p in in_order if p.kind == "aps")  # (peeked only where none asked)
    part = next((part for part in chain(asked, named) if part), None)
    return None if part is None else _spelled_as_reported(proj, part)


def _spelled_as_reported(proj: ProjectFiles, part: str) -> str:
    """A part as the project's synthesis reports spell it (a `.aps` keeps what was typed,
    `xc7z010:clg400:-1`, where csynth.xml may say `xc7z010-clg400-1`): one part, one device."""
    bare = part.replace("-", "")
    for report in proj.parsed:  # (those read already: a copy the pick passed over stays unread)
        if report.kind != "csynth" or not report.loaded or not report.ok:
            continue
        reported = report.facts["UserAssignments"].get("Part")
        if isinstance(reported, str) and reported.replace("-", "") == bare:
            return reported
    return part


# a component's part as synthesis saw it first, then as the later steps did
_STEP_LOG_ORDER = {STEP_LOGS[step]: rank for rank, step in enumerate(("synthesis", "cosim", "csim"))}


def csynth_pick_key(rel: str, mtime_ns: int) -> tuple:
    """Rules 5: (penalty, non-canonical suffix, depth, -mtime, path); the smallest wins."""
    parts = rel.split("/")
    canonical = len(parts) >= 4 and parts[-3:] == ["syn", "report", "csynth.xml"]
    return (penalty(parts), 0 if canonical else 1, len(parts), -mtime_ns, rel)


def penalty(parts: list[str]) -> int:
    """Rules 5: how many of a report's folders (relative) are a packaged copy's (impl, ip, ...)."""
    return sum(1 for part in parts[:-1] if part in PENALTY_PARTS)


def pick_csynth(proj: ProjectFiles, group: RunGroup) -> Parsed | None:
    if group.target == "vitis.sw_emu":
        return None  # a sw_emu build runs no synthesis
    module_reports = [p for p in group.items if p.kind == "csynth" and proj.parts(p)[-1] != "csynth.xml"]
    tops: dict[str | None, str | None] = {}  # solution -> its top (once per solution: a DSE holds hundreds)
    candidates = [
        p for p in group.items if p.kind == "csynth" and _is_design_report(proj, p, group, module_reports, tops)
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda p: csynth_pick_key(proj.rel[p.path], p.mtime_ns))


def _is_design_report(
    proj: ProjectFiles, report: Parsed, group: RunGroup, modules: list[Parsed], tops: dict[str | None, str | None]
) -> bool:
    """`csynth.xml`, or (a solution without one: Vivado HLS up to 2016.x, or one that lost it)
    `<top>_csynth.xml` of its solution's top function: named by its script or project, else by
    a session log's `set_top`; with none of them, the solution's only per-module report."""
    parts = proj.parts(report)
    if parts[-1] == "csynth.xml":
        return True
    solution = solution_of(parts, "csynth")
    if solution not in tops:
        tops[solution] = run_top(proj, group, solution)
    top = tops[solution]
    named = project_tops(proj) if top is None and parts[-3:-1] != ["syn", "report"] else set()
    if named:
        # a copy out of its solution: only under a top some file of the project names
        # (ArdaAsci/hls_project: matrixmul_Pipeline_Row_Col_Product_csynth.xml, a loop's report,
        # at the root beside matrixmul_prj/, whose hls.app names matrixmul); with none named,
        # the folder's only per-module report, as in a solution (a reports-only check-in)
        return parts[-1][: -len(LEGACY_REPORT_SUFFIX)] in named
    if top is None:
        folder = posixpath.dirname(proj.rel[report.path])
        return [posixpath.dirname(proj.rel[p.path]) for p in modules].count(folder) == 1
    return parts[-1] == f"{top}{LEGACY_REPORT_SUFFIX}"


def project_tops(proj: ProjectFiles) -> set[str]:
    """The top functions the project's scripts, `.app` files, configurations and logs name."""
    kinds = ("hls_script", "hls_app", "hls_config", "hls_log")
    return {item.facts["top"] for kind in kinds for item in proj.readable(kind) if item.facts.get("top")}


def run_top(proj: ProjectFiles, group: RunGroup, solution: str | None, chosen: Parsed | None = None) -> str | None:
    """The top function of a run's solution: the one its chosen `csynth.xml` was synthesised for
    (`TopModelName`), else named by the solution's own `set_directive_top` (its log echoes it),
    else by its own log's last synthesis, else by its script or its project's file, else by a
    session log's `set_top`, else by the one name its simulation reports were given. Of those,
    the first whose reports the solution holds wins (tkgit-make/tanishPatchMakerHLS: the
    script's `MPSQ` has none, its directives made another function the top, whose name the
    reports carry)."""
    named = [top for top in _tops_named(proj, group, solution, chosen) if top]
    reported = _report_names(proj, group, solution)
    return next((top for top in named if top in reported), named[0] if named else None)


def _tops_named(
    proj: ProjectFiles, group: RunGroup, solution: str | None, chosen: Parsed | None
) -> Iterator[str | None]:
    if chosen is not None and proj.parts(chosen)[-1] == "csynth.xml":
        # (ese5320's solution_FILTER_VERTICAL: its log's last synthesis, of Filter_horizontal_HW,
        # wrote no report; its csynth.xml is Filter_vertical_HW's, as its csim verdict must be)
        yield top_model_name(chosen)
    own_logs = [log for log in group.of("hls_log") if solution is not None and proj.folder(log) == solution]
    yield next((log.facts["directive_top"] for log in own_logs if log.facts.get("directive_top")), None)
    # (the top its own log's last synthesis worked on: CitBremen/vivado_vector_adder's script.tcl
    # in every solution says complex2DAdder, unoptimized.log synthesised TopAdder, its report's)
    yield next((log.facts["synthesised"] for log in own_logs if log.facts.get("synthesised")), None)
    yield next(named_tops(proj, solution), None) if solution is not None else None  # (script, .app, config)
    yield next((log.facts["top"] for log in group.of("hls_log") if log.facts.get("top")), None)
    yield _named_by_simulation_reports(proj, group, solution)


def _report_names(proj: ProjectFiles, group: RunGroup, solution: str | None) -> set[str]:
    """The functions a solution's reports are named after (`<m>_csynth.xml`, `<top>_csim.log`,
    `<top>_cosim.rpt`)."""
    return {name for name, _parts in _named_reports(proj, group, solution, NAMED_REPORTS)}


def _named_by_simulation_reports(proj: ProjectFiles, group: RunGroup, solution: str | None) -> str | None:
    # the solution's own, not a copy in reports/; `sim/` alone: a solution copied without its
    # report folders (layout._cosim_solution)
    own = (["sim", "report"], ["csim", "report"])
    names = {
        name
        for name, parts in _named_reports(proj, group, solution, SIMULATION_REPORTS)
        if parts[-3:-1] in own or parts[-2:-1] == ["sim"]
    }
    names.discard("")  # (`_csim.log`: a simulation run without a top)
    if len({name.lower() for name in names}) != 1:
        return None
    # one name, spelled in two cases on a file system that keeps no case (CitBremen/
    # vivado_vector_adder: `topAdder_csim.log`, `TopAdder_cosim.rpt`): as its reports spell it
    synthesised = {name for name, _parts in _named_reports(proj, group, solution, MODULE_REPORTS)}
    spellings = sorted(names)
    return next((name for name in spellings if name in synthesised), spellings[0])


def _named_reports(
    proj: ProjectFiles, group: RunGroup, solution: str | None, suffixes: dict[str, str]
) -> Iterator[tuple[str, list[str]]]:
    """(the function, the path's parts) of each report of the solution named after a function:
    those of the kinds `suffixes` gives, with the suffix that follows the name."""
    for item in group.items:
        if item.kind in suffixes and (name := report_function(item)) is not None:
            parts = proj.parts(item)
            if solution_of(parts, item.kind) == solution:
                yield name, parts


def is_tops(proj: ProjectFiles, report: Parsed, top: str | None) -> bool:
    """Whether a simulation report is the top function's own (`<top>_csim.log`, `<top>_cosim.rpt`)."""
    suffix = SIMULATION_REPORTS.get(report.kind)
    return top is not None and suffix is not None and proj.parts(report)[-1] == top + suffix


def csim_candidates(proj: ProjectFiles, csim_logs: list[Parsed], top: str | None) -> list[Parsed]:
    """The C simulation reports that may give a run its verdict, in order: the top function's own
    alone where there is one (cut short, without a verdict, another function's is none either),
    else each, newest first."""
    ranked = by_top_then_newest(proj, csim_logs, top)
    return ranked[:1] if ranked and is_tops(proj, ranked[0], top) else ranked


def _simulated_top(
    proj: ProjectFiles, group: RunGroup, solution: str | None, find_top: Callable[[], str | None]
) -> str | None:
    """The function a C simulation run's verdict speaks of: the one its speaking report is named
    after; None where it is a session log's (a bare `_csim.log` names none either)."""
    logs = [p for p in group.of("csim_log") if in_solution(proj, group, p, solution)]
    speaking = next((p for p in csim_candidates(proj, logs, find_top()) if p.ok and p.facts["csim_status"]), None)
    return (report_function(speaking) or None) if speaking is not None else None


def in_solution(proj: ProjectFiles, group: RunGroup, item: Parsed, solution: str | None) -> bool:
    """Whether an artifact belongs to a run's chosen solution (every one does without one): not
    one of another of the run's solutions inside it (Ahrfry/vasado's `ku060_solution/example/`,
    a project the tool made in the solution's folder: its C simulation failed, found no test
    bench, and its newer log made the outer solution's sw_run fail)."""
    if solution is None or (item.kind == "cosim_rpt" and solution_of(proj.parts(item), "cosim_rpt") == solution):
        return True
    rel = proj.rel[item.path]
    return inside(rel, solution) and not any(
        other != solution and inside(other, solution) and inside(rel, other) for other in group.solutions
    )


def by_top_then_newest(proj: ProjectFiles, items: list[Parsed], top: str | None) -> list[Parsed]:
    """Simulation reports, the top function's first (a checkout dates files in any order), each
    group newest first."""
    return sorted(items, key=lambda p: (not is_tops(proj, p, top), -p.mtime_ns))


def chosen_solution(proj: ProjectFiles, group: RunGroup, chosen: Parsed | None) -> str | None:
    """The solution of the chosen report; without one, the shallowest, newest solution."""
    if not group.solutions:
        return None
    if chosen is not None:
        rel = proj.rel[chosen.path]
        for solution in sorted(group.solutions, key=len, reverse=True):
            if inside(rel, solution):
                return solution
    newest = {
        s: max((p.mtime_ns for p in group.items if inside(proj.rel[p.path], s)), default=0) for s in group.solutions
    }
    return min(group.solutions, key=lambda s: (s.count("/"), -newest[s], s))


def _session_logs(proj: ProjectFiles, group: RunGroup, solution: str | None) -> list[Parsed]:
    """The HLS logs that speak for the run: those of the session that ran its chosen solution (and
    that component's step logs); for a run without solutions (inside a v++ build) all of its own."""
    logs = group.of("hls_log") + group.of("hls_step_log")
    if not group.solutions or solution is None:
        return logs
    work = work_of(solution)
    steps = [p for p in group.of("hls_step_log") if proj.folder(p) == posixpath.normpath(posixpath.join(work, "logs"))]
    return session_logs(proj, solution, proj.session_candidates()) + steps
