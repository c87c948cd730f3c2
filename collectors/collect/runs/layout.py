"""What runs are made of: a project's files seen by their paths, and the runs gathered from them."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from collectors.collect.artifacts.hls_log_names import PROJECT_SESSION_LOGS, TCL_SESSION_LOG
from collectors.collect.artifacts.hls_project import LEGACY_REPORT_SUFFIX
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.artifacts.vpp_log import is_vpp_build_dir, kernel_build_dir, vpp_build_dir
from collectors.collect.pruning import IDE_CONFIGURATIONS, SOLUTION_PREFIX

UNKNOWN = "unknown"


@dataclass
class Run:
    """One (target, device) pair of a project, with what was collected for it."""

    target: str
    device: str
    vitis_version: str = UNKNOWN
    runtime_seconds: float | None = None
    variant: dict[str, Any] | None = None  # an HLS solution's own variant (several in one project)
    records: list[dict[str, Any]] = field(default_factory=list)
    sources: dict[str, list[str]] = field(default_factory=dict)  # report_type -> files used
    files: list[str] = field(default_factory=list)  # every file the run was given (used or passed over)
    notes: dict[str, str] = field(default_factory=dict)  # runner keys kept for display


@dataclass
class RunGroup:
    """Artifacts gathered for one run before its facts are resolved."""

    target: str
    device: str | None
    items: list[Parsed] = field(default_factory=list)
    solutions: list[str] = field(default_factory=list)  # HLS solution dirs (relative)
    variant: dict[str, Any] | None = None  # the solution's own variant, where it is one
    _index: dict[str, list[Parsed]] | None = field(default=None, repr=False)
    _indexed: int = field(default=0, repr=False)

    def of(self, kind: str) -> list[Parsed]:
        """The readable artifacts of one kind (kept once asked: grouping is over by then). Only
        those of that kind are looked at: a deferred report is read when its kind is asked for."""
        if self._index is None or self._indexed != len(self.items):
            self._index, self._indexed = {}, len(self.items)
        if kind not in self._index:
            self._index[kind] = [item for item in self.items if item.kind == kind and item.ok]
        return self._index[kind]

    def add(self, items: Iterable[Parsed]) -> None:
        self.items.extend(item for item in items if item not in self.items)


RunKey = tuple[str, "str | None", "str | None"]  # (target, device, the solution variant's name)


class RunGroups:
    """The runs of one project under construction, keyed by (target, device) and, for the
    solutions of an HLS project that are variants of their own, the variant's name."""

    def __init__(self) -> None:
        self.by_key: dict[RunKey, RunGroup] = {}

    def get(self, target: str, device: str | None, variant: dict[str, Any] | None = None) -> RunGroup:
        """The run of a target and device, made when first asked (an empty device is none)."""
        key = (target, device or None, variant["name"] if variant else None)
        if key not in self.by_key:
            self.by_key[key] = RunGroup(target, device or None, variant=variant)
        return self.by_key[key]

    def __contains__(self, key: tuple[str, str | None]) -> bool:
        return any(k[:2] == key for k in self.by_key)

    def __iter__(self) -> Iterator[RunGroup]:
        return iter(list(self.by_key.values()))

    def of_target(self, *targets: str) -> list[RunGroup]:
        return [group for group in self.by_key.values() if group.target in targets]

    def name_device(self, target: str, device: str) -> bool:
        """Give the runner's device to *the* run of `target`: the one whose device nothing named
        yet, else the only one (its build folder's platform gives way: docs/collection.md)."""
        runs = self.of_target(target)
        unnamed = self.by_key.get((target, None, None))
        only = unnamed or (runs[0] if len(runs) == 1 else None)
        if only is None:
            return False
        variant = only.variant["name"] if only.variant else None
        del self.by_key[(target, only.device, variant)]
        only.device = device
        self.by_key[(target, device, variant)] = only
        return True


