"""Which runs a project holds, and which artifacts belong to each (docs/collection.md, "Which runs a project holds")."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from collectors.collect.artifacts.hls_log_names import STEP_LOGS
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.pruning import COMPILE_SUMMARY
from collectors.collect.runs.facts import hls_device
from collectors.collect.runs.layout import (
    ProjectFiles,
    RunGroup,
    RunGroups,
    inside,
    is_component_hls,
    is_copied_cosim,
    solution_of,
    work_of,
)
from collectors.collect.runs.sessions import session_logs
from collectors.collect.runs.solutions import plan_solutions
from collectors.collect.runs.vpp_runs import vpp_groups
from collectors.problems import Problem
from collectors.records.model import VPP_TARGETS


def group_runs(
    proj: ProjectFiles,
    build_dirs: Iterable[str],
    metas: list[Parsed],
    problems: list[Problem],
    path_gives_variant: bool = False,
) -> RunGroups:
    """`path_gives_variant`: the path names the variant, not each solution (solutions.plan_solutions)."""
    groups = RunGroups()
    vpp_groups(proj, build_dirs, groups, problems)
    hls_groups(proj, groups, path_gives_variant, problems)
    meta_groups(metas, groups)
    return groups


# --- HLS solutions --------------------------------------------------------------------------


def hls_groups(
    proj: ProjectFiles, groups: RunGroups, path_gives_variant: bool = False, problems: list[Problem] | None = None
) -> None:
    problems = [] if problems is None else problems
    logs = proj.session_candidates()
    solutions = _solutions(proj, groups)
    sessions = {solution: session_logs(proj, solution, logs) for solution in solutions}
    # the logs with a verdict of this solution's: its own, and those whose sessions that opened it
    # gave one (Chihan-Zheng/ese532_hw7's P4 failed in the project's vitis_hls.log)
    components = {solution: _component_files(proj, solution) for solution in solutions}
    judging = {
        solution: [p for p in found if _judges(proj, p, solution)] + _step_logs(components[solution])
        for solution, found in sessions.items()
    }
    component_solutions = frozenset(solution for solution, files in components.items() if files)
    plan = plan_solutions(proj, solutions, judging, path_gives_variant, problems, component_solutions)
    for solution, items in solutions.items():
        if solution in plan.skipped:
            continue
        component = components[solution]
        stale = _other_designs_copies(proj, items, component)
        problems += stale
        gone = {line.path for line in stale}
        items = [p for p in items if p.path not in gone]
        session = sessions[solution] + _step_logs(component)
        own = items + [p for p in session if p not in items] + component
        device = hls_device(proj, own)
        # (a verdict of a session that opened another solution makes no run of this one)
        verdicts = [p for p in sessions[solution] if not p.facts["opened"] or _judges(proj, p, solution)]
        for target in _hls_targets(items, verdicts + component):
            group = groups.get(target, device, plan.variants.get(solution))
            group.add(own)
            group.solutions.append(solution)


def _other_designs_copies(proj: ProjectFiles, items: list[Parsed], component: list[Parsed]) -> list[Problem]:
    """A unified component's `reports/hls_cosim.rpt` whose co-simulation ran another design than
    its compile: no result of this run, whose synthesis is the other design's; a problem line
    each. Told by the configuration the step logs say they applied (`Applying ini '...'`): another
    top (liuutin9/FPGA-Acceleration-of-TinyLLaVA-Inference-via-HLS: `mat_mul` simulated on May 6,
    `attention` compiled on May 27; the compile emptied `hls/sim/`, the copy stayed), or another
    clock, part or synthesis setting (wzwyz/ZYNQ-based-acoustic-camera: simulated at 180 MHz,
    compiled at 400 MHz since)."""
    logs = {posixpath.basename(p.path): p.facts for p in component if p.kind == "hls_step_log" and p.ok}
    simulated, compiled = logs.get(STEP_LOGS["cosim"]), logs.get(STEP_LOGS["synthesis"])
    if simulated is None or compiled is None:
        return []
    cosim_log, theirs, ours = STEP_LOGS["cosim"], _by_key(simulated["ini_design"]), _by_key(compiled["ini_design"])
    tops = theirs.get("syn.top"), ours.get("syn.top")
    if all(tops) and tops[0] != tops[1]:
        why = f"a co-simulation of {_words(tops[0])} (its {cosim_log}), not of {_words(tops[1])}, compiled since"
    elif (differ := _differing(theirs, ours)) is not None:
        why = f"a co-simulation of another design (its {cosim_log} applied {differ}), compiled since"
    else:
        return []
    return [
        Problem(p.path, f"{why}: not collected")
        for p in items
        if p.kind == "cosim_rpt" and proj.parts(p)[-2:-1] == ["reports"]
    ]


def _differing(theirs: dict[str, set[str]], ours: dict[str, set[str]]) -> str | None:
    """The first setting both steps applied with other values, in words (None: none such). A
    setting only one applied says nothing: the other ran with the default, which may be it."""
    for key in sorted(theirs.keys() & ours.keys()):
        if theirs[key] != ours[key]:
            return f"{key}={_words(theirs[key])} where the compile applied {key}={_words(ours[key])}"
    return None


def _words(values: set[str] | None) -> str:
    return ",".join(sorted(values or ()))


def _by_key(settings: list[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for setting in settings:
        key, _, value = setting.partition("=")
        found.setdefault(key, set()).add(value)
    return found


def _judges(proj: ProjectFiles, log: Parsed, solution: str) -> bool:
    """A log in the solution's folder, or one whose sessions that opened it gave a verdict."""
    return proj.folder(log) == solution or posixpath.basename(solution) in log.facts["judged"]


