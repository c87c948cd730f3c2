"""Walking build trees: which directories are projects, and which artifacts each one holds.

One walk serves both jobs. Directories in *discovery* mode may become projects; build-output
directories are pruned for discovery but still walked, their artifacts credited to the
nearest discovery-mode ancestor (docs/collection.md, "Which folders are projects").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from collectors.collect.artifacts import EXTENSION_KINDS, REPORT_KINDS, classify
from collectors.collect.artifacts.hls_project import LEGACY_REPORT_SUFFIX, may_hold_the_top_report, parse_hls_app
from collectors.collect.mapping import VARIANT
from collectors.collect.pruning import (
    BUILD_MARKERS,
    COMPONENT_JSON,
    NEVER_WALKED,
    SHARED_NAMES,
    SOURCE_ENDINGS,
    STATE_DIR,
    ide_application,
    ide_companions,
    is_build_output,
    is_evidence_file,
)
from collectors.files import open_regular
from collectors.problems import ArtifactError, Problem

# logs in a solution's folder that are no session of the HLS tool: a temporary (`.temp11.log`), the
# JVM's crash dumps of its GUI (lrh12580/Zedboard_Sobel: two empty `hs_err_pid*.log`, once
# problem lines)
NOT_SESSION_LOGS = (".", "hs_err_pid")

__all__ = ["BUILD_MARKERS", "NEVER_WALKED", "STATE_DIR", "find_projects", "project_inventory"]

StackEntry = tuple[str, str, "DirNode | None", bool]


@dataclass
class DirNode:
    """A directory walked in discovery mode."""

    path: str
    parent: DirNode | None
    has_marker: bool = False
    has_source: bool = False
    has_evidence: bool = False
    # a vitis-comp.json was listed here (its work directory may be below); None: not known (a
    # worker's stand-in for a node the split visited: walk.walk_part)
    has_component: bool | None = False
    artifacts: list[tuple[str, str]] = field(default_factory=list)  # (absolute path, kind)
    build_dirs: list[str] = field(default_factory=list)  # build-output dirs below it (absolute)

    @property
    def is_candidate(self) -> bool:
        return (self.has_marker and self.has_source) or self.has_evidence


@dataclass
class Project:
    path: str
    artifacts: list[tuple[str, str]]
    build_dirs: list[str]
    # what a walk of this project alone found wrong (project_inventory: a link out of the roots);
    # a whole tree's walk reports those as its own problems instead
    problems: list[Problem] = field(default_factory=list)

    @property
    def built(self) -> bool:
        return bool(self.artifacts or self.build_dirs)


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
    projects, orphans = _assign(walker.nodes)
    skipped = sum(len(node.build_dirs) for node in walker.nodes)
    return WalkResult(projects, walker.problems + orphans, walker.directories, walker.files, walker.listed, skipped)


def _assign(nodes: list[DirNode], built_only: bool = False) -> tuple[list[Project], list[Problem]]:
    """Projects, with every node's artifacts given to its nearest project; and a problem for each
    report that lands in none. A built candidate (build evidence, or reports in its subtree) is a
    project unless a built one lies below it, or when it holds reports of its own (in itself or its
    build output: an HLS project beside harness folders keeps its solutions) or v++ ran in it; an unbuilt one (a
    marker and source only) is a project unless any candidate lies below it or a built project
    above. `built_only`: the built projects alone (what lies below an unbuilt one is no built
    project's: the built ones keep the same artifacts). Built HLS projects side by side in one
    project are projects of their own (_hls_projects_apart)."""
    # (only the nodes that hold files matter below: most are folders on the way to a project)
    holding = [n for n in nodes if n.artifacts or n.build_dirs]
    own_reports = {id(n) for n in holding if any(kind in REPORT_KINDS for _path, kind in n.artifacts)}
    with_reports = _marked_upwards(n for n in holding if id(n) in own_reports)
    candidates = [n for n in nodes if n.is_candidate]
    built = [n for n in candidates if n.has_evidence or id(n) in with_reports]
    below_built = _marked_upwards(n.parent for n in built if n.parent is not None)
    kept = own_reports | {id(n) for n in holding if _vpp_ran_in(n.path, n.artifacts)}
    projects = {id(n): Project(n.path, [], []) for n in built if id(n) not in below_built or id(n) in kept}
    below_any = _marked_upwards(n.parent for n in candidates if n.parent is not None)
    if not built_only:
        for node in candidates:
            if id(node) not in below_any and _project_above(node, projects) is None:
                projects.setdefault(id(node), Project(node.path, [], []))
    orphans: list[Problem] = []
    for node in holding:  # (in walk order: a project's files in the order they were found)
        holder = node if id(node) in projects else _project_above(node, projects)
        if holder is None:
            orphans += [Problem(path, NO_PROJECT) for path, kind in node.artifacts if kind in REPORT_KINDS]
            continue
        projects[id(holder)].artifacts.extend(node.artifacts)
        projects[id(holder)].build_dirs.extend(node.build_dirs)
    split = [part for project in projects.values() for part in _hls_projects_apart(project)]
    return _merge_ide_companions(split), sorted(orphans)


def _vpp_ran_in(folder: str, artifacts: list[tuple[str, str]]) -> bool:
    """A v++ log right in the folder (not a copy in a logs/ folder below): v++ ran there
    (happyCheetah/matmult's failed sw_emu compile at the root, its hw_emu build in u200/hw_emu)."""
    return any(kind == "vpp_log" and os.path.dirname(path) == folder for path, kind in artifacts)


def _hls_projects_apart(project: Project) -> list[Project]:
    """A folder that holds, right in it, several built HLS projects (folders with their `.app` and a
    solution: ngn-colorado/cloud-rtr's examples/aes_fpga and examples/qam_fpga, a course's lab
    folder with one project per exercise) holds several designs: each HLS project is a project
    of its own. Merged, they were one run whose other solutions were problem lines, and one
    design's verdict spoke for another. The folder stays a project for what lies outside them
    where that is a design too (its own reports, or a v++ log: bol-edu/2022-spring-nthu's IPs/
    holds its own solution1 beside four HLS projects); what else it holds (the GUI's
    `vitis_hls.log` where it was started, a Vivado project beside) is no project's."""
    apps = {os.path.dirname(path) for path, kind in project.artifacts if kind == "hls_app"}
    if len(apps) < 2 or VARIANT.match(os.path.basename(project.path)):
        # (one HLS project at most; or a campaign's `<prefix>_<index>_<name>` folder: one
        # implementation, its name says)
        return [project]
    right_in = {path for path in project.build_dirs if os.path.dirname(path) == project.path}
    # built: a solution's `.aps` or a report below it (cgruda/repo committed no `.aps` files)
    results = [path for path, kind in project.artifacts if kind == "aps" or kind in REPORT_KINDS]
    folders = sorted(f for f in apps & right_in if any(path.startswith(f + os.sep) for path in results))
    if len(folders) < 2 and not (folders and _another_design_inside(project, folders[0])):
        return [project]  # (one HLS project in a repository's folder is its design, whatever else is there)
    inside_one = tuple(folder + os.sep for folder in folders)
    rest = Project(
        project.path,
        [item for item in project.artifacts if not item[0].startswith(inside_one)],
        [path for path in project.build_dirs if path not in folders and not path.startswith(inside_one)],
    )
    parts = [  # (each one's build dirs are those below it: as a re-walk of it alone finds them)
        Project(
            folder,
            [item for item in project.artifacts if item[0].startswith(folder + os.sep)],
            [path for path in project.build_dirs if path.startswith(folder + os.sep)],
        )
        for folder in folders
    ]
    return [rest, *parts] if _is_design(rest) else parts


def _is_design(project: Project) -> bool:
    """Reports, or a v++ run right in the folder: a design, not a folder's leftovers."""
    return any(kind in REPORT_KINDS for _path, kind in project.artifacts) or _vpp_ran_in(
        project.path, project.artifacts
    )


APP_BYTES = 64 * 1024  # of a `.app`, what is read for its top


def _another_design_inside(project: Project, folder: str) -> bool:
    """Whether the folder is an HLS project itself (its own `.app`) of another top function than
    the one HLS project in it (kmisimn76/SparseAccel: top Conv_sysarr, and AdderTree_example/ of
    adder_tree_large, whose solution gave the folder's records and the folder's own C simulation
    a problem line). Of one top, the one inside is a copy of the design (ValdecirDesenv/
    FPGA_picoZed's picoZed/): one design. The `.app` files are read here: only in this case."""
    own = _app_tops(project, project.path)
    if len(own) != 1:
        return False  # (not an HLS project itself, or one of several minds: the one inside is not read)
    inside = _app_tops(project, folder)
    return len(inside) == 1 and not own & inside


def _app_tops(project: Project, folder: str) -> set[str]:
    """The top functions (casefolded) the `.app` files right in a folder name; an unreadable one
    names none."""
    tops = set()
    for path, kind in project.artifacts:
        if kind == "hls_app" and os.path.dirname(path) == folder:
            try:
                with open_regular(path) as handle:  # (a project file of a few KiB: no more is read)
                    top = parse_hls_app(handle.read(APP_BYTES))["top"]
            except (ArtifactError, OSError):
                top = None
            if top:
                tops.add(top.casefold())
    return tops


def _merge_ide_companions(projects: list[Project]) -> list[Project]:
    """An IDE application's `<app>_system`, `<app>_system_hw_link` (and `<app>_kernels`) folders
    hold configurations of the same builds: they are one project, the application's."""
    by_path = {project.path: project for project in projects}
    for project in list(by_path.values()):
        app = ide_application(project.path)
        if app is None:
            continue
        merged = by_path.setdefault(app, Project(app, [], []))
        merged.artifacts.extend(project.artifacts)
        merged.build_dirs.extend(project.build_dirs)
        del by_path[project.path]
    return sorted(by_path.values(), key=lambda p: p.path)


def settled_projects(nodes: list[DirNode]) -> list[Project]:
    """The projects of a share of the walk (complete subtrees below the root) that nothing
    outside it can change: the built ones. Whether a built candidate is a project, and which
    directories are its own, depends only on what lies below it; an unbuilt candidate yields to
    a built project above it, which a share cannot see."""
    return _assign(nodes, built_only=True)[0]


NO_PROJECT = (
    "report in no project (no build evidence, nor a build marker with source, in its folder or above it): not collected"
)


def _marked_upwards(starts: Iterable[DirNode]) -> set[int]:
    """Ids of the given nodes and all their ancestors."""
    marked: set[int] = set()
    for node in starts:
        current: DirNode | None = node
        while current is not None and id(current) not in marked:
            marked.add(id(current))
            current = current.parent
    return marked


def _project_above(node: DirNode, projects: dict[int, Project]) -> DirNode | None:
    parent = node.parent
    while parent is not None and id(parent) not in projects:
        parent = parent.parent
    return parent


def project_inventory(project: str, excluded: Iterable[str] = (), allowed: tuple[str, ...] | None = None) -> Project:
    """Re-walk one project alone: everything below it is its own, but the projects below it that
    a walk of the whole tree finds too (a folder v++ ran in above a built project, an HLS project
    beside its result folders): which are, depends only on what lies below them."""
    walker = Walker(excluded, None, allowed)
    for folder in [project, *ide_companions(os.path.abspath(project))]:
        walker.walk(folder)
    path = os.path.abspath(project)
    found = next((p for p in _assign(walker.nodes, built_only=True)[0] if p.path == path), None)
    if found is not None:
        found.problems = walker.problems
        return found
    merged = Project(path, [], [], walker.problems)
    for node in walker.nodes:
        merged.artifacts.extend(node.artifacts)
        merged.build_dirs.extend(node.build_dirs)
    return merged