class ProjectFiles:
    """One project's parsed artifacts, with their paths relative to the project ("/"-separated)."""

    def __init__(self, path: str, parsed: Iterable[Parsed], build_dirs: Iterable[str] = ()) -> None:
        self.path = path
        self.parsed = list(parsed)
        self._prefix = path + os.sep  # nearly every artifact lies below the project: slicing beats relpath
        self._parent = os.path.dirname(path) + os.sep
        self.rel = {p.path: self.rel_of(p.path) for p in self.parsed}
        self._contexts: dict[str, str | None] = {}
        self.temp_dirs = self._vpp_temp_dirs([self.rel_of(d) for d in build_dirs])
        self._folders: set[str] | None = None
        self._by_kind: dict[str, list[Parsed]] | None = None
        self._readable: dict[str, list[Parsed]] = {}
        self._reported: dict[str, set[str]] | None = None
        self._tops: dict[str, set[str]] = {}  # design_tops of each solution asked for
        self._tails: dict[str, dict[str, list[str]]] = {}  # log -> solution name -> opened tails
        self._kernel_work: dict[str, Parsed] | None = None  # (kernel_work)

    def folders(self) -> set[str]:
        """The folders (absolute) that hold an artifact, computed once."""
        if self._folders is None:
            self._folders = {os.path.dirname(p.path) for p in self.parsed}
        return self._folders

    def _vpp_temp_dirs(self, build_dirs: list[str]) -> set[str]:
        """The project's folders that v++ worked in whatever their name (pruning.is_vpp_temp_dir):
        a build summary right in one (`temp_dir=build`), its v++ logs in `logs/` below; or a build
        folder the walk found where v++ compiled a kernel (`--temp_dir xo`, a `_x` copied as
        `saved_x`: the compile's log right in it or in `logs/`; a link's folder holds copies of a
        kernel compiled elsewhere)."""
        logs = [p for p in self.parsed if p.kind == "vpp_log"]
        logged = {self.rel[p.path].split("/logs/")[0] for p in logs}
        summaries = {posixpath.dirname(self.rel[p.path]) for p in self.parsed if p.kind == "summary"}
        compiled = [self.rel[p.path] for p in logs if p.ok and p.facts["compiled"]]
        compiled_in = {rel.split("/logs/")[0] for rel in compiled} | {posixpath.dirname(rel) for rel in compiled}
        names = {d: d.rpartition("/")[2] for d in build_dirs}  # (IDE configurations and _x* are known already)
        named = {d for d, name in names.items() if name not in IDE_CONFIGURATIONS and not is_vpp_build_dir(name)}
        return {folder for folder in summaries & logged if folder and "/" not in folder} | (named & compiled_in)

    def rel_of(self, path: str) -> str:
        """A path relative to the project; for a file of an IDE application's companion folder
        (`<app>_system_hw_link/Emulation-HW/...`), relative to that folder: the configurations
        of the same name are one build (projects._merge_ide_companions)."""
        if path.startswith(self._prefix):
            return path[len(self._prefix) :].replace(os.sep, "/")
        below = path[len(self._parent) :] if path.startswith(self._parent) else path
        return below.partition(os.sep)[2].replace(os.sep, "/")

    def parts(self, item: Parsed) -> list[str]:
        return self.rel[item.path].split("/")

    def folder(self, item: Parsed) -> str:
        """The directory an artifact sits in, relative ("." for the project itself)."""
        return posixpath.dirname(self.rel[item.path]) or "."

    def readable(self, kind: str) -> list[Parsed]:
        """The artifacts of a kind that were read, in walk order: a run's facts ask a dozen kinds,
        each sorted out once. (Whether one was read is asked of that kind's alone: a copy of a
        report is read only when asked, fast_paths.) A new list: callers may extend it."""
        if self._by_kind is None:
            self._by_kind = {}
            for item in self.parsed:
                self._by_kind.setdefault(item.kind, []).append(item)
        found = self._readable.get(kind)
        if found is None:
            found = self._readable[kind] = [p for p in self._by_kind.get(kind, ()) if p.ok]
        return list(found)

    def tails_named(self, log: Parsed, name: str) -> list[str]:
        """The full paths' last two folders a session log opened whose solution is `name`; each
        log's sorted by name once (a design space exploration's log opens 1500 solutions, each
        asked of it: 9 million basename calls)."""
        by_name = self._tails.get(log.path)
        if by_name is None:
            by_name = self._tails[log.path] = {}
            for tail in log.facts.get("opened_tails", ()):
                by_name.setdefault(posixpath.basename(tail), []).append(tail)
        return by_name.get(name, [])

    def design_tops(self, solution: str) -> set[str]:
        """The functions (casefolded) a solution's design may go by as its top: those its files
        name, its read synthesis reports' TopModelName, and every function its reports are named
        after (its modules' too: a log is dropped only where nothing overlaps; burakotlu/pFFT's
        test solution simulated pFFT, where the component's configuration beside says dFFT).
        Once a solution."""
        found = self._tops.get(solution)
        if found is None:
            named = {*named_tops(self, solution), *self._reported_tops().get(solution, ())}
            found = self._tops[solution] = {top.casefold() for top in named}
        return found

    def _reported_tops(self) -> dict[str, set[str]]:
        """Per solution, the functions its reports are named after and the tops its read
        synthesis reports were made for (a copy not read yet is not read for it), found once."""
        if self._reported is None:
            self._reported = {}
            for item in self.parsed:
                if item.kind not in NAMED_REPORTS:
                    continue
                solution = solution_of(self.parts(item), item.kind)
                if solution is not None:
                    found = self._reported.setdefault(solution, set())
                    found.update(name for name in (report_function(item), item.loaded and top_model_name(item)) if name)
        return self._reported

    def vpp_context(self, item: Parsed) -> str | None:
        """The outermost v++ build directory (relative) an artifact sits in, if any; in a plain
        `_x`, the kernel's folder that names its build (`_x/<kernel>.<t>.<platform>`); else the
        folder a v++ compile's log says its kernel's HLS ran in (kernel_work)."""
        if item.path not in self._contexts:
            parts = self.parts(item)
            if len(parts) > 1 and parts[0] in IDE_CONFIGURATIONS:
                self._contexts[item.path] = parts[0]  # an IDE build configuration: one v++ build
            else:
                self._contexts[item.path] = self._build_folder(parts) or self._kernel_folder(parts)
        return self._contexts[item.path]

    def kernel_work(self) -> dict[str, Parsed]:
        """The folders (relative) where a v++ compile's log says its kernel's HLS ran, found in the
        tree by that path below the project, with the compile's log (the newest that names one):
        that build's, whatever its temporary folder is called (ravicho/PORT_test1's `--temp_dir
        build/<cfg>/temp_dir`: its kernel's HLS project was a vitis.csynth run of its own, and
        the hw_emu run had no hls_synth record). Found once."""
        if self._kernel_work is None:
            self._kernel_work = {}
            compiles = [p for p in self.readable("vpp_log") if p.facts["target"] and p.facts.get("hls_work")]
            parts_of = [self.parts(p) for p in self.parsed] if compiles else []  # (nearly every project: none)
            folders = {"/".join(parts[:end]) for parts in parts_of for end in range(1, len(parts))}
            deepest = max(map(len, parts_of), default=0)  # (a path's tails looked up, never folders x paths)
            for log in sorted(compiles, key=lambda p: p.mtime_ns):
                for steps in (work.split("/") for work in set(log.facts["hls_work"])):
                    tails = ("/".join(steps[start:]) for start in range(max(1, len(steps) - deepest), len(steps)))
                    self._kernel_work.update((tail, log) for tail in tails if tail in folders)
        return self._kernel_work

    def _kernel_folder(self, parts: list[str]) -> str | None:
        work = self.kernel_work()
        if not work:
            return None  # (nearly every project: no v++ compile named where its HLS ran)
        return next((f for end in range(1, len(parts)) if (f := "/".join(parts[:end])) in work), None)

    def _build_folder(self, parts: list[str]) -> str | None:
        folders = range(len(parts) - 1)
        temp_dirs = self.temp_dirs
        at = next(
            (i for i in folders if is_vpp_build_dir(parts[i]) or (temp_dirs and "/".join(parts[: i + 1]) in temp_dirs)),
            None,
        )
        if at is None:
            return None
        if at + 2 < len(parts) and vpp_build_dir(parts[at]) is None and kernel_build_dir(parts[at + 1]):
            at += 1  # (xocc's kernel folder in a plain `_x`)
        return "/".join(parts[: at + 1])


