"""Runs inside one project, their facts by precedence, and the records they yield.

Pure: it works on already parsed artifacts (see `engine.py` for the I/O and the cache).
Rules sections 3 to 5 live here.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .artifacts.vpp_log import BUILD_DIR
from .discovery import is_vpp_build_dir
from .mapping import Identity
from .numbers import CYCLES, NumberError, checked
from .problems import Problem
from .records.model import TARGET_REPORTS, hls_synth_payload, make_record, rtl_sim_payload

PENALTY_PARTS = frozenset(
    {
        "impl",
        "ip",
        "ip_repo",
        "iprepo",
        "hls_files",
        "link",
        "int",
        "temp",
        "sys_link",
        "xo",
        "vivado",
        "vpl",
        "export",
        "reports",
        "hls_reports",
        "logs",
    }
)
VPP_TARGETS = {"sw_emu": "vitis.sw_emu", "hw_emu": "vitis.hw_emu", "hw": "vitis.hw"}
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Parsed:
    """One artifact after parsing: its facts, or the reason it could not be read."""

    path: str
    kind: str
    mtime_ns: int
    data: dict[str, Any] | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.data is not None


@dataclass
class Run:
    """One (target, device) pair of a project, with what was collected for it."""

    target: str
    device: str
    vitis_version: str = UNKNOWN
    runtime_seconds: float | None = None
    records: list[dict[str, Any]] = field(default_factory=list)
    sources: dict[str, list[str]] = field(default_factory=dict)  # report_type -> files used
    notes: dict[str, str] = field(default_factory=dict)  # runner keys kept for display


@dataclass
class _Group:
    """Artifacts gathered for one run before facts are resolved."""

    target: str
    device: str | None
    items: list[Parsed] = field(default_factory=list)
    solutions: list[str] = field(default_factory=list)  # HLS solution dirs (relative)
    _index: dict[str, list[Parsed]] | None = field(default=None, repr=False)
    _indexed: int = field(default=0, repr=False)

    def of(self, kind: str) -> list[Parsed]:
        """The readable artifacts of one kind (indexed once: grouping is over when this is asked)."""
        if self._index is None or self._indexed != len(self.items):
            self._index, self._indexed = {}, len(self.items)
            for item in self.items:
                if item.ok:
                    self._index.setdefault(item.kind, []).append(item)
        return self._index.get(kind, [])


class _Project:
    """Helpers over one project's parsed artifacts, paths taken relative to the project."""

    def __init__(self, path: str, parsed: Iterable[Parsed]) -> None:
        self.path = path
        self.parsed = list(parsed)
        cut = len(path) + 1  # every artifact lies below the project: slicing beats relpath
        self.rel = {p.path: p.path[cut:].replace(os.sep, "/") for p in self.parsed}
        self._contexts: dict[str, str | None] = {}

    def parts(self, item: Parsed) -> list[str]:
        return self.rel[item.path].split("/")

    def vpp_context(self, item: Parsed) -> str | None:
        """The outermost v++ build directory (relative) an artifact sits in, if any."""
        if item.path not in self._contexts:
            parts = self.parts(item)
            self._contexts[item.path] = next(
                ("/".join(parts[: i + 1]) for i, part in enumerate(parts[:-1]) if is_vpp_build_dir(part)), None
            )
        return self._contexts[item.path]


def _solution_of(parts: list[str], kind: str) -> str | None:
    """The HLS solution directory (relative) an artifact belongs to, by its path shape."""
    name, parent = parts[-1], parts[:-1]
    if kind == "csynth":
        if parent[-2:] == ["syn", "report"] and len(parent) > 2:
            return "/".join(parent[:-2])
        return "/".join(parent) or "."  # a copy taken out of its solution (e.g. <proj>/report/)
    if kind == "lat_rpt" and len(parent) >= 4 and parent[-3:-1] == ["sim", "report"]:
        return "/".join(parent[:-3])
    if kind == "cosim_rpt":
        if parent[-2:] == ["sim", "report"] and len(parent) > 2:
            return "/".join(parent[:-2])
        if parent[-1:] == ["reports"]:  # 2025.x unified component copies it to <comp>/reports/
            return "/".join(parent[:-1] + ["hls"])
    if kind == "csim_log" and parent[-2:] == ["csim", "report"] and len(parent) > 2:
        return "/".join(parent[:-2])
    if kind == "hls_log" and parent and name == parent[-1] + ".log":
        return "/".join(parent)
    if kind == "aps" and parent:
        return "/".join(parent)
    return None


