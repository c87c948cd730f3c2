"""Walking build trees: which directories are projects, and which artifacts each one holds.

One walk serves both jobs. Directories in *discovery* mode may become projects; build-output
directories are pruned for discovery but still walked, their artifacts credited to the
nearest discovery-mode ancestor (rules, section 1).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .artifacts import EXTENSION_KINDS, classify
from .artifacts.vpp_log import VPP_BUILD_PREFIXES, is_vpp_build_dir
from .problems import Problem

BUILD_OUTPUT_NAMES = frozenset(
    {
        "package",
        "xclbin",
        ".run",
        ".Xil",
        ".ipcache",
        ".jobs",
        ".tlog",
        "_vimage",
        "emulation",
        "reports",
        "logs",
        ".autopilot",
        "_sds",
        "sd_card",
        # the extension families' output folders (rules, section 8)
        "aiesimulator_output",
        "x86simulator_output",
        "mapper-snapshots",
        "Work",
    }
)
BUILD_OUTPUT_PREFIXES = (*VPP_BUILD_PREFIXES, "package.", "solution", "_xocc_")
SHARED_NAMES = frozenset({"common", "data", "result", "libs", "__pycache__", ".git"})
BUILD_MARKERS = frozenset(
    {"Makefile", "makefile", "hls.tcl", "run_hls.tcl", "hls_config.cfg", "vitis-comp.json", "description.json"}
)
SOURCE_ENDINGS = (".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".hh", ".cl")
EVIDENCE_LOGS = frozenset({"vitis_hls.log", "vivado_hls.log"})
STATE_DIR = ".vitis-tui"  # the tool's own state, never walked
NEVER_WALKED = frozenset({".git", "__pycache__", STATE_DIR})


StackEntry = tuple[str, str, "DirNode | None", bool]


@dataclass
class DirNode:
    """A directory walked in discovery mode."""

    path: str
    parent: DirNode | None
    has_marker: bool = False
    has_source: bool = False
    has_evidence: bool = False
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

    @property
    def built(self) -> bool:
        return bool(self.artifacts or self.build_dirs)


@dataclass
class WalkResult:
    projects: list[Project]
    problems: list[Problem]
    directories: int = 0
    files: int = 0


def is_build_output_name(name: str) -> bool:
    return name in BUILD_OUTPUT_NAMES or name.startswith(BUILD_OUTPUT_PREFIXES) or is_vpp_build_dir(name)


def _is_evidence_file(name: str) -> bool:
    return (
        name in EVIDENCE_LOGS
        or (name.startswith("v++") and name.endswith(".log"))
        or (name.startswith("vitis_run.") and name.endswith(".meta"))
    )


class _Walker:
    def __init__(self, excluded: Iterable[str], on_directory: Callable[[int], None] | None) -> None:
        self.excluded = {os.path.abspath(p) for p in excluded}
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
            self._visit(path, real, owner, discovery, stack, is_root=(path == root))

    def _visit(self, path: str, real: str, owner: DirNode | None, discovery: bool, stack: list, is_root: bool) -> None:
        self.directories += 1
        if self.on_directory is not None and self.directories % 256 == 0:
            self.on_directory(self.directories)
        try:
            with os.scandir(path) as scan:
                entries = list(scan)
        except FileNotFoundError:
            return  # removed during the scan: nothing left to collect there
        except OSError as exc:
            self.problems.append(Problem(path, f"cannot list directory: {exc.strerror or exc}"))
            return
        name = os.path.basename(path)
        dirs: list[os.DirEntry] = []
        files: list[str] = []
        for entry in entries:
            if _is_dir(entry):
                dirs.append(entry)
            else:
                files.append(entry.name)
        if discovery and not is_root and self._is_build_output(name, files, path):
            discovery = False
            if owner is not None:
                owner.build_dirs.append(path)
                owner.has_evidence = True
        node = owner
        if discovery:
            node = DirNode(path, owner)
            self.nodes.append(node)
        assert node is not None
        excluded = self.excluded
        for entry in dirs:
            child = entry.name
            if child in NEVER_WALKED or (discovery and child in SHARED_NAMES) or entry.path in excluded:
                continue  # inside build output a `data` folder is output (aiesimulator_output/data)
            if entry.is_symlink():
                child_real = os.path.realpath(entry.path)
                if real == child_real or real.startswith(child_real + os.sep):
                    self.problems.append(Problem(entry.path, "symbolic link loop, not followed"))
                    continue
                if child_real in self.seen_links:
                    continue  # the same directory reached twice: walk it once
                self.seen_links.add(child_real)
            else:
                child_real = real + os.sep + child
            stack.append((entry.path, child_real, node, discovery))
        self.files += len(files)
        prefix = path + os.sep
        for fname in files:
            kind = classify(fname, name, prefix + fname)
            if kind in EXTENSION_KINDS and discovery:
                node.has_evidence = True  # a mapper run or a recipe is a build of its own
            if kind is not None and prefix + fname not in excluded:
                node.artifacts.append((prefix + fname, kind))
            if discovery:
                if fname in BUILD_MARKERS:
                    node.has_marker = True
                elif fname.endswith(SOURCE_ENDINGS):
                    node.has_source = True
                elif _is_evidence_file(fname):
                    node.has_evidence = True
        if discovery and not node.has_source and any(d.name == "src" for d in dirs):
            node.has_source = _has_source(os.path.join(path, "src"))

    @staticmethod
    def _is_build_output(name: str, files: list[str], path: str) -> bool:
        if is_build_output_name(name):
            return True
        if any(f.endswith(".aps") or f in ("hls.app", "vivado_hls.app") for f in files):
            return True
        return name == "hls" and os.path.exists(os.path.join(os.path.dirname(path), "vitis-comp.json"))


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
    roots: Iterable[str], excluded: Iterable[str] = (), on_directory: Callable[[int], None] | None = None
) -> WalkResult:
    """Walk every root once; return the projects (deepest candidates) with their artifacts."""
    walker = _Walker(excluded, on_directory)
    for root in roots:
        walker.walk(root)
    return WalkResult(_assign(walker.nodes), walker.problems, walker.directories, walker.files)


# --- walking a tree in two processes (collect on a 2-core machine) -------------------------------


@dataclass
class WalkPart:
    """What a worker process walked below some of the root's subdirectories."""

    nodes: list[DirNode]
    stub: DirNode  # stood in for the root's node; its parentage is given back on merging
    problems: list[Problem]
    directories: int
    files: int