def inside(path: str, ancestor: str) -> bool:
    """Whether a relative path is `ancestor` or below it ("." holds everything)."""
    return ancestor == "." or path == ancestor or path.startswith(ancestor + "/")


def is_component_hls(solution: str) -> bool:
    """Whether a solution is a unified component's `hls` (its logs and summaries beside it)."""
    return posixpath.basename(solution) == "hls"


def work_of(solution: str) -> str:
    """The folder that holds a solution (a component's work directory, a classic one's project)."""
    return posixpath.dirname(solution) or "."


def home_of(solution: str) -> str:
    """The folder a solution's own files lie in: a component's work directory (its step logs and
    summaries beside its `hls`), else the solution's folder."""
    return work_of(solution) if is_component_hls(solution) else solution


def solution_of(parts: list[str], kind: str) -> str | None:
    """The HLS solution directory (relative) an artifact belongs to, by its path shape ("." where
    the project folder is the solution itself: NhatAnhNguyen2906/Convolution2D commits its
    solution1's contents at the repository's root)."""
    name, parent = parts[-1], parts[:-1]
    if kind == "csynth":
        if parent[-2:] == ["syn", "report"]:
            return "/".join(parent[:-2]) or "."
        if len(parent) > 1 and _copied_solution_report(parent[-2], parent[-1]):
            return "/".join(parent[:-1])
        return "/".join(parent) or "."  # a copy taken out of its solution (e.g. <proj>/report/)
    if kind in ("lat_rpt", "cosim_sim_log") and len(parent) >= 3 and parent[-3:-1] == ["sim", "report"]:
        return "/".join(parent[:-3]) or "."
    if kind == "cosim_rpt":
        return _cosim_solution(parent)
    if kind == "csim_log" and parent[-2:] == ["csim", "report"]:
        return "/".join(parent[:-2]) or "."
    if kind == "hls_log" and parent and name == parent[-1] + ".log":
        return "/".join(parent)
    if kind == "aps":
        return "/".join(parent) or "."
    return None


