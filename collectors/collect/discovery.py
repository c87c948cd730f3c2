"""Walking build trees: which directories may be projects, and which artifacts each one holds
(which of them are projects: projects.py).

One walk serves both jobs. Directories in *discovery* mode may become projects; build-output
directories are pruned for discovery but still walked, their artifacts credited to the
nearest discovery-mode ancestor (docs/collection.md, "Which folders are projects").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from collectors.collect.artifacts import EXTENSION_KINDS, classify
from collectors.collect.artifacts.hls_log_names import folder_session_logs
from collectors.collect.artifacts.hls_project import LEGACY_REPORT_SUFFIX, may_hold_the_top_report
from collectors.collect.projects import DirNode, Project, assign, is_hls_project_folder
from collectors.collect.pruning import (
    BUILD_MARKERS,
    COMPONENT_JSON,
    NEVER_WALKED,
    SHARED_NAMES,
    SOURCE_ENDINGS,
    STATE_DIR,
    ide_companions,
    is_build_output,
    is_evidence_file,
)
from collectors.files import not_regular
from collectors.problems import Problem

# logs in a solution's folder that are no session of the HLS tool: a temporary (`.temp11.log`), the
# JVM's crash dumps of its GUI (lrh12580/Zedboard_Sobel: two empty `hs_err_pid*.log`, once
# problem lines)
NOT_SESSION_LOGS = (".", "hs_err_pid")

__all__ = ["BUILD_MARKERS", "NEVER_WALKED", "STATE_DIR", "find_projects", "project_inventory"]

StackEntry = tuple[str, str, "DirNode | None", bool]


@dataclass
class WalkResult:
    projects: list[Project]
    problems: list[Problem]
    directories: int = 0
    files: int = 0
    listed: list[str] = field(default_factory=list)  # every directory it listed, when asked to keep them
    skipped: int = 0  # build-output folders pruned for discovery (their reports still read)


def inside(real: str, allowed: Iterable[str]) -> bool:
    """Whether a resolved path lies in one of the (resolved) roots."""
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in allowed)


def outside_problem(link: str, real: str) -> Problem:
    return Problem(link, f"symbolic link to {real}, outside the roots: not followed (--follow-outside allows it)")


class Walker:
    """One walk of build trees: its directories, the discovery nodes and the problems met."""

    def __init__(
        self,
        excluded: Iterable[str],
        on_directory: Callable[[int], None] | None,
        allowed: tuple[str, ...] | None = None,
        keep_listed: bool = False,
    ) -> None:
        self.excluded = {os.path.abspath(p) for p in excluded}
        # a live session watches every directory the walk listed, once the scan is out
        self.keep_listed = keep_listed
        self.listed: list[str] = []
        self.allowed = allowed  # resolved roots links may lead into; None: follow links anywhere
        self.on_directory = on_directory
        self.problems: list[Problem] = []
        self.nodes: list[DirNode] = []
        self.seen_links: set[str] = set()
        self.directories = 0
        self.files = 0

    def walk(self, root: str) -> None:
        root = os.path.abspath(root)
        self.drain([(root, os.path.realpath(root), None, True)], root)

    def drain(self, stack: list[StackEntry], root: str | None = None) -> None:
        """Walk everything below the stack's entries: (path, real path, owning node, discovery?)."""
        while stack:
            path, real, owner, discovery = stack.pop()
            self.visit(path, real, owner, discovery, stack, is_root=(path == root))

    def visit(self, path: str, real: str, owner: DirNode | None, discovery: bool, stack: list, is_root: bool) -> None:
        self.directories += 1
        if self.on_directory is not None and self.directories % 256 == 0:
            self.on_directory(self.directories)
        if self.keep_listed:
            self.listed.append(path)
        listed = self._list(path)
        if listed is None:
            return
        dirs, files, links = listed
        if discovery and not is_root and is_build_output(path, files, dirs, _beside_component(path, owner)):
            discovery = False
            if owner is not None:
                owner.build_dirs.append(path)
                owner.has_evidence = True
        node = owner
        if discovery:
            node = DirNode(path, owner)
            self.nodes.append(node)
            # (a root that is build output itself, never pruned: a solution's contents committed
            # at a repository's top, NhatAnhNguyen2906/Convolution2D, is a build's evidence)
            node.has_evidence = is_root and is_build_output(path, files, dirs)
        assert node is not None
        self._push_children(dirs, real, node, discovery, stack)
        self._take_files(path, files, links, node, discovery)
        if discovery and not node.has_source and any(d.name == "src" for d in dirs):
            node.has_source = _has_source(os.path.join(path, "src"))

    def _list(self, path: str) -> tuple[list[os.DirEntry], list[str], set[str]] | None:
        """(subdirectories, file names, the names of files that are symbolic links) of a
        directory; None when it cannot be listed."""
        try:
            with os.scandir(path) as scan:
                entries = list(scan)
        except FileNotFoundError:
            return None  # removed during the scan: nothing left to collect there
        except OSError as exc:
            self.problems.append(Problem(path, f"cannot list directory: {exc.strerror or exc}"))
            return None
        dirs: list[os.DirEntry] = []
        files: list[str] = []
        links: set[str] = set()
        for entry in entries:
            if _is_dir(entry):
                dirs.append(entry)
            else:
                files.append(entry.name)
                if entry.is_symlink():
                    links.add(entry.name)
        return dirs, files, links

    def _push_children(
        self, dirs: list[os.DirEntry], real: str, node: DirNode, discovery: bool, stack: list[StackEntry]
    ) -> None:
        excluded = self.excluded
        for entry in dirs:
            child = entry.name
            if child in NEVER_WALKED or (discovery and child in SHARED_NAMES) or entry.path in excluded:
                continue  # inside build output a `data` folder is output (aiesimulator_output/data)
            if entry.is_symlink():
                child_real = os.path.realpath(entry.path)
                if self.allowed is not None and not inside(child_real, self.allowed):
                    self.problems.append(outside_problem(entry.path, child_real))
                    continue
                if real == child_real or real.startswith(child_real + os.sep):
                    self.problems.append(Problem(entry.path, "symbolic link loop, not followed"))
                    continue
                if child_real in self.seen_links:
                    continue  # the same directory reached twice: walk it once
                self.seen_links.add(child_real)
            else:
                child_real = real + os.sep + child
            stack.append((entry.path, child_real, node, discovery))

    def _take_files(self, path: str, files: list[str], links: set[str], node: DirNode, discovery: bool) -> None:
        self.files += len(files)
        name = os.path.basename(path)
        prefix = path + os.sep
        top_report_here = may_hold_the_top_report(files)
        solution = any(f.endswith(".aps") for f in files)
        for fname in files:
            kind = classify(fname, name, prefix + fname)
            if kind is not None and fname in links and not self._may_follow(prefix + fname):
                continue  # a report linked in from outside the roots is never read
            if kind is None and top_report_here and fname.endswith(LEGACY_REPORT_SUFFIX):
                kind = "csynth"  # the run decides whether it is the top function's report
            elif kind is None and solution and fname.endswith(".log") and not fname.startswith(NOT_SESSION_LOGS):
                kind = "hls_log"  # a solution's own log, whatever the folder was renamed to
            if kind in EXTENSION_KINDS and discovery:
                node.has_evidence = True  # a mapper run or a recipe is a build of its own
            if kind is not None and prefix + fname not in self.excluded:
                node.artifacts.append((prefix + fname, kind))
            if discovery:
                _mark(node, fname)

    def _may_follow(self, link: str) -> bool:
        """A file link may be read when it resolves inside the roots (else it is reported once)."""
        if self.allowed is None:
            return True
        target = os.path.realpath(link)
        if inside(target, self.allowed):
            return True
        self.problems.append(outside_problem(link, target))
        return False