def start_split(root: str, excluded: Iterable[str]) -> tuple[_Walker, DirNode | None, list[StackEntry]]:
    """Visit the root alone; its subdirectories are left on the stack for the two halves."""
    walker = _Walker(excluded, None)
    root = os.path.abspath(root)
    stack: list[StackEntry] = []
    walker._visit(root, os.path.realpath(root), None, True, stack, is_root=True)
    root_node = walker.nodes[0] if walker.nodes else None
    for _level in range(4):  # `suite/Benchmarks/...`: go down while there is a single way down
        if len(stack) != 1 or stack[0][2] is not root_node:
            break
        path, real, owner, discovery = stack.pop()
        walker._visit(path, real, owner, discovery, stack, is_root=False)
        if len(walker.nodes) > 1 and stack and stack[0][2] is walker.nodes[-1]:
            root_node = walker.nodes[-1]
    return walker, root_node, stack


def walk_part(entries: list[StackEntry], root: str, excluded: Iterable[str]) -> WalkPart:
    """Walk some of the root's subdirectories (in a worker), a stub standing in for the root node."""
    stub = DirNode(root, None)
    walker = _Walker(excluded, None)
    walker.drain([(path, real, stub, discovery) for path, real, _owner, discovery in entries])
    return WalkPart(walker.nodes, stub, walker.problems, walker.directories, walker.files)


def merge_part(walker: _Walker, root_node: DirNode, part: WalkPart) -> None:
    """Attach a worker's nodes under the real root node, as if one walker had seen everything."""
    for node in part.nodes:
        if node.parent is part.stub:
            node.parent = root_node
    root_node.artifacts.extend(part.stub.artifacts)
    root_node.build_dirs.extend(part.stub.build_dirs)
    root_node.has_evidence = root_node.has_evidence or part.stub.has_evidence
    walker.nodes.extend(part.nodes)
    walker.problems.extend(part.problems)
    walker.directories += part.directories
    walker.files += part.files


def finish_walk(walker: _Walker) -> WalkResult:
    return WalkResult(_assign(walker.nodes), walker.problems, walker.directories, walker.files)


def _assign(nodes: list[DirNode]) -> list[Project]:
    """Deepest candidates become projects; every node's artifacts go to its nearest project."""
    covered: set[int] = set()  # ids of nodes with a candidate strictly below them
    for node in nodes:
        if node.is_candidate:
            parent = node.parent
            while parent is not None and id(parent) not in covered:
                covered.add(id(parent))
                parent = parent.parent
    projects: dict[int, Project] = {}
    for node in nodes:
        if node.is_candidate and id(node) not in covered:
            projects[id(node)] = Project(node.path, [], [])
    for node in nodes:
        holder: DirNode | None = node
        while holder is not None and id(holder) not in projects:
            holder = holder.parent
        if holder is not None:
            project = projects[id(holder)]
            project.artifacts.extend(node.artifacts)
            project.build_dirs.extend(node.build_dirs)
    return sorted(projects.values(), key=lambda p: p.path)


def project_inventory(project: str, excluded: Iterable[str] = ()) -> Project:
    """Re-walk one project alone: everything below it is its own (a project has none below)."""
    walker = _Walker(excluded, None)
    walker.walk(project)
    merged = Project(os.path.abspath(project), [], [])
    for node in walker.nodes:
        merged.artifacts.extend(node.artifacts)
        merged.build_dirs.extend(node.build_dirs)
    return merged