def _copied_solution_report(folder: str, report_folder: str) -> bool:
    """Whether `<folder>/<report_folder>/csynth.xml` is a solution's report copied into the folder
    of its solution: `syn/` without its `report/` (gubbriaco/fir-filter-analysis's `<X>Solution/
    syn/`), or a `report*` folder of a folder named as a solution is (chaoNTUEE/HLS_Lab-A's
    `solution3_initial_interval/report/`): each was a solution of its own project, one run."""
    return report_folder == "syn" or (report_folder.startswith("report") and folder.lower().startswith(SOLUTION_PREFIX))


# where a cosim report is copied out of its solution: a 2025.x unified component's <comp>/reports/,
# a designer's own report/ (yhy1145141111/hlstrack2025_41447)
COPIED_COSIM_FOLDERS = ("reports", "report")


def is_copied_cosim(folder: list[str]) -> bool:
    """Whether a cosim report in this folder (relative parts) is a copy out of its solution's `sim/report`."""
    return bool(folder) and folder[-1] in COPIED_COSIM_FOLDERS and folder[-2:] != ["sim", "report"]


def _cosim_solution(parent: list[str]) -> str | None:
    if parent[-2:] == ["sim", "report"]:
        return "/".join(parent[:-2]) or "."
    if len(parent) > 1 and parent[-1] == "sim":  # (a solution copied without its report folders)
        return "/".join(parent[:-1])
    if is_copied_cosim(parent):  # (the component's work directory, or the copy's folder: _copy_owner)
        return "/".join(parent[:-1] + ["hls"])
    return None


