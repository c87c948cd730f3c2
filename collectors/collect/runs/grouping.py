"""Which runs a project holds, and which artifacts belong to each (docs/collection.md, "Which runs a project holds")."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from collectors.collect.artifacts.hls_log_names import STEP_LOGS
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.artifacts.profile import XRT_RUN_FOLDER
from collectors.collect.artifacts.vpp_log import is_vpp_build_dir, kernel_build_dir, vpp_build_dir
from collectors.collect.pruning import COMPILE_SUMMARY, IDE_CONFIGURATIONS
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
from collectors.problems import Problem
from collectors.records.model import VPP_TARGETS

NOT_IN_VPP_RUNS = frozenset({"runner_meta", "aps", "hls_app", "vitis_comp"})
BESIDE_THE_HOST = frozenset({"vpp_log", "profile", "summary"})  # v++ files that make a run with no build folder


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


# --- v++ runs -------------------------------------------------------------------------------


def vpp_groups(proj: ProjectFiles, build_dirs: Iterable[str], groups: RunGroups, problems: list[Problem]) -> None:
    named = _build_dirs(proj, build_dirs)
    if not named and not any(item.kind in BESIDE_THE_HOST for item in proj.parsed):
        return  # (an HLS project: no v++ build, nothing beside a host program; a tenth of its grouping)
    context_run = _context_runs(proj, named, groups)
    loose = _place_vpp_items(proj, named, context_run, groups)
    _plain_dirs_of_the_only_build(proj, named, context_run, groups)
    loose = _harness_runs(proj, loose, groups)
    loose = _emulation_run_folders(proj, loose, groups)
    _place_loose(loose, groups, problems)


def _build_dirs(proj: ProjectFiles, build_dirs: Iterable[str]) -> dict[str, tuple[str, str] | None]:
    """The project's own v++ build directories -> (target, platform) their name gives (None: plain `_x`)."""
    named: dict[str, tuple[str, str] | None] = {}
    for directory in build_dirs:
        rel = proj.rel_of(directory)
        if "/" in rel and rel not in proj.temp_dirs:
            continue
        from_name = vpp_build_dir(rel)
        if rel in IDE_CONFIGURATIONS:  # the configuration's v++ logs name its target, when they do
            named[rel] = (_logged_target(proj, rel) or IDE_CONFIGURATIONS[rel], "")
        elif from_name:
            named[rel] = (f"vitis.{from_name[0]}", from_name[1])
        elif is_vpp_build_dir(rel) or rel in proj.temp_dirs:
            named.setdefault(rel, None)
    for context in {proj.vpp_context(item) or "" for item in proj.parsed} - named.keys():
        parent, _, name = context.rpartition("/")
        kernel = kernel_build_dir(name) if parent and context not in proj.temp_dirs else None
        if kernel is not None:  # (xocc's `_x/<kernel>.<t>.<platform>`: ProjectFiles.vpp_context)
            named[context] = (f"vitis.{kernel[0]}", kernel[1])
        elif (log := proj.kernel_work().get(context)) is not None:  # (where its compile's HLS ran)
            named[context] = (f"vitis.{log.facts['target']}", log.facts["device"] or "")
    return named


def _context_runs(
    proj: ProjectFiles, named: dict[str, tuple[str, str] | None], groups: RunGroups
) -> dict[str, RunGroup]:
    context_run: dict[str, RunGroup] = {}
    # Named build directories make their run exist even before any log is written.
    for context, from_name in named.items():
        if from_name is not None:
            target, platform = from_name
            context_run[context] = groups.get(target, platform or _log_device(proj, context))
    # Plain `_x` directories: the run of the newest v++ log inside says which one it is.
    for context, from_name in named.items():
        if from_name is None:
            logs = sorted((p for p in _targeted_logs(proj) if proj.vpp_context(p) == context), key=lambda p: p.mtime_ns)
            if logs:
                newest = logs[-1].facts  # a package step names no device: another log of the build does
                device = newest["device"] or _log_device(proj, context)
                context_run[context] = groups.get(f"vitis.{newest['target']}", device)
    return context_run


