"""What runs are made of: a project's files seen by their paths, and the runs gathered from them."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from collectors.collect.artifacts.hls_log_names import is_folder_session_log, started_in
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
        self._prefix = path + os.sep  # nearly every artifact lies below the project: slicing beats relpath
        self._parent = os.path.dirname(path) + os.sep
        self.parsed: list[Parsed] = []
        # the session logs of the folder the project lies in, where the HLS tool was started beside
        # it (projects.with_session_logs_above): they speak for no run but the
        # one whose solution they opened by its path, so they are none of the project's own files
        self.above: list[Parsed] = []
        for item in parsed:
            (self.above if self._is_above(item) else self.parsed).append(item)
        self.rel = {p.path: self.rel_of(p.path) for p in self.parsed}
        self.rel.update((p.path, "../" + p.path[len(self._parent) :].replace(os.sep, "/")) for p in self.above)
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

    def _is_above(self, item: Parsed) -> bool:
        """A session log of the folder the project lies in."""
        return (
            item.kind == "hls_log"
            and started_in(item.path) == os.path.dirname(self.path)
            and is_folder_session_log(item.path)
        )

    def session_candidates(self) -> list[Parsed]:
        """The HLS logs read that may be a solution's session's (runs/sessions.py): the project's
        own, but those inside a v++ build (that run's), and those of the folder above it."""
        own = [p for p in self.readable("hls_log") if self.vpp_context(p) is None]
        return own + [p for p in self.above if p.ok]

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