def _inside(path: str, ancestor: str) -> bool:
    return ancestor == "." or path == ancestor or path.startswith(ancestor + "/")


def csynth_pick_key(rel: str, mtime_ns: int) -> tuple:
    """Rules 5: (penalty, non-canonical suffix, depth, -mtime, path); the smallest wins."""
    parts = rel.split("/")
    penalty = sum(1 for part in parts[:-1] if part in PENALTY_PARTS)
    canonical = len(parts) >= 4 and parts[-3:] == ["syn", "report", "csynth.xml"]
    return (penalty, 0 if canonical else 1, len(parts), -mtime_ns, rel)


def build_runs(
    project_path: str, parsed: Iterable[Parsed], build_dirs: Iterable[str], identity: Identity
) -> tuple[list[Run], list[Problem]]:
    proj = _Project(project_path, parsed)
    problems = [Problem(p.path, p.error) for p in proj.parsed if p.error]
    # values a parser dropped (a number that is not one) while the rest of the file stays usable
    problems += [
        Problem(p.path, issue)
        for p in proj.parsed
        if p.kind != "runner_meta"
        for issue in (p.data or {}).get("issues", ())
    ]
    groups: dict[tuple[str, str | None], _Group] = {}

    metas = [p for p in proj.parsed if p.kind == "runner_meta" and p.ok and "/" not in proj.rel[p.path]]
    for meta in metas:
        problems.extend(Problem(meta.path, issue) for issue in meta.data["issues"])

    _vpp_groups(proj, build_dirs, groups, problems)
    _hls_groups(proj, groups)
    _meta_groups(metas, groups)

    runs = [_resolve(proj, group, metas, identity, problems) for group in groups.values()]
    runs.sort(key=lambda r: (r.target, r.device))
    return runs, problems


# --- v++ runs -------------------------------------------------------------------------------


def _vpp_groups(proj: _Project, build_dirs: Iterable[str], groups: dict, problems: list[Problem]) -> None:
    named: dict[str, tuple[str, str]] = {}  # context dir -> (target, platform)
    for directory in build_dirs:
        rel = os.path.relpath(directory, proj.path).replace(os.sep, "/")
        top = rel.split("/")[0]
        match = BUILD_DIR.match(top)
        if match and top == rel:
            named[top] = (VPP_TARGETS[match.group(1)], match.group(2))
        elif is_vpp_build_dir(top) and top == rel:
            named.setdefault(top, ("", ""))

    def group_for(target: str, device: str | None) -> _Group:
        key = (target, device or None)
        if key not in groups:
            groups[key] = _Group(target, device or None)
        return groups[key]

    context_run: dict[str, _Group] = {}
    # Named build directories make their run exist even before any log is written.
    for context, (target, platform) in named.items():
        if target:
            device = platform or _log_device(proj, context)
            context_run[context] = group_for(target, device)
    # Plain `_x` directories: the run of the newest v++ log inside says which one it is.
    for context, (target, _platform) in named.items():
        if target:
            continue
        logs = sorted(
            (
                p
                for p in proj.parsed
                if p.kind == "vpp_log" and p.ok and proj.vpp_context(p) == context and p.data["target"]
            ),
            key=lambda p: p.mtime_ns,
        )
        if logs:
            newest = logs[-1].data
            context_run[context] = group_for(VPP_TARGETS[newest["target"]], newest["device"])
    loose: list[Parsed] = []
    for item in proj.parsed:
        if item.kind in ("runner_meta", "aps", "hls_app", "vitis_comp"):
            continue
        context = proj.vpp_context(item)
        if context is not None and context in context_run:
            if item.kind == "vpp_log" and item.ok and item.data["target"] and not named[context][0]:
                # several targets may share one plain _x: each log joins its own run
                group_for(VPP_TARGETS[item.data["target"]], item.data["device"]).items.append(item)
            else:
                context_run[context].items.append(item)
        elif context is None and item.kind == "vpp_log" and item.ok and item.data["target"]:
            target = VPP_TARGETS[item.data["target"]]
            device = item.data["device"] or _only_device(groups, target)
            group_for(target, device).items.append(item)
        elif context is None and item.kind in ("profile", "summary", "vpp_log"):
            loose.append(item)
    vpp = [g for g in groups.values() if g.target in ("vitis.sw_emu", "vitis.hw_emu", "vitis.hw")]
    hw_emu = [g for g in vpp if g.target == "vitis.hw_emu"]
    for item in loose:
        # Next to the host program: a profile belongs to hardware emulation; a summary or
        # log that names no target goes to the project's only v++ run, if it has one.
        choices = hw_emu if item.kind == "profile" else vpp
        if len(choices) == 1:
            choices[0].items.append(item)
        elif len(choices) > 1 and item.kind == "profile":
            problems.append(Problem(item.path, "profile belongs to several hw_emu runs; not used"))