def _solutions(proj: ProjectFiles, groups: RunGroups) -> dict[str, list[Parsed]]:
    """HLS solution directories (outside v++ builds) with their artifacts; copies nested inside
    another solution (impl/ip/hls_files/...) are that solution's."""
    by_solution, copies = _placed(proj, groups)
    for item in proj.parsed:
        if proj.vpp_context(item) is not None:
            continue
        if item.kind == "vitis_comp" and item.facts.get("hls", True):
            # a component runs in the work_dir its JSON names (even before any report exists)
            work_dir = item.facts.get("work_dir", ".")
            by_solution.setdefault(posixpath.normpath(posixpath.join(proj.folder(item), work_dir, "hls")), [])
        elif item.kind == "summary" and item.path.endswith(COMPILE_SUMMARY):
            # `v++ -c --mode hls --work_dir W` writes no JSON: its compile summary is in W (tsawke/
            # FPGA's hls/hls.hlscompile_summary, no report committed: a failed compile was no run)
            by_solution.setdefault(posixpath.normpath(posixpath.join(proj.folder(item), "hls")), [])
    for item, solution in copies:
        owner = _copy_owner(proj.folder(item), solution, by_solution)
        if owner is not None:
            by_solution[owner].append(item)
    merged: dict[str, list[Parsed]] = {}
    projects = {proj.folder(item) for item in proj.parsed if item.kind == "hls_app"}
    for solution in sorted(by_solution, key=lambda s: (s.count("/"), s)):
        # (its shallowest folder already a solution: asked of its few folders, not of every
        # solution so far, as a design space exploration holds thousands)
        parts = solution.split("/")
        folders = ("/".join(parts[:depth]) for depth in range(1, len(parts) + 1))
        owner = next((folder for folder in folders if folder != "." and folder in merged), None)
        if owner is not None and _project_made_inside(solution, owner, projects):
            owner = None
        merged.setdefault(owner or solution, []).extend(by_solution[solution])
    return merged


def _project_made_inside(solution: str, outer: str, projects: set[str]) -> bool:
    """Whether a solution inside another is one of a project of its own (its folder holds an
    `hls.app`) that the HLS tool made there, started in the outer solution's folder (little-mumu/
    cnn_on_kv260: conv_core/solution1/conv_core/solution1 holds the reports and the sessions'
    log), not a copy the outer one packaged (impl/ip/hls_files/...)."""
    project = posixpath.dirname(solution)
    return project in projects and project != outer and inside(project, outer)


def _placed(proj: ProjectFiles, groups: RunGroups) -> tuple[dict[str, list[Parsed]], list[tuple[Parsed, str]]]:
    """The artifacts of each solution, by the solution their paths name; and apart, the cosim
    reports in a `reports/` folder with the solution their paths name (placed once the others
    are: `_copy_owner`)."""
    by_solution: dict[str, list[Parsed]] = {}
    copies: list[tuple[Parsed, str]] = []
    for item in proj.parsed:
        if proj.vpp_context(item) is not None or item.kind == "hls_log":
            continue  # inside a v++ build: that run's; a `<dir>/<dir>.log` alone is no solution (AIE tiles)
        solution = solution_of(proj.parts(item), item.kind)
        if solution is None:
            continue
        if (build := _copied_from_build(proj, item, groups)) is not None:
            build.items.append(item)
        elif item.kind == "cosim_rpt" and is_copied_cosim(proj.parts(item)[:-1]):
            copies.append((item, solution))
        else:
            by_solution.setdefault(solution, []).append(item)
    return by_solution, copies


