"""The v++ runs of a project: its build folders, the runs their names or their logs give, and the
files that join each (docs/collection.md, "Which runs a project holds"); grouping.py asks it first."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.artifacts.profile import XRT_RUN_FOLDER
from collectors.collect.artifacts.vpp_log import is_vpp_build_dir, kernel_build_dir, vpp_build_dir
from collectors.collect.pruning import IDE_CONFIGURATIONS
from collectors.collect.runs.layout import ProjectFiles, RunGroup, RunGroups
from collectors.problems import Problem
from collectors.records.model import VPP_TARGETS

NOT_IN_VPP_RUNS = frozenset({"runner_meta", "aps", "hls_app", "vitis_comp"})
BESIDE_THE_HOST = frozenset({"vpp_log", "profile", "summary"})  # v++ files that make a run with no build folder


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
            elif (linked := _link_beside(proj, context)) is not None:
                context_run[context] = groups.get(f"vitis.{linked[0]}", linked[1])
    return context_run


def _link_beside(proj: ProjectFiles, context: str) -> tuple[str, str] | None:
    """The target and platform of the one v++ link a summary beside a plain `_x` names, where no
    v++ log of it was kept (hannahxy13/finn: `*.log` git-ignored, `<platform>.xsa.link_summary`
    beside `_x/`: its kernel's HLS reports were 'in no run')."""
    folder = posixpath.dirname(context) or "."  # (as ProjectFiles.folder says the project itself)
    links = {
        (p.facts["target"], p.facts["platform"])
        for p in proj.readable("summary")
        if p.facts["flow"] == "link" and p.facts["target"] and p.facts["platform"] and proj.folder(p) == folder
    }
    return links.pop() if len(links) == 1 else None


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
    profiles = [p for p in loose if p.kind == "profile" and p.ok and _in_emulation_run(proj.parts(p))]
    # only a profile's folder has its trace and simulator's log read (tinaba96/master: 13 logs of
    # runs that kept no profile, 2019.x's with no banner, were 13 lines 'no xsim banner')
    folders = {proj.folder(p) for p in profiles}
    beside = {
        (proj.folder(p), p.kind): p
        for p in proj.parsed
        if p.kind in ("emu_timeline", "xsim_log") and proj.folder(p) in folders and p.ok
    }
    taken: list[Parsed] = []
    for profile in profiles:
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