def _log_device(proj: _Project, context: str) -> str | None:
    for item in proj.parsed:
        if item.kind == "vpp_log" and item.ok and item.data["device"] and proj.vpp_context(item) == context:
            return item.data["device"]
    return None


def _only_device(groups: dict, target: str) -> str | None:
    devices = {g.device for g in groups.values() if g.target == target}
    return devices.pop() if len(devices) == 1 else None


# --- HLS solutions --------------------------------------------------------------------------


def _hls_groups(proj: _Project, groups: dict) -> None:
    by_solution: dict[str, list[Parsed]] = {}
    for item in proj.parsed:
        if proj.vpp_context(item) is not None:
            continue  # HLS solutions inside a v++ build belong to that run
        solution = _solution_of(proj.parts(item), item.kind)
        if solution is not None:
            by_solution.setdefault(solution, []).append(item)
    for item in proj.parsed:
        if item.kind == "vitis_comp" and proj.vpp_context(item) is None:
            by_solution.setdefault(posixpath.join(posixpath.dirname(proj.rel[item.path]), "hls"), [])
    # Copies nested inside another solution (impl/ip/hls_files/...) are that solution's.
    roots = sorted(by_solution, key=lambda s: (s.count("/"), s))
    solutions: dict[str, list[Parsed]] = {}
    for solution in roots:
        owner = next((s for s in solutions if s != "." and _inside(solution, s)), None)
        solutions.setdefault(owner or solution, []).extend(by_solution[solution])
    logs = [p for p in proj.parsed if p.kind == "hls_log" and p.ok and proj.vpp_context(p) is None]
    for solution, items in solutions.items():
        log = _solution_log(proj, solution, logs)
        kinds = {p.kind for p in items if p.ok} | {p.kind for p in items if p.kind == "csynth"}
        own = items + ([log] if log is not None and log not in items else [])
        if posixpath.basename(solution) == "hls":  # unified component: <comp>.hlscompile_summary beside it
            component = posixpath.dirname(solution) or "."
            own += [
                p
                for p in proj.parsed
                if p.kind == "summary" and (posixpath.dirname(proj.rel[p.path]) or ".") == component
            ]
        device = _hls_device(proj, own)
        csim = "csim_log" in kinds or (log is not None and log.data["csim_status"] is not None)
        if "cosim_rpt" in kinds or "lat_rpt" in kinds:
            targets = ["vitis.cosim"]
        elif "csynth" in kinds or "aps" in kinds or not csim:
            targets = ["vitis.csynth"]
        else:
            targets = []
        if csim:
            targets.append("vitis.csim")
        for target in targets:
            key = (target, device)
            group = groups.setdefault(key, _Group(target, device))
            group.items.extend(p for p in own if p not in group.items)
            group.solutions.append(solution)


def _solution_log(proj: _Project, solution: str, logs: list[Parsed]) -> Parsed | None:
    """The solution's own `<sol>.log`, else the nearest vitis_hls.log / vivado_hls.log above it."""
    own = [p for p in logs if _solution_of(proj.parts(p), "hls_log") == solution]
    if own:
        return own[0]
    best: tuple[int, Parsed] | None = None
    for log in logs:
        directory = posixpath.dirname(proj.rel[log.path]) or "."
        if _inside(solution, directory) or directory == ".":
            depth = 0 if directory == "." else directory.count("/") + 1
            if best is None or depth > best[0]:
                best = (depth, log)
    return best[1] if best else None


def _hls_device(proj: _Project, items: list[Parsed]) -> str | None:
    reports = sorted(
        (p for p in items if p.kind == "csynth" and p.ok), key=lambda p: csynth_pick_key(proj.rel[p.path], p.mtime_ns)
    )
    for report in reports:
        part = report.data["UserAssignments"].get("Part")
        if part:
            return part
    for log in items:
        if log.kind == "hls_log" and log.ok and log.data["device"]:
            return log.data["device"]
    return None


# --- runner metadata ------------------------------------------------------------------------