def session_logs(proj: ProjectFiles, solution: str, logs: list[Parsed]) -> list[Parsed]:
    """The HLS logs of the sessions that ran a solution: its own (in its folder), then the
    vitis_hls.log / vivado_hls.log above it, nearest first, that opened it (or, after those at
    the same depth, name no solution at all). Found from the solution alone, whatever its siblings' logs are called."""
    name = posixpath.basename(solution)
    # its own `<solution>.log`, where there is one, and no other `<dir>.log` beside it: that one
    # was left there by the solution's earlier name, its older sessions (Stepaka/Xilinx_lab:
    # sol2_7_double.log inside sol2_7_double_16/, another directive set's synthesis)
    own = [p for p in logs if proj.folder(p) == solution]
    if any(named_after(p, name) for p in own):
        own = [p for p in own if named_after(p, name) or posixpath.basename(p.path) in _PROJECT_LEVEL_LOGS]
    own.sort(key=lambda p: (not named_after(p, name), p.path))
    above = [
        p
        for p in logs
        if proj.folder(p) != solution
        and inside(solution, _session_folder(proj, p))
        and _may_hold_its_session(proj, p, solution)
        and (not p.facts["opened"] or (name in p.facts["opened"] and not _opened_another(proj, p, solution)))
    ]
    # nearest first; at one depth, a session that opened it by name before one that names none,
    # the project's session log before another (zanehpn/HLStrans: an older `shortpath.log` from
    # another machine's dataset beside the project's vitis_hls.log)
    above.sort(
        key=lambda p: (
            -_depth(_session_folder(proj, p)),
            name not in p.facts["opened"],
            posixpath.basename(p.path) not in _PROJECT_LEVEL_LOGS,
            p.path,
        )
    )
    found = own + above
    if any(p.facts.get("tops") and not named_after(p, name) for p in found):
        ours = proj.design_tops(solution)
        found = [p for p in found if named_after(p, name) or not _of_another_design(p, ours)]
    return found


def _of_another_design(log: Parsed, ours: set[str]) -> bool:
    """Whether none of the top functions a session log's sessions named or synthesised is one
    the solution's design goes by (`ours`, casefolded): wes237l's project-3/dft_* folders (top
    dft: their scripts, their reports) each hold a session log copied from the fir project, which
    synthesised or simulated fir: its 17.6 s and its csim pass were the dft runs'. Where either
    names none, nothing says so. (The solution's own `<solution>.log` is its, whatever top its
    sessions worked on: a design's top changes, and so do its files that name it.)"""
    named = {top.casefold() for top in log.facts.get("tops", ())}
    return bool(named and ours) and not named & ours


def named_tops(proj: ProjectFiles, solution: str) -> Iterator[str]:
    """The top functions a solution's design is named by, first the one that decides: `set_top` in
    the solution's script.tcl, `top` of the project's .app, (a unified component's `<work>/hls`)
    `syn.top` of its hls_config.cfg."""
    project = work_of(solution)
    component = work_of(project)
    for kind, folders in (("hls_script", {solution}), ("hls_app", {project}), ("hls_config", {project, component})):
        for item in proj.readable(kind):
            if proj.folder(item) in folders and item.facts["top"]:
                yield item.facts["top"]


# what Vivado HLS names a solution's C and RTL simulation reports after: its top function; and
# its synthesis reports: each module (`<m>_csynth.xml`)
SIMULATION_REPORTS = {"csim_log": "_csim.log", "cosim_rpt": "_cosim.rpt"}
MODULE_REPORTS = {"csynth": LEGACY_REPORT_SUFFIX}
NAMED_REPORTS = {**SIMULATION_REPORTS, **MODULE_REPORTS}


def report_function(item: Parsed) -> str | None:
    """The function a report is named after (`<m>_csynth.xml`, `<top>_csim.log`, `<top>_cosim.rpt`:
    "" for a bare `_csim.log`); None for a report named otherwise."""
    suffix = NAMED_REPORTS.get(item.kind)
    name = posixpath.basename(item.path)
    return name[: -len(suffix)] if suffix is not None and name.endswith(suffix) else None


def top_model_name(item: Parsed) -> str | None:
    """The top a read csynth report was synthesised for (its TopModelName)."""
    return item.facts["UserAssignments"]["TopModelName"] if item.kind == "csynth" and item.ok else None


_PROJECT_LEVEL_LOGS = PROJECT_SESSION_LOGS | {TCL_SESSION_LOG}  # (not a `<dir>/<dir>.log`)


def named_after(log: Parsed, solution_name: str) -> bool:
    return posixpath.basename(log.path) == f"{solution_name}.log"


def earlier_names_logs(proj: ProjectFiles, solution: str, logs: list[Parsed]) -> list[Parsed]:
    """A solution renamed after it ran keeps its earlier names' logs, none named after it: with two
    or more, which one wrote its reports is not known, and none times its run (Deepsavani/DES-
    Decryption's C_5_unroll_factor_2: C_4_unroll_50percent.log's 51.949 s, other directives)."""
    name = posixpath.basename(solution)
    own = [p for p in logs if p.kind == "hls_log" and proj.folder(p) == solution]
    own = [p for p in own if posixpath.basename(p.path) not in _PROJECT_LEVEL_LOGS]
    return [] if len(own) < 2 or any(named_after(p, name) for p in own) else own


