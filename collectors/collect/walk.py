"""The parallel walk: a tree shared out between worker processes, each walking its share,
parsing its reports and collecting the projects that lie wholly in it; `walk_tree` walks one
root by whichever path it is given (one walk here, a lent pool, or workers forked for it).

1. the split (`start_split`) visits the root, and the levels below it while they hold fewer
   than `wanted` directories; the directories left, each with the path of the node that owns
   it, are the work; one that holds much more than its part is visited too (`balance_split`);
2. a worker walks its share (`walk_share`), parses every report in it and collects each
   project that lies wholly in it (projects.fold_settled: its folder then stands for it);
3. the shares are merged in a fixed order under the nodes that own their directories
   (`merge_part`), as if one walker had seen everything.
"""

from __future__ import annotations

import os
import pickle
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from collectors.collect.config import Settings
from collectors.collect.discovery import StackEntry, Walker, WalkResult, find_projects, finish_walk
from collectors.collect.pool import collection_paused, forked_pool
from collectors.collect.projects import DirNode, Project, fold_settled
from collectors.collect.results import (
    Parse,
    ProjectResult,
    Stat,
    Stats,
    collect_parsed,
    current_stats,
    parse_batch,
    parsed_of,
    stat_of,
    without_records,
)
from collectors.interpreter import collector_paused
from collectors.problems import Problem

Known = TypeVar("Known")

# a scan's walk is split into at least this many directories per process, and shared out in as
# many shares, each worker taking the next when it is done: the shares stay even whatever the
# size of each subtree (the demo tree's root holds 6 benchmark folders, 1,668 directories
# below them; a directory that holds much more than the others is split further: balance_split)
SHARES_PER_PROCESS = 4


EXPANDED_AT_MOST = 256  # directories of one level the split visits itself to find enough shares
SPLIT_DEPTH = 8  # levels below the root it goes down at most
# a directory left for a share: (path, real path, the path of the node that owns it, discovery?)
ShareEntry = tuple[str, str, str, bool]


@dataclass
class WalkPart:
    """What a worker process walked below some of the directories the split left."""

    nodes: list[DirNode]
    stubs: list[DirNode]  # stood in for the owners of its entries (by path), given back on merging
    problems: list[Problem]
    directories: int
    files: int
    listed: list[str]


def start_split(
    root: str,
    excluded: Iterable[str],
    allowed: tuple[str, ...] | None = None,
    keep_listed: bool = False,
    wanted: int = 2,
) -> tuple[Walker, list[ShareEntry]]:
    """Visit the root, and the levels below it while they hold fewer than `wanted`
    directories (a few hundred at most): the directories left are shared out. Many more than
    there are processes keep the shares even, whatever the size of each subtree."""
    walker = Walker(excluded, None, allowed, keep_listed)
    root = os.path.abspath(root)
    stack: list[StackEntry] = []
    walker.visit(root, os.path.realpath(root), None, True, stack, is_root=True)
    for _level in range(SPLIT_DEPTH):
        if not stack or len(stack) >= wanted or len(stack) > EXPANDED_AT_MOST:
            break
        level, stack = stack, []
        for path, real, owner, discovery in level:
            walker.visit(path, real, owner, discovery, stack, is_root=False)
    return walker, _share_entries(stack)


def balance_split(walker: Walker, entries: list[ShareEntry], wanted: int) -> list[ShareEntry]:
    """The directories the split left, the largest first as far as their link counts tell (2
    more than the subdirectories each holds, where the file system counts them: btrfs does
    not). One that holds more than 1/`wanted` of all their subdirectories is visited here, its
    subdirectories taking its place: the demo tree's cfd_flux, 333 of its 2,000 projects below one
    of the 1,668 directories left, was one share of a quarter of the walk's work, so that no scan
    on more than four cores could end sooner than that share."""
    weights = {entry[0]: _subdirectories(entry[0]) for entry in entries}
    visits = 0
    for _round in range(SPLIT_DEPTH):
        limit = sum(weights[entry[0]] for entry in entries) / wanted
        heavy = [entry for entry in entries if weights[entry[0]] > limit]
        if not heavy or visits + len(heavy) > EXPANDED_AT_MOST:
            break
        visits += len(heavy)
        owners = {node.path: node for node in walker.nodes}
        stack: list[StackEntry] = []
        for path, real, owner, discovery in heavy:
            walker.visit(path, real, owners[owner], discovery, stack, is_root=False)
        below = _share_entries(stack)
        weights.update((entry[0], _subdirectories(entry[0])) for entry in below)
        visited = {entry[0] for entry in heavy}
        entries = [entry for entry in entries if entry[0] not in visited] + below
    return sorted(entries, key=lambda entry: weights[entry[0]], reverse=True)