def _plain_dirs_of_the_only_build(
    proj: ProjectFiles,
    named: dict[str, tuple[str, str] | None],
    context_run: dict[str, RunGroup],
    groups: RunGroups,
) -> None:
    """A plain `_x` with no v++ log inside that names a target is the build of the project's
    only v++ run, whose log sits beside it (UCLA-VAST/Prometheus: its kernels' HLS solutions
    were in no run)."""
    builds = groups.of_target(*VPP_TARGETS)
    unknown = {context for context, from_name in named.items() if from_name is None and context not in context_run}
    if len(builds) != 1 or not unknown:
        return
    for item in proj.parsed:
        if item.kind not in NOT_IN_VPP_RUNS and proj.vpp_context(item) in unknown:
            builds[0].items.append(item)


def _targeted_logs(proj: ProjectFiles) -> list[Parsed]:
    return [p for p in proj.readable("vpp_log") if p.facts["target"]]


def _place_vpp_items(
    proj: ProjectFiles,
    named: dict[str, tuple[str, str] | None],
    context_run: dict[str, RunGroup],
    groups: RunGroups,
) -> list[Parsed]:
    """Artifacts inside a build directory join its run; returns those left beside the host program."""
    loose: list[Parsed] = []
    for item in proj.parsed:
        if item.kind in NOT_IN_VPP_RUNS:
            continue
        context = proj.vpp_context(item)
        targeted = item.kind == "vpp_log" and item.ok and bool(item.facts["target"])
        if context is not None and context in context_run:
            if targeted and named[context] is None:
                # several targets may share one plain _x: each log joins its own run (a package
                # step names no device: it is the device of that target's only run)
                target = f"vitis.{item.facts['target']}"
                device = item.facts["device"] or _only_device(groups, target)
                groups.get(target, device).items.append(item)
            else:
                context_run[context].items.append(item)
        elif context is None and targeted:
            target = f"vitis.{item.facts['target']}"
            device = item.facts["device"] or _only_device(groups, target)
            groups.get(target, device).items.append(item)
        elif context is None and item.kind in BESIDE_THE_HOST:
            loose.append(item)
    return loose


def _harness_runs(proj: ProjectFiles, loose: list[Parsed], groups: RunGroups) -> list[Parsed]:
    """A profile copied beside a link summary, with no v++ build of that target in the project, is
    that summary's run (a hardware emulation's when one of the summaries is). Returns what is
    still loose."""
    taken: list[Parsed] = []
    for profile in (p for p in loose if p.kind == "profile" and p.ok):
        folder = proj.folder(profile)
        beside = [p for p in loose if p.kind == "summary" and p.ok and proj.folder(p) == folder]
        links = [p for p in beside if p.facts["flow"] == "link" and p.facts["target"] and p.facts["platform"]]
        link = next((p for p in links if p.facts["target"] == "hw_emu"), links[0] if len(links) == 1 else None)
        if link is None or groups.of_target(f"vitis.{link.facts['target']}"):
            continue
        group = groups.get(f"vitis.{link.facts['target']}", link.facts["platform"])
        same_build = [p for p in beside if p.facts["target"] == link.facts["target"]]
        group.add([profile, *same_build])
        taken += [profile, *same_build]
    return [p for p in loose if p not in taken]