def _may_hold_its_session(proj: ProjectFiles, log: Parsed, solution: str) -> bool:
    """Whether a session log above a solution may be its session's: the project's vitis_hls.log
    or vivado_hls.log; a vitis-run Tcl session's log where it opened the solution by name (a 2025
    script opens a component instead, `open_component`, and names no solution); any other
    `<dir>/<dir>.log` only where it opened it by its full path."""
    file = posixpath.basename(log.path)
    if file in PROJECT_SESSION_LOGS:
        return True
    if file == TCL_SESSION_LOG:
        return posixpath.basename(solution) in log.facts["opened"]
    return _opened_here(proj, log, solution)


def _ran_in(path: str) -> str:
    """The folder a session log's session ran in: the log's, or the one above `logs/` for the
    log of a Tcl session run by vitis-run (`logs/hls_run_tcl.log`)."""
    folder = os.path.dirname(path)
    return os.path.dirname(folder) if os.path.basename(path) == TCL_SESSION_LOG else folder


def _session_folder(proj: ProjectFiles, log: Parsed) -> str:
    return _ran_in(proj.rel[log.path]) or "."


def _opened_here(proj: ProjectFiles, log: Parsed, solution: str) -> bool:
    """Whether the log's sessions opened this very solution folder, by its full path."""
    return _absolute(proj, solution) in _opened_paths(log, proj.tails_named(log, posixpath.basename(solution)))


def _opened_another(proj: ProjectFiles, log: Parsed, solution: str) -> bool:
    """Whether the solutions of that name the log's sessions opened by their full path are all
    another project's: of a project named otherwise (LmDeng0/CryptoHLS: beside build/proj_smoke,
    build/vitis_hls.log is the session of hls_project_32280_19/solution1, a project not in the
    tree, 22 days later), or other folders of this tree (ValdecirDesenv/FPGA_picoZed: a session
    that opened picoZed/solution1 beside the project's own solution1). A full path found nowhere
    here (a tree built elsewhere and moved) says nothing against it where it ends in the
    project's name (its folder's, or the one its `.app` keeps) and the solution's; nor does a
    project's name in a log in the project's own folder (a project renamed when committed), nor
    a relative path (`./solution1`); a project at the tree's top has no name of its own here
    (the checkout's folder)."""
    name = posixpath.basename(solution)
    named = proj.tails_named(log, name)
    tails = {tail.casefold() for tail in named if tail.split("/")[0] not in (".", "..")}  # (`./solution1`: no name)
    project = posixpath.dirname(solution)
    above = project != _session_folder(proj, log)  # (a log in the project's own folder is its)
    own = {f"{project_name}/{name}".casefold() for project_name in _project_names(proj, project)}
    if tails and project and above and not tails & own:
        return True
    opened = _opened_paths(log, named)
    return bool(opened) and _absolute(proj, solution) not in opened and opened <= proj.folders()


def _project_names(proj: ProjectFiles, project: str) -> set[str]:
    """The names a project folder goes by: its own, and the one its `.app` gives it (the name it
    was made with: jjj7811/CNN_Accelerator's Conv_Pool/hls.app says Conv_Tile129, which its
    vitis_hls.log opened)."""
    apps = [app for app in proj.readable("hls_app") if proj.folder(app) == project]
    return {posixpath.basename(project), *(app.facts["name"] for app in apps if app.facts.get("name"))}


def _opened_paths(log: Parsed, tails: list[str]) -> set[str]:
    """The folders the log's sessions opened by their full path, of those `tails` (a project and
    its solution: the last two folders of the path), taken from the log's own folder."""
    where = _ran_in(log.path)
    return {os.path.normpath(os.path.join(where, tail)) for tail in tails}


def _absolute(proj: ProjectFiles, folder: str) -> str:
    return os.path.normpath(os.path.join(proj.path, folder))


def _depth(folder: str) -> int:
    return 0 if folder == "." else folder.count("/") + 1