def _meta_groups(metas: list[Parsed], groups: dict) -> None:
    """A metadata file naming a target makes that run exist even when nothing else shows it."""
    for meta in metas:
        facts = meta.data["facts"]
        target = facts.get("target")
        if target is None:
            continue
        device = facts.get("device")
        if device is not None and (target, device) in groups:
            continue
        if device is None and any(g.target == target for g in groups.values()):
            continue
        if device is not None:
            unnamed = groups.pop((target, None), None)  # a run whose device only the runner knows
            if unnamed is not None:
                unnamed.device = device
                groups[(target, device)] = unnamed
                continue
        groups.setdefault((target, device), _Group(target, device))


def _meta_facts(metas: list[Parsed], target: str, device: str | None, report_type: str | None) -> dict[str, Any]:
    """Runner facts for one run (and report type): general files first, targeted ones over them."""
    general: dict[str, Any] = {}
    targeted: dict[str, Any] = {}
    for meta in sorted(metas, key=lambda m: m.path):
        facts = meta.data["facts"]
        if report_type is not None and facts.get("report_type") not in (None, report_type):
            continue
        if "target" not in facts:
            general.update(facts)
        elif facts["target"] == target and facts.get("device") in (None, device):
            targeted.update(facts)
    return {**general, **targeted}


# --- facts, status and records ---------------------------------------------------------------


def _resolve(proj: _Project, group: _Group, metas: list[Parsed], identity: Identity, problems: list[Problem]) -> Run:
    chosen = _pick_csynth(proj, group)
    solution = _chosen_solution(proj, group, chosen)
    hls_logs = [
        p
        for p in group.of("hls_log")
        if not group.solutions or solution is None or _solution_owns(proj, solution, p, group)
    ]
    version = (
        _first(group.of("vpp_log"), "vitis_version")
        or _first(group.of("summary"), "vitis_version")
        or _first(hls_logs, "vitis_version")
    )
    if version is None and chosen is not None and chosen.ok:
        version = chosen.data["ReportVersion"]["Version"] or None
    derived = {"device": group.device, "vitis_version": version, "runtime_seconds": _runtime(group, hls_logs)}

    def run_fields(report_type: str | None) -> dict[str, Any]:
        facts = {
            **derived,
            **{k: v for k, v in _meta_facts(metas, group.target, group.device, report_type).items() if k in derived},
        }
        return {
            "target": group.target,
            "device": facts["device"] or UNKNOWN,
            "vitis_version": facts["vitis_version"] or UNKNOWN,
            "runtime_seconds": facts["runtime_seconds"],
        }

    shown = run_fields(None)
    run = Run(group.target, shown["device"], shown["vitis_version"], shown["runtime_seconds"])
    for meta in metas:
        run.notes.update(meta.data["extra"])
    reports = TARGET_REPORTS[group.target]
    errors = any(p.data["errors"] for p in group.of("vpp_log") + hls_logs)
    for report_type in reports:
        status = _meta_facts(metas, group.target, group.device, report_type).get("status")
        built = _payload(proj, group, report_type, status, chosen, solution, hls_logs, errors, problems)
        if built is None:
            continue
        payload, sources = built
        run.records.append(make_record(report_type, run_fields(report_type), identity, payload))
        run.sources[report_type] = sources
    # "unknown" is only a problem where it is written; a run still waiting for its reports is not
    label = f"{group.target} run on {run.device}"
    if any(r["run"]["device"] == UNKNOWN for r in run.records):
        problems.append(Problem(proj.path, f"{label}: device unknown (no runner metadata, log or report names it)"))
    if any(r["run"]["vitis_version"] == UNKNOWN for r in run.records):
        problems.append(Problem(proj.path, f"{label}: Vitis version unknown"))
    return run


def _first(items: list[Parsed], key: str) -> Any:
    for item in sorted(items, key=lambda p: p.path):
        if item.data.get(key):
            return item.data[key]
    return None


def _runtime(group: _Group, hls_logs: list[Parsed]) -> float | None:
    """Sum of v++ invocations (each counted once), else the HLS log's last elapsed time."""
    invocations: dict[str, int] = {}
    for log in group.of("vpp_log"):
        if log.data["elapsed_seconds"] is not None:
            invocations[log.data["invocation"]] = log.data["elapsed_seconds"]
    if invocations:
        return float(sum(invocations.values()))
    if group.target in ("vitis.sw_emu", "vitis.hw_emu", "vitis.hw"):
        return None
    for log in hls_logs:
        if log.data["elapsed_seconds"] is not None:
            return log.data["elapsed_seconds"]
    return None