def _subdirectories(path: str) -> int:
    try:
        return max(0, os.stat(path).st_nlink - 2)
    except OSError:
        return 0


def _share_entries(stack: list[StackEntry]) -> list[ShareEntry]:
    """The walker's stack as shares take it: each owner by its path."""
    entries = []
    for path, real, owner, discovery in stack:
        assert owner is not None  # (only the root has none, and it is not on the stack)
        entries.append((path, real, owner.path, discovery))
    return entries


def walk_part(
    entries: list[ShareEntry],
    excluded: Iterable[str],
    allowed: tuple[str, ...] | None = None,
    keep_listed: bool = False,
) -> WalkPart:
    """Walk some of the directories the split left (in a worker), a stub standing in for each
    node that owns one of them."""
    stubs: dict[str, DirNode] = {}
    walker = Walker(excluded, None, allowed, keep_listed)
    stack: list[StackEntry] = []
    for path, real, owner, discovery in entries:
        stack.append((path, real, stubs.setdefault(owner, DirNode(owner, None, has_component=None)), discovery))
    walker.drain(stack)
    return WalkPart(
        walker.nodes,
        list(stubs.values()),
        walker.problems,
        walker.directories,
        walker.files,
        walker.listed,
    )


def merge_part(walker: Walker, part: WalkPart, owners: dict[str, DirNode]) -> None:
    """Attach a worker's nodes under the real owners (the split's nodes, by path), as if one
    walker had seen everything."""
    stubs = {id(stub) for stub in part.stubs}
    for node in part.nodes:
        if id(node.parent) in stubs:
            assert node.parent is not None
            node.parent = owners[node.parent.path]
    for stub in part.stubs:
        owner = owners[stub.path]
        owner.artifacts.extend(stub.artifacts)
        owner.build_dirs.extend(stub.build_dirs)
        owner.has_evidence = owner.has_evidence or stub.has_evidence
    walker.nodes.extend(part.nodes)
    walker.problems.extend(part.problems)
    walker.directories += part.directories
    walker.files += part.files
    walker.listed += part.listed


# --- one share, in a worker (or here) ------------------------------------------------------------

# projects collected by the shares of a walk, by path, each with the inventory its share saw;
# no result: its artifacts' status is what the engine said it knew (unchanged since its last scan)
Brought = dict[str, tuple[Project, ProjectResult | None]]


@dataclass
class Share:
    """What one process brings back from its share of a scan's walk: what it walked; the
    projects it could collect itself, each with its inventory (the engine uses a result only
    where the whole walk gives the same); and its parses, for the engine's cache. A worker
    sends those of a collected project pickled, in one piece (`shelved`): the engine
    unpickles them only if the project is collected again (unpickling them all took a third
    of a watch's start-up in the main process). A project whose artifacts' status the engine
    knew is not parsed again: it comes back without a result (Brought)."""

    part: WalkPart
    collected: list[tuple[Project, ProjectResult | None]]
    parses: list[Parse]  # (all of them, where nothing is shelved)
    shelved: dict[str, bytes]  # project path -> the pickled parses of its artifacts
    made: int  # parses made
    stats: dict[str, Stats] = field(default_factory=dict)  # of each project it collected