def _emulation_run_folders(proj: ProjectFiles, loose: list[Parsed], groups: RunGroups) -> list[Parsed]:
    """A profile in XRT's own folder of a hardware emulation run (`.run/<pid>/hw_emu/device<n>/
    binary_<m>/behav_waveform/xsim/`, made where the host program ran; rules 5: the run's newest
    profile may be there) is a hardware emulation's where the project has no hw_emu build, on
    the platform its kernel trace beside it names, of the release its simulator's log does
    (ronaldprasad1/GEMM_opt committed seven such folders and no build, darrenang2/R-Tree-Testbed
    one: each profile was 'report that no run of this project takes'). Returns what is still
    loose."""
    if groups.of_target("vitis.hw_emu"):
        return loose  # (a build's run takes them: _place_loose)
    beside = {(proj.folder(p), p.kind): p for p in [*proj.readable("emu_timeline"), *proj.readable("xsim_log")]}
    taken: list[Parsed] = []
    for profile in (p for p in loose if p.kind == "profile" and p.ok and _in_emulation_run(proj.parts(p))):
        timeline, simulator = (beside.get((proj.folder(profile), kind)) for kind in ("emu_timeline", "xsim_log"))
        group = groups.get("vitis.hw_emu", None if timeline is None else timeline.facts["platform"])
        group.add([item for item in (profile, timeline, simulator) if item is not None])
        taken.append(profile)
    return [p for p in loose if p not in taken]


def _in_emulation_run(parts: list[str]) -> bool:
    """`.run/<pid>/hw_em*/` in a file's path (relative; `hw_em` before 2023: darrenang2/R-Tree-Testbed)."""
    return any(
        parts[at] == XRT_RUN_FOLDER and parts[at + 1].isdigit() and parts[at + 2].startswith("hw_em")
        for at in range(len(parts) - 3)
    )


def _place_loose(loose: list[Parsed], groups: RunGroups, problems: list[Problem]) -> None:
    """Next to the host program: a profile belongs to hardware emulation; a summary or log that
    names no target goes to the project's only v++ run, if it has one."""
    vpp = groups.of_target(*VPP_TARGETS)
    hw_emu = [g for g in vpp if g.target == "vitis.hw_emu"]
    for item in loose:
        choices = hw_emu if item.kind == "profile" else vpp
        named = item.facts.get("target") if item.kind == "summary" and item.ok else None
        if named is not None:  # a summary of another target's build (a failed hw link) joins no run
            choices = [group for group in choices if group.target == f"vitis.{named}"]
        if len(choices) == 1:
            choices[0].items.append(item)
        elif len(choices) > 1 and item.kind == "profile":
            problems.append(Problem(item.path, "profile belongs to several hw_emu runs; not used"))


def _log_device(proj: ProjectFiles, context: str) -> str | None:
    """The device a build's v++ logs name, else (an IDE configuration) its link summary's
    platform, else the one platform its compile summaries name (beetleboxorg/cvtcolour: a
    configuration whose kernel was compiled, never linked)."""
    for item in proj.readable("vpp_log"):
        if item.facts["device"] and proj.vpp_context(item) == context:
            return item.facts["device"]
    summaries = [p for p in proj.readable("summary") if p.facts["platform"] and proj.vpp_context(p) == context]
    for item in summaries:
        if item.facts["flow"] == "link":
            return item.facts["platform"]
    compiled = {p.facts["platform"] for p in summaries if p.facts["flow"] == "compile"}
    if len(compiled) == 1:
        return compiled.pop()
    if context in IDE_CONFIGURATIONS:  # the IDE project names the platform it builds for
        shallowest_first = sorted(proj.readable("ide_prj"), key=lambda p: (len(proj.parts(p)), p.path))
        return next((p.facts["platform"] for p in shallowest_first if p.facts["platform"]), None)
    return None


def _logged_target(proj: ProjectFiles, context: str) -> str | None:
    """The target the newest targeted v++ log of a build names."""
    logs = sorted((p for p in _targeted_logs(proj) if proj.vpp_context(p) == context), key=lambda p: p.mtime_ns)
    return f"vitis.{logs[-1].facts['target']}" if logs else None


def _only_device(groups: RunGroups, target: str) -> str | None:
    devices = {g.device for g in groups.of_target(target)}
    return devices.pop() if len(devices) == 1 else None


# --- HLS solutions --------------------------------------------------------------------------


def hls_groups(
    proj: ProjectFiles, groups: RunGroups, path_gives_variant: bool = False, problems: list[Problem] | None = None
) -> None:
    problems = [] if problems is None else problems
    logs = [p for p in proj.readable("hls_log") if proj.vpp_context(p) is None]
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
