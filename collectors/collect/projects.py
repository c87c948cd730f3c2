"""Which folders of a walk are projects, and which artifacts each one holds: the walk's nodes
assigned (the walk itself is discovery.py's; nothing is read here but the `.app` files of an
HLS project that holds another, _another_design_inside, and the compile summaries of work
directories side by side, _hls_project_folders). docs/collection.md, "Which folders
are projects".
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from collectors.collect.artifacts import REPORT_KINDS
from collectors.collect.artifacts.hls_log_names import is_folder_session_log, started_in
from collectors.collect.artifacts.hls_project import parse_hls_app
from collectors.collect.mapping import VARIANT
from collectors.collect.pruning import COMPILE_SUMMARY, ide_application
from collectors.files import open_regular
from collectors.problems import ArtifactError, Problem


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
    # a worker settled the projects of this folder and all below it: they stand for its subtree
    settled: Settled | None = None

    @property
    def is_candidate(self) -> bool:
        return (self.has_marker and self.has_source) or self.has_evidence


@dataclass
class Settled:
    """What a folder folded by a share of the walk stands for (fold_settled): the projects its
    share settled in it and below it (each HLS project set apart already), and how many
    build-output folders were pruned there (the walk's count)."""

    projects: list[Project]
    build_dirs: int


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


def assign(nodes: list[DirNode], built_only: bool = False) -> tuple[list[Project], list[Problem]]:
    """Projects, with every node's artifacts given to its nearest project; and a problem for each
    report that lands in none. Built HLS projects side by side in one project are projects of
    their own (_hls_projects_apart); a folder a share settled stands for its projects."""
    holders, owned, orphans = _holders(nodes, built_only)
    parts = (
        node.settled.projects if node.settled is not None else _hls_projects_apart(owned[id(node)]) for node in holders
    )
    found = _merge_ide_companions([part for found in parts for part in found])
    return with_session_logs_above(found, session_logs_by_folder(nodes)), orphans


def _holders(nodes: list[DirNode], built_only: bool) -> tuple[list[DirNode], dict[int, Project], list[Problem]]:
    """The nodes that are projects; the project of each but the settled ones (by node id: the
    artifacts of every node whose nearest project it is); the reports in none. A built
    candidate (build evidence, or reports in its subtree) is a project unless a built one lies
    below it, or when it holds reports of its own (in itself or its build output: an HLS project
    beside harness folders keeps its solutions), a solution of its own (_holds_a_solution) or v++
    ran in it; an unbuilt one (a marker and
    source only) is a project unless any candidate lies below it or a built project above.
    `built_only`: the built projects alone (what lies below an unbuilt one is no built
    project's: the built ones keep the same artifacts)."""
    # (only the nodes that hold files matter below: most are folders on the way to a project)
    holding = [n for n in nodes if n.artifacts or n.build_dirs]
    own_reports = {id(n) for n in holding if any(kind in REPORT_KINDS for _path, kind in n.artifacts)}
    with_reports = _marked_upwards(n for n in holding if id(n) in own_reports)
    candidates = [n for n in nodes if n.is_candidate]
    built = [n for n in candidates if n.has_evidence or id(n) in with_reports]
    below_built = _marked_upwards(n.parent for n in built if n.parent is not None)
    kept = own_reports | {id(n) for n in holding if _vpp_ran_in(n.path, n.artifacts) or _holds_a_solution(n.artifacts)}
    projects = {id(n): n for n in built if id(n) not in below_built or id(n) in kept}
    below_any = _marked_upwards(n.parent for n in candidates if n.parent is not None)
    if not built_only:
        for node in candidates:
            if id(node) not in below_any and id(node) not in projects and _project_above(node, projects) is None:
                projects[id(node)] = node
    owned = {key: Project(node.path, [], []) for key, node in projects.items() if node.settled is None}
    orphans: list[Problem] = []
    for node in holding:  # (in walk order: a project's files in the order they were found)
        holder = node if id(node) in projects else _project_above(node, projects)
        if holder is None:
            orphans += [Problem(path, NO_PROJECT) for path, kind in node.artifacts if kind in REPORT_KINDS]
            continue
        owned[id(holder)].artifacts.extend(node.artifacts)
        owned[id(holder)].build_dirs.extend(node.build_dirs)
    return list(projects.values()), owned, sorted(orphans)


def fold_settled(nodes: list[DirNode]) -> tuple[list[Project], list[DirNode]]:
    """A share's settled projects (those of its complete subtrees that nothing outside it can
    change: the built ones; an unbuilt candidate yields to a built project above it, which a
    share cannot see), and its nodes with the folder of each
    settled project standing for everything below it (Settled, the outermost where one lies in
    another): the whole walk's assignment reads one node per project instead of every folder
    of the share, and the nodes below are not sent back. Whether a built candidate is a project,
    and what is its own, depends only on what lies below it: the whole walk decides the same.
    The folder is marked as build evidence (built by reports below it alone, it would look
    unbuilt): a folder above it is a project only where it keeps reports, a solution or a v++
    log of its own, each of which makes it built, so nothing else below the folded folder
    matters to it."""
    _holding, owned, _orphans = _holders(nodes, built_only=True)
    beside = session_logs_by_folder(nodes)
    parts = {key: with_session_logs_above(_hls_projects_apart(project), beside) for key, project in owned.items()}
    settled = _merge_ide_companions([part for found in parts.values() for part in found])
    folded: dict[int, DirNode] = {}  # a node's id -> the outermost settled folder it lies in
    kept: list[DirNode] = []
    for node in nodes:  # (a folder comes before the folders below it)
        outer = folded.get(id(node.parent)) if node.parent is not None else None
        if outer is None and id(node) in parts:
            outer = node
            kept.append(node)
            node.settled = Settled([], 0)
            node.has_evidence = True
        elif outer is None:
            kept.append(node)
            continue
        folded[id(node)] = outer
        assert outer.settled is not None
        outer.settled.projects += parts.get(id(node), [])
        outer.settled.build_dirs += len(node.build_dirs)
        node.artifacts, node.build_dirs = [], []
    return settled, kept


def _vpp_ran_in(folder: str, artifacts: list[tuple[str, str]]) -> bool:
    """A v++ log right in the folder (not a copy in a logs/ folder below): v++ ran there
    (happyCheetah/matmult's failed sw_emu compile at the root, its hw_emu build in u200/hw_emu)."""
    return any(kind == "vpp_log" and os.path.dirname(path) == folder for path, kind in artifacts)


def _holds_a_solution(artifacts: list[tuple[str, str]]) -> bool:
    """An HLS solution of its own (its `.aps`), reports or none: a synthesis that failed wrote
    none (SpeedyBK/PynqNet's ip_repo, a built project in HLS_Repo/ below it: the failure was lost)."""
    return any(kind == "aps" for _path, kind in artifacts)


def _hls_projects_apart(project: Project) -> list[Project]:
    """A folder that holds, right in it, several built HLS projects (folders with their `.app` and a
    solution: ngn-colorado/cloud-rtr's examples/aes_fpga and examples/qam_fpga, a course's lab
    folder with one project per exercise) holds several designs: each HLS project is a project
    of its own. Merged, they were one run whose other solutions were problem lines, and one
    design's verdict spoke for another. The folder stays a project for what lies outside them
    where that is a design too (its own reports, or a v++ log: bol-edu/2022-spring-nthu's IPs/
    holds its own solution1 beside four HLS projects); what else it holds (the GUI's
    `vitis_hls.log` where it was started, a Vivado project beside) is no project's (but the
    session logs of the folder an HLS project lies in are also its: with_session_logs_above)."""
    apps = _hls_project_folders(project)
    if len(apps) < 2 or VARIANT.match(os.path.basename(project.path)):
        # (one HLS project at most; or a campaign's `<prefix>_<index>_<name>` folder: one
        # implementation, its name says)
        return [project]
    right_in = {path for path in project.build_dirs if os.path.dirname(path) == project.path}
    # built: a solution's `.aps` or a report below it (cgruda/repo committed no `.aps` files)
    results = [path for path, kind in project.artifacts if kind == "aps" or kind in REPORT_KINDS]
    folders = sorted(f for f in apps & right_in if _holds_any(f, results))
    if len(folders) <= 1:
        # (one HLS project in a repository's folder, or the folder itself, is its design,
        # whatever else is there; but those made in it of other tops are designs of their own)
        one = len(folders) == 1 and not _another_design_inside(project, project.path, folders[0])
        folders = _other_designs_in(project, folders[0] if one else project.path, apps, results)
    if not folders:
        return [project]
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


Beside = dict[str, list[tuple[str, str]]]  # a folder -> the session logs of the HLS tool started there


def session_logs_by_folder(nodes: list[DirNode]) -> Beside:
    """The session logs among the nodes' files, by the folder the HLS tool was started in."""
    beside: Beside = {}
    for node in nodes:
        for path, kind in node.artifacts:
            if kind == "hls_log" and is_folder_session_log(path):
                beside.setdefault(started_in(path), []).append((path, kind))
    return beside


def with_session_logs_above(projects: list[Project], beside: Beside) -> list[Project]:
    """Each HLS project with the session logs of the folder it lies in, whoever's they are (the
    folder's project, split into designs, or no project): the HLS tool started there beside it,
    and such a log times the solution it opened by its path (runs/sessions.py). In no project,
    a run lost its time: Varsenaiga/VitisOptimization's Testing (434.083 s) once its folder was
    split, Warrior-li/SDMA's spmm_prj (its `.app` git-ignored: 37.12 s). Made anew where they
    change: a share's own project stays as it sent it (its result is collected again)."""
    if not beside:
        return projects
    found = []
    for project in projects:
        above = [log for log in beside.get(os.path.dirname(project.path), []) if log not in project.artifacts]
        if above and is_hls_project_folder(project):
            project = replace(project, artifacts=project.artifacts + above)
        found.append(project)
    return found


def is_hls_project_folder(project: Project) -> bool:
    """An HLS project's folder: its `.app`, or the compile summary of a `v++ -c --mode hls` work
    directory, right in it; or a solution's `.aps` right below it (its `.app` not committed)."""
    return any(
        (os.path.dirname(path) == project.path and (kind == "hls_app" or path.endswith(COMPILE_SUMMARY)))
        or (kind == "aps" and os.path.dirname(os.path.dirname(path)) == project.path)
        for path, kind in project.artifacts
    )


def _other_designs_in(project: Project, outer: str, apps: set[str], results: list[str]) -> list[str]:
    """The built HLS projects below the HLS project `outer`, at any depth, of another top than
    its own (the outermost of them): arjunmenonv/HW-Spectrum-Analyzer's SpecAnalv2/ (top FFT)
    keeps 01-fft/build/perf_ctr/ (top counter), whose synthesis was an hls_synth of the FFT."""
    inner = [f for f in apps if f.startswith(outer + os.sep) and _holds_any(f, results)]
    others = [f for f in inner if _another_design_inside(project, outer, f)]
    return sorted(f for f in others if not any(f.startswith(other + os.sep) for other in others))


def _holds_any(folder: str, paths: list[str]) -> bool:
    return any(path.startswith(folder + os.sep) for path in paths)


def _is_design(project: Project) -> bool:
    """Reports, or a v++ run right in the folder: a design, not a folder's leftovers."""
    return any(kind in REPORT_KINDS for _path, kind in project.artifacts) or _vpp_ran_in(
        project.path, project.artifacts
    )


APP_BYTES = 64 * 1024  # of a `.app`, what is read for its top


def _hls_project_folders(project: Project) -> set[str]:
    """The folders of the HLS projects among a project's files: each `.app`'s; and each work
    directory of a `v++ -c --mode hls` compile (its `.hlscompile_summary`) of a kernel no other
    one compiled (circuitmaster/VVC-Decoder-Accelerator's dct2_dir/, dct8_dir/ and idst7_dir/,
    IDCT2, IDCT8 and IDST7 side by side, were one run whose other two syntheses were problem
    lines; one kernel compiled in two work directories is one design's runs), outside a unified
    component, whose work directories are all its own."""
    apps: set[str] = set()
    works: list[str] = []  # (the compile summaries of folders right in the project)
    for path, kind in project.artifacts:
        folder = os.path.dirname(path)
        if kind == "hls_app":
            apps.add(folder)
        elif kind == "summary" and path.endswith(COMPILE_SUMMARY) and os.path.dirname(folder) == project.path:
            works.append(path)
    if not works or any(kind == "vitis_comp" and os.path.dirname(p) == project.path for p, kind in project.artifacts):
        return apps
    if len(apps) + len(works) < 2:
        return apps | {os.path.dirname(works[0])}  # (one HLS project: nothing is read)
    kernels = {os.path.dirname(path): _summary_kernels(path) for path in works}
    named = [kernel for found in kernels.values() for kernel in found]
    return apps | {folder for folder, found in kernels.items() if found and all(named.count(k) == 1 for k in found)}


def _another_design_inside(project: Project, outer: str, folder: str) -> bool:
    """Whether the outer folder is an HLS project itself (its own `.app`) of another top function
    than the HLS project in it (kmisimn76/SparseAccel: top Conv_sysarr, and AdderTree_example/ of
    adder_tree_large, whose solution gave the folder's records and the folder's own C simulation
    a problem line; namratamantri/ECE527_SIKEHW's sikehls/, top eval_4_isog, holds koa_mult/ and
    rdc_mont/ of their own tops: merged, their syntheses were problem lines). Of one top, the one
    inside is a copy of the design (ValdecirDesenv/FPGA_picoZed's picoZed/): one design. The
    `.app` files are read here: only in this case."""
    own = _app_tops(project, outer)
    if len(own) != 1:
        return False  # (not an HLS project itself, or one of several minds: the one inside is not read)
    inside = _app_tops(project, folder)
    return len(inside) == 1 and not own & inside


# the kernels a compile summary names (`"type": "KERNEL", "name": "IDCT2"`)
_SUMMARY_KERNEL = re.compile(r'"type":\s*"KERNEL",\s*"name":\s*"([^"]+)"')


def _summary_kernels(path: str) -> set[str]:
    """The kernels (casefolded) a `.hlscompile_summary` compiled; an unreadable one names none."""
    try:
        with open_regular(path) as handle:  # (its kernels come early: no more is read)
            text = handle.read(APP_BYTES).decode("utf-8", errors="replace")
    except (ArtifactError, OSError):
        return set()
    return {name.casefold() for name in _SUMMARY_KERNEL.findall(text)}


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
    hold configurations of the same builds: they are one project, the application's. Each merge
    is a new project: a share's settled projects are merged again in the whole walk's, as they
    were."""
    by_path = {project.path: project for project in projects}
    for project in list(by_path.values()):
        app = ide_application(project.path)
        if app is None:
            continue
        merged = by_path.get(app, Project(app, [], []))
        by_path[app] = Project(app, merged.artifacts + project.artifacts, merged.build_dirs + project.build_dirs)
        del by_path[project.path]
    return sorted(by_path.values(), key=lambda p: p.path)


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


def _project_above(node: DirNode, projects: dict[int, DirNode]) -> DirNode | None:
    parent = node.parent
    while parent is not None and id(parent) not in projects:
        parent = parent.parent
    return parent