def _pick_csynth(proj: _Project, group: _Group) -> Parsed | None:
    if group.target == "vitis.sw_emu":
        return None  # a sw_emu build runs no synthesis
    candidates = [p for p in group.items if p.kind == "csynth"]
    if not candidates:
        return None
    return min(candidates, key=lambda p: csynth_pick_key(proj.rel[p.path], p.mtime_ns))


def _chosen_solution(proj: _Project, group: _Group, chosen: Parsed | None) -> str | None:
    if not group.solutions:
        return None
    if chosen is not None:
        rel = proj.rel[chosen.path]
        for solution in sorted(group.solutions, key=len, reverse=True):
            if _inside(rel, solution):
                return solution
    newest = {
        s: max((p.mtime_ns for p in group.items if _inside(proj.rel[p.path], s)), default=0) for s in group.solutions
    }
    return min(group.solutions, key=lambda s: (s.count("/"), -newest[s], s))


def _solution_owns(proj: _Project, solution: str, log: Parsed, group: _Group) -> bool:
    """Whether a log speaks for the chosen solution (its own log, or the shared one above)."""
    directory = posixpath.dirname(proj.rel[log.path]) or "."
    if _inside(directory, solution):
        return True
    return not any(_inside(directory, s) for s in group.solutions if s != solution)


def _in_solution(proj: _Project, item: Parsed, solution: str | None) -> bool:
    return (
        solution is None
        or _inside(proj.rel[item.path], solution)
        or (item.kind == "cosim_rpt" and _solution_of(proj.parts(item), "cosim_rpt") == solution)
    )


def _payload(
    proj: _Project,
    group: _Group,
    report_type: str,
    runner: str | None,
    chosen: Parsed | None,
    solution: str | None,
    hls_logs: list[Parsed],
    errors: bool,
    problems: list[Problem],
) -> tuple[dict[str, Any], list[str]] | None:
    label = f"{group.target} run on {group.device or UNKNOWN}"
    if report_type == "hls_synth":
        if chosen is not None and chosen.ok:
            return hls_synth_payload("pass", chosen.data), [chosen.path]
        status = runner
        if status == "pass":
            problems.append(Problem(proj.path, f"{label}: runner says pass but no readable csynth.xml"))
            return None
        if status is None and errors:
            status = "fail"
        if status is None:
            return None  # still building, or nothing known: no record yet
        return hls_synth_payload(status, None), [chosen.path] if chosen else []

    if report_type == "rtl_sim":
        if group.target == "vitis.cosim":
            lats = [p for p in group.of("lat_rpt") if _in_solution(proj, p, solution)]
            lat = min(lats, key=lambda p: (0 if "/verilog/" in proj.rel[p.path] else 1, p.path), default=None)
            cosims = sorted(
                (p for p in group.of("cosim_rpt") if _in_solution(proj, p, solution)), key=lambda p: -p.mtime_ns
            )
            status = cosims[0].data["status"] if cosims else None
            status = status or runner or ("pass" if lat is not None else None)
            if status is None:
                return None
            cycles = lat.data["total_execute_time"] if lat is not None else None
            sources = [p.path for p in (cosims[:1] + ([lat] if lat else []))]
            return rtl_sim_payload(status, cycles, None, None), sources
        profiles = sorted(group.of("profile"), key=lambda p: (-p.mtime_ns, p.path))
        profile = profiles[0] if profiles else None
        status = runner or ("pass" if profile is not None else None)
        if status is None:
            return None
        if profile is None:
            return rtl_sim_payload(status, None, None, None), []
        us = profile.data["kernel_runtime_us"]
        diagrams = sorted(
            group.of("sysdiagram"),
            key=lambda p: (0 if "/link/int/" in "/" + proj.rel[p.path] else 1, -p.mtime_ns, p.path),
        )
        mhz = diagrams[0].data["kernel_clock_freq_mhz"] if diagrams else None
        cycles = None
        if us is not None and mhz is not None:
            try:
                cycles = int(checked(us * mhz, "kernel cycles (running time x clock)", CYCLES) or 0)
            except NumberError as exc:
                problems.append(Problem(profile.path, str(exc)))
        return rtl_sim_payload(status, cycles, us, mhz), [profile.path] + [d.path for d in diagrams[:1]]

    # sw_run
    status = runner
    sources: list[str] = []
    if status is None and group.target == "vitis.csim":
        for item in sorted(group.of("csim_log"), key=lambda p: -p.mtime_ns) + hls_logs:
            if _in_solution(proj, item, solution) or item.kind == "hls_log":
                if item.data["csim_status"] is not None:
                    status, sources = item.data["csim_status"], [item.path]
                    break
    if status is None:
        return None
    return {"status": status}, sources