def _mark(node: DirNode, name: str) -> None:
    """What a file in a discovery-mode directory says of it: a build marker, source, build evidence."""
    if name in BUILD_MARKERS:
        node.has_marker = True
        node.has_component = node.has_component or name == COMPONENT_JSON
    elif name.endswith(SOURCE_ENDINGS):
        node.has_source = True
    elif is_evidence_file(name):
        node.has_evidence = True


def _beside_component(path: str, owner: DirNode | None) -> bool | None:
    """Whether a directory's parent holds a vitis-comp.json, where the walk listed the parent
    (its discovery node): a stat spared for every directory; None where it is not known."""
    if owner is None or owner.path != os.path.dirname(path):
        return None
    return owner.has_component


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _has_source(path: str) -> bool:
    try:
        with os.scandir(path) as scan:
            return any(e.name.endswith(SOURCE_ENDINGS) for e in scan)
    except OSError:
        return False


def find_projects(
    roots: Iterable[str],
    excluded: Iterable[str] = (),
    on_directory: Callable[[int], None] | None = None,
    allowed: tuple[str, ...] | None = None,
    keep_listed: bool = False,
) -> WalkResult:
    """Walk every root once; return the projects (deepest candidates) with their artifacts.
    `allowed`: the resolved roots symbolic links may lead into (None: anywhere); `keep_listed`:
    the result names every directory listed."""
    walker = Walker(excluded, on_directory, allowed, keep_listed)
    for root in roots:
        walker.walk(root)
    return finish_walk(walker)


def finish_walk(walker: Walker) -> WalkResult:
    projects, orphans = assign(walker.nodes)
    skipped = sum(len(node.build_dirs) + (node.settled.build_dirs if node.settled else 0) for node in walker.nodes)
    return WalkResult(projects, walker.problems + orphans, walker.directories, walker.files, walker.listed, skipped)


def project_inventory(
    project: str, excluded: Iterable[str] = (), allowed: tuple[str, ...] | None = None, root: str | None = None
) -> Project:
    """Re-walk one project alone: everything below it is its own, but the projects below it that
    a walk of the whole tree finds too (a folder v++ ran in above a built project, an HLS project
    beside its result folders): which are, depends only on what lies below them. An HLS project
    below `root` takes the session logs of the folder it lies in, as the whole walk gives them
    (projects.with_session_logs_above)."""
    walker = Walker(excluded, None, allowed)
    for folder in [project, *ide_companions(os.path.abspath(project))]:
        walker.walk(folder)
    path = os.path.abspath(project)
    found = next((p for p in assign(walker.nodes, built_only=True)[0] if p.path == path), None)
    if found is not None:
        found.problems = walker.problems
        if root is not None and is_hls_project_folder(found):
            found.artifacts += _session_logs_above(path, os.path.abspath(root))
        return found
    merged = Project(path, [], [], walker.problems)
    for node in walker.nodes:
        merged.artifacts.extend(node.artifacts)
        merged.build_dirs.extend(node.build_dirs)
    return merged


def _session_logs_above(project: str, root: str) -> list[tuple[str, str]]:
    """The session logs (plain files) of the folder a project lies in, where that is the root or
    below it: never a read outside the roots."""
    folder = os.path.dirname(project)
    if project == root or not (folder == root or folder.startswith(root + os.sep)):
        return []
    return [(path, "hls_log") for path in folder_session_logs(folder) if _plain_file(path)]


def _plain_file(path: str) -> bool:
    """A regular file itself (files.not_regular), not a link: nothing is followed out of the roots."""
    try:
        return not_regular(os.lstat(path).st_mode) is None
    except OSError:
        return False