def _copy_owner(folder: str, solution: str, known: dict[str, list[Parsed]]) -> str | None:
    """The solution a cosim report copied to `<folder>/reports/` goes with: the component's
    `<folder>/hls` where that is a solution, else the one solution below it (`vitis-run
    --work_dir hls` puts it in `hls/hls`: drindr/hlstrack2025-45488, whose step logs were then
    read for the work directory, not the solution), else the copies' own folder where a
    `csynth.xml` copied there made it one (hongpengWu/hlstrack2025_40562's Makefile copies its
    reports to `reports/`, with no build beside them: the cosim copy made a second variant named
    `hls`, of unknown device and version); none where no solution is there."""
    if solution in known:
        return solution
    below = [other for other in known if other.startswith(solution + "/")]
    if len(below) == 1:
        return below[0]
    return folder if folder in known else None


def _copied_from_build(proj: ProjectFiles, item: Parsed, groups: RunGroups) -> RunGroup | None:
    """The v++ run a csynth.xml copied out of its solution (no `syn/report` around it) was taken
    from: the only one with a v++ log in the copy's folder or above it (YanLunHuang/
    alveo_FPGA_tutorial's report/report/csynth.xml beside report/v++_alveo_hls4ml.log)."""
    if item.kind != "csynth" or proj.parts(item)[-3:-1] == ["syn", "report"]:
        return None
    folder = proj.folder(item)
    builds = [
        group
        for group in groups.of_target(*VPP_TARGETS)
        if any(p.kind == "vpp_log" and inside(folder, proj.folder(p)) for p in group.items)
    ]
    return builds[0] if len(builds) == 1 else None


def _component_files(proj: ProjectFiles, solution: str) -> list[Parsed]:
    """A unified component's summaries (`<comp>.hlscompile_summary`, `<comp>.hlsrun_<step>_summary`)
    sit beside its `hls/` work directory, its step logs in `logs/` there, its `hls_config.cfg`
    in the component's folder (the work directory's, or the one above it)."""
    if not is_component_hls(solution):
        return []
    work = work_of(solution)
    steps = posixpath.join(work, "logs") if work != "." else "logs"
    configs = (work, posixpath.dirname(work) or ".")
    return [
        p
        for p in proj.parsed
        if (p.kind == "summary" and proj.folder(p) == work)
        or (p.kind == "hls_step_log" and proj.folder(p) == steps)
        or (p.kind == "hls_config" and proj.folder(p) in configs)
    ]


def _step_logs(component: list[Parsed]) -> list[Parsed]:
    """A unified component's step logs that were read: its sessions' logs, and its verdicts (an50's
    Alex_Net component, whose compile failed, was no solution with results: the default variant
    beside the project's fifteen solution variants, its index 0 one of theirs)."""
    return [p for p in component if p.kind == "hls_step_log" and p.ok]


def _hls_targets(items: list[Parsed], sources: list[Parsed]) -> list[str]:
    """The runs a solution shows, by its reports and what its session logs (and a component's
    summaries) say: a compile that failed is a synthesis run beside a C simulation's
    (raulest50/dti_core_ovr: the csim verdict alone made the component a vitis.csim run)."""
    # a broken csynth.xml still says synthesis ran; a solution's `.aps` is there (a marker, not read)
    kinds = {p.kind for p in items if p.kind in ("csynth", "aps") or p.ok}
    logs = [p for p in sources if p.kind in ("hls_log", "hls_step_log") and p.ok]  # (one not read says nothing)
    csim = "csim_log" in kinds or any(log.facts["csim_status"] is not None for log in logs)
    failed = any(p.ok and p.facts.get("synthesis_failed") for p in sources)
    targets = []
    if "cosim_rpt" in kinds or "lat_rpt" in kinds:
        targets.append("vitis.cosim")
    elif "csynth" in kinds or "aps" in kinds or not csim or failed:
        targets.append("vitis.csynth")
    if csim:
        targets.append("vitis.csim")
    return targets


# --- runner metadata ------------------------------------------------------------------------


def meta_groups(metas: list[Parsed], groups: RunGroups) -> None:
    """A metadata file naming a target makes that run exist even when nothing else shows it."""
    for meta in metas:
        facts = meta.facts["facts"]
        target = facts.get("target")
        if target is None:
            continue
        device = facts.get("device")
        if device is not None and (target, device) in groups:
            continue
        if device is None and groups.of_target(target):
            continue
        if device is not None and groups.name_device(target, device):
            continue  # a run whose device only the runner knows
        groups.get(target, device)