def walk_share(entries: list[ShareEntry], root: str, spec: WalkSpec, shelve: bool | None = None) -> Share:
    """Walk some of the directories the split left, parse what they hold, and collect the
    projects that lie wholly in them (projects.fold_settled: each one's folder goes back as one
    node), as `spec` says (its `known` and `known_files` those of these directories). `shelve`,
    in a worker: True, the parses of
    the projects it collected come back shelved (see Share); False, they do not come back
    (`collect` scans once: the engine keeps no cache) and its results come without their
    records, only the lines and keys written (results.without_records). A project whose
    artifacts are all as `known` is not parsed again (a rescan of an unchanged tree costs its
    walk and its stat calls); a file as in `known_files`, of a project the share cannot collect
    itself, is left to the engine's cache."""
    known, known_files = spec.known, spec.known_files
    part = walk_part(entries, spec.excluded, spec.allowed, spec.keep_listed)
    artifacts = [item for node in part.nodes + part.stubs for item in node.artifacts]
    settled, part.nodes = fold_settled(part.nodes)
    unchanged = _unchanged(settled, known or {})
    # (a session log of the folder HLS projects lie in is each one's: parsed for any that changed)
    needed = {path for project in settled if project.path not in unchanged for path, _kind in project.artifacts}
    skipped = {path for p in settled if p.path in unchanged for path, _kind in p.artifacts if path not in needed}
    if known_files:
        own = {path for project in settled for path, _kind in project.artifacts}
        others = [path for path, _kind in artifacts if path not in own]
        skipped.update(path for path, stat in zip(others, current_stats(others)) if known_files.get(path) == stat)
    parses = parse_batch([(path, kind) for path, kind in artifacts if path not in skipped])
    every = {parsed_of(result).path: result for result in parses}
    unshelved = dict(every)  # (less those of each project collected here)
    share = Share(part, [], [], {}, len(parses))
    for project in settled:
        if project.path in unchanged:
            share.collected.append((project, None))
        else:
            _collect_settled(share, project, every, unshelved, root, spec, shelve)
    share.parses = list(unshelved.values())
    part.nodes = _leading_nowhere_dropped(part.nodes)
    return share


def _leading_nowhere_dropped(nodes: list[DirNode]) -> list[DirNode]:
    """The nodes the whole walk's assignment reads (projects.assign): the candidates and those
    holding files, each hung under its nearest such ancestor (or the stub of the node it hangs
    from). The folders between only lead to them (a campaign's g17/g17_1_base above each
    project): none is a project or holds one's files, and sent they were half of a share's nodes."""
    dropped = {id(node) for node in nodes if not (node.artifacts or node.build_dirs or node.is_candidate)}
    if not dropped:
        return nodes
    kept = []
    for node in nodes:
        if id(node) in dropped:
            continue
        parent = node.parent
        while parent is not None and id(parent) in dropped:
            parent = parent.parent
        node.parent = parent
        kept.append(node)
    return kept


def _unchanged(settled: list[Project], known: Mapping[str, Stats]) -> set[str]:
    """The projects whose artifacts' status is the one the engine knows (by stat alone)."""
    found = set()
    for project in settled:
        stats = known.get(project.path)
        if stats is not None and current_stats([path for path, _kind in project.artifacts]) == stats:
            found.add(project.path)
    return found


def _collect_settled(
    share: Share,
    project: Project,
    every: dict[str, Parse],
    unshelved: dict[str, Parse],
    root: str,
    spec: WalkSpec,
    shelve: bool | None,
) -> None:
    own = [every[path] for path, _kind in project.artifacts]
    try:
        result = collect_parsed(project, root, spec.settings, [parsed_of(r) for r in own], spec.keep_accounts)
    except Exception:  # a bug on strange input: left to the engine, as if it were alone
        return  # (raised from the share, it would end the scan's use of the pool)
    if shelve is False:  # (no cache: the result is only written, its artifacts' status unused)
        share.collected.append((project, without_records(result)))
    else:
        share.collected.append((project, result))
        share.stats[project.path] = tuple(stat_of(r) for r in own)
    if shelve is not None:
        if shelve:  # (after collecting: what it read of its deferred copies goes too)
            share.shelved[project.path] = pickle.dumps(own, pickle.HIGHEST_PROTOCOL)
        for path, _kind in project.artifacts:
            unshelved.pop(path, None)  # (a session log beside it may be another project's too)


def _in_worker(*arguments: Any) -> bytes:
    """A worker's share, pickled. No garbage collection meanwhile: what it makes lives until
    the share is sent (each collection walked it all again: 8 % of its time); pickled here, in
    the pause, not by the pool after it (the collector, back, walked the share once more before
    it was sent: 10-40 ms a share)."""
    with collector_paused():
        return pickle.dumps(walk_share(*arguments), pickle.HIGHEST_PROTOCOL)


# --- one root, by any path -----------------------------------------------------------------------


@dataclass
class Walked:
    """One root walked: the whole walk's projects, and what the shares brought back beside it
    (the projects they collected, their parses, those shelved, how many files they parsed)."""

    result: WalkResult
    brought: Brought = field(default_factory=dict)
    parses: list[Parse] = field(default_factory=list)
    shelved: dict[str, bytes] = field(default_factory=dict)
    made: int = 0
    stats: dict[str, Stats] = field(default_factory=dict)  # of each project a share collected


@dataclass(frozen=True)
class WalkSpec:
    """How one root is walked: what it is given by the engine."""

    excluded: list[str]
    allowed: tuple[str, ...] | None  # the resolved roots symbolic links may lead into (None: anywhere)
    settings: Settings
    keep_listed: bool = False  # the result names every directory listed (a live session watches them)
    keep_parses: bool = True  # the parses come back for the engine's cache (Engine's `cache`)
    keep_accounts: bool = True  # what became of each file is told (collect --explain, the dashboard)
    known: Mapping[str, Stats] | None = None  # what the engine knows of its projects (walk_share)
    known_files: Mapping[str, Stat] | None = None  # and of the files in its cache


def walk_tree(
    root: str,
    spec: WalkSpec,
    processes: int = 1,
    pool: Executor | None = None,
    progress: Callable[[str, int, int | None], None] | None = None,
) -> Walked:
    """Walk one root. With neither `pool` nor more than one process, one walk here does it all;
    else its top levels are visited here until they hold enough directories (start_split), and
    those are shared out between `processes` workers: those of `pool`, lent (a live session's),
    or forked for this walk alone (`collect`: the caller runs a single thread). Threads would
    not help: all need the GIL. A worker that dies raises BrokenProcessPool (or OSError)."""
    if pool is None and processes <= 1:
        on_directory = None if progress is None else (lambda n: progress("walk", n, None))
        return Walked(find_projects([root], spec.excluded, on_directory, spec.allowed, spec.keep_listed))
    walker, stack = start_split(root, spec.excluded, spec.allowed, spec.keep_listed, processes * SHARES_PER_PROCESS)
    if len(stack) <= 1:
        walked = _merged(walker, [walk_share(stack, root, spec)])
    elif pool is not None:
        walked = _merged(walker, _shares_in(pool, _parts(walker, stack, processes), root, spec))
    else:
        with forked_pool(processes) as forked:
            walked = _merged(walker, _shares_in(forked, _parts(walker, stack, processes), root, spec))
    if progress is not None:
        progress("walk", walker.directories, None)
    return walked


def _parts(walker: Walker, stack: list[ShareEntry], processes: int) -> list[list[ShareEntry]]:
    """What the split left, in SHARES_PER_PROCESS shares per process, the largest directories
    first as far as can be told (balance_split: it may visit more of them here)."""
    shares = min(len(stack), processes * SHARES_PER_PROCESS)
    stack = balance_split(walker, stack, shares)
    return [stack[share::shares] for share in range(shares)]


def _shares_in(pool: Executor, parts: list[list[ShareEntry]], root: str, spec: WalkSpec) -> Iterator[Share]:
    """Walk the shares in the pool's workers, each worker taking the next share when it is done
    with one; they come back in a fixed order, each as soon as it is there (and those before
    it), so that merging it overlaps the walk of the others."""
    known, files = spec.known or {}, spec.known_files or {}
    paths, file_paths = sorted(known), sorted(files)
    theirs = [
        pool.submit(
            _in_worker,
            part,
            root,
            replace(spec, known=_known_below(known, paths, part), known_files=_known_below(files, file_paths, part)),
            spec.keep_parses,
        )
        for part in parts
    ]
    with collection_paused():
        while theirs:  # in a fixed order, whichever ends first; each one's bytes let go once read
            yield pickle.loads(theirs.pop(0).result())


def _known_below(known: Mapping[str, Known], paths: list[str], entries: list[ShareEntry]) -> dict[str, Known]:
    """What the engine knows of the projects (or files) in or below a share's directories
    (`paths`: those it knows, sorted)."""
    found: dict[str, Known] = {}
    if not known:
        return found  # (`collect`, and a live session's first scan)
    for path, _real, _owner, _discovery in entries:
        if path in known:
            found[path] = known[path]
        prefix = path + os.sep
        at = bisect_left(paths, prefix)
        while at < len(paths) and paths[at].startswith(prefix):
            found[paths[at]] = known[paths[at]]
            at += 1
    return found


def _merged(walker: Walker, done: Iterable[Share]) -> Walked:
    """The shares' nodes under the split's own, in a fixed order; what they brought beside."""
    owners = {node.path: node for node in walker.nodes}  # (the split's own)
    walked = Walked(WalkResult([], []))
    for share in done:
        walked.made += share.made
        walked.parses += share.parses
        walked.shelved.update(share.shelved)
        walked.stats.update(share.stats)
        merge_part(walker, share.part, owners)
        walked.brought.update((project.path, (project, result)) for project, result in share.collected)
    walked.result = finish_walk(walker)
    return walked
