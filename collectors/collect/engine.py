"""The collection engine: scan roots, (re)collect projects, reuse parses of unchanged files."""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import resource_tracker
from typing import Any

from collectors.collect.accounting import account_project
from collectors.collect.artifacts import ARTIFACTS
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.config import Settings
from collectors.collect.discovery import (
    Project,
    ShareEntry,
    WalkPart,
    WalkResult,
    _Walker,
    balance_split,
    find_projects,
    finish_walk,
    merge_part,
    project_inventory,
    settled_projects,
    start_split,
    walk_part,
)
from collectors.collect.extensions import build_extension_records, extension_problems
from collectors.collect.mapping import Identity, map_project
from collectors.collect.runs import Run, build_runs
from collectors.files import describe_os_error, not_regular, parse_stream, read_report
from collectors.live.inotify import (
    Inotify,
    LateWatches,
    Listed,
    SharedDescriptor,
    adopt,
    change_clock_ns,
    placed_by,
    watch_listed,
    worker_descriptor,
)
from collectors.problems import ArtifactError, NotThisKind, Problem
from collectors.records.store import Output
from collectors.records.validate import keep_valid

# A file changed this recently and unreadable is probably still being written.
SETTLE_SECONDS = 1.0
FREEZE_EVERY = 1000  # projects collected between two gc.freeze() calls during a scan
# a scan's walk is split into at least this many directories per process, and shared out in as
# many shares, each worker taking the next when it is done: the shares stay even whatever the
# size of each subtree (the demo tree's root holds 6 benchmark folders, 1,668 directories
# below them; a directory that holds much more than the others is split further: balance_split)
SHARES_PER_PROCESS = 4
WATCHED_AT_ONCE = 1000  # directories a worker watches in one task (its result stays small: LateWatches)


@dataclass
class ProjectResult:
    path: str
    root: str
    identity: Identity
    runs: list[Run]
    problems: list[Problem]
    built: bool
    unsettled: list[str] = field(default_factory=list)  # broken files that were still changing
    extension_records: list[dict[str, Any]] = field(default_factory=list)  # AIE, XRT, LOOM (second file)
    accounts: dict[str, str] = field(default_factory=dict)  # file -> what became of it (accounting.py)

    @property
    def records(self) -> list[dict[str, Any]]:
        return [record for run in self.runs for record in run.records]


@dataclass
class Collection:
    """Everything one scan found: per-project results and the problems of the walk itself."""

    projects: dict[str, ProjectResult] = field(default_factory=dict)
    walk_problems: list[Problem] = field(default_factory=list)
    directories: int = 0
    files: int = 0
    skipped: int = 0  # build-output folders the walks pruned for discovery
    # where the engine watches (a live session): when the scan began (change_clock_ns()), the
    # directories its walks listed and the artifacts they found, for Engine.watch_listed
    started_ns: int = 0
    listed: list[str] = field(default_factory=list)
    artifacts: list[str] = field(default_factory=list)

    def output(self, path: str, ext_path: str) -> Output:
        """The files this collection writes (nothing is written yet)."""
        output = Output(path, ext_path)
        for project, result in sorted(self.projects.items()):
            output.apply(project, result.records, result.extension_records)
        return output

    def problems(self) -> list[Problem]:
        found = list(self.walk_problems)
        for path in sorted(self.projects):
            found.extend(self.projects[path].problems)
        # (a project collected again alone, as one still being written is, reports its walk's
        # problems too: a link out of the roots is said once)
        return list(dict.fromkeys(found))


# what tells one state of a file from another: size, modification and change times, inode. Size
# and mtime alone miss a rewrite that keeps them (`cp -p`, `rsync -t`, a rename onto the file);
# the change time is set by the kernel on every write, rename and time change, and a rename
# onto the file brings another inode.
Stamp = tuple[int, int, int, int]


def stamp_of(stat: os.stat_result) -> Stamp:
    return (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)


@dataclass(frozen=True)
class _CacheEntry:
    stamp: Stamp
    parsed: Parsed


def parse_file(path: str, kind: str, stat: os.stat_result | None = None) -> tuple[Stamp, Parsed] | Parsed:
    """Stat (unless given) and parse one artifact: (its stamp, result), or a Parsed error.
    A deferred kind is only stat'ed here: it is read when its facts are first asked for."""
    try:
        stat = stat or os.stat(path)
    except OSError as exc:
        return Parsed(path, kind, 0, None, describe_os_error(exc))
    artifact = ARTIFACTS[kind]
    reason = not_regular(stat.st_mode)
    stamp = stamp_of(stat)
    if reason is not None:  # a FIFO named csynth.xml must never be opened for reading
        return stamp, Parsed(path, kind, stat.st_mtime_ns, None, reason)
    if artifact.parse is None:
        return stamp, Parsed(path, kind, stat.st_mtime_ns, {})
    deferred = artifact.deferred
    quiet = deferred is not None
    if deferred is not None and deferred(path):
        later = partial(read_and_parse, path, kind, stat.st_mtime_ns)
        return stamp, Parsed(path, kind, stat.st_mtime_ns, None, load=later, quiet=True)
    return stamp, read_and_parse(path, kind, stat.st_mtime_ns, quiet)


def read_and_parse(path: str, kind: str, mtime_ns: int, quiet: bool = False) -> Parsed:
    """Read and parse one (stat'ed, regular) artifact; whatever is wrong with it costs it alone."""
    artifact = ARTIFACTS[kind]
    assert artifact.parse is not None
    data: dict[str, Any] | None = None
    error: str | None = None
    try:
        data = parse_stream(path, artifact.parse) if artifact.stream else artifact.parse(read_report(path))
    except NotThisKind:
        pass  # neither facts nor a problem
    except ArtifactError as exc:
        error = str(exc)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError, UnicodeError) as exc:
        # A parser bug on strange input must cost one file, never the collection.
        error = f"unreadable report: {exc!r}"
    return Parsed(path, kind, mtime_ns, data, error, quiet=quiet)


def parse_batch(items: list[tuple[str, str]]) -> list[tuple[Stamp, Parsed] | Parsed]:
    return [parse_file(path, kind) for path, kind in items]


def collect_parsed(project: Project, root: str, settings: Settings, parsed: list[Parsed]) -> ProjectResult:
    """A project's runs, records and problems, from its parsed artifacts (in its own order)."""
    for item in parsed:
        item.forget_use()  # a report no run consults this time has no problem to report
    identity = map_project(project.path, root, settings)
    runs, problems = build_runs(project.path, parsed, project.build_dirs, identity)
    problems[:0] = project.problems
    extension = build_extension_records(project.path, parsed, identity, settings, runs)
    problems += extension_problems(extension, project.path)
    for run in runs:  # nothing its schema rejects is ever written (or shown as collected)
        run.records = keep_valid(run.records, project.path, problems)
    extension = keep_valid(extension, project.path, problems)
    now = time.time_ns()
    # (a time in the future, a clock that runs ahead, is no sign of a writer still at it)
    unsettled = [p.path for p in parsed if p.reported and p.error and 0 <= now - p.mtime_ns < SETTLE_SECONDS * 1e9]
    accounts = account_project(project.path, parsed, runs, problems, extension)
    return ProjectResult(project.path, root, identity, runs, problems, project.built, unsettled, extension, accounts)


# projects collected by the shares of a walk, by path, each with the inventory its share saw
Brought = dict[str, tuple[Project, ProjectResult]]


@dataclass
class Share:
    """What one process brings back from its share of a scan's walk: what it walked; the
    projects it could collect itself, each with its inventory (the engine uses a result only
    where the whole walk gives the same); and its parses, for the engine's cache. A worker
    sends those of a collected project pickled, in one piece (`shelved`): the engine
    unpickles them only if the project is collected again (unpickling them all took a third
    of a watch's start-up in the main process)."""

    part: WalkPart
    collected: list[tuple[Project, ProjectResult]]
    parses: list[tuple[Stamp, Parsed] | Parsed]  # (all of them, where nothing is shelved)
    shelved: dict[str, bytes]  # project path -> the pickled parses of its artifacts
    made: int  # parses made


def _parsed_of(result: tuple[Stamp, Parsed] | Parsed) -> Parsed:
    return result if isinstance(result, Parsed) else result[1]


def walk_share(
    entries: list[ShareEntry],
    root: str,
    excluded: list[str],
    allowed: tuple[str, ...] | None,
    settings: Settings,
    keep_listed: bool,
    shelve: bool = False,
) -> Share:
    """Walk some of the directories the split left, parse what they hold, and collect the
    projects that lie wholly in them (discovery.settled_projects). `keep_listed`: the part
    names the directories listed; `shelve`: in a worker (see Share)."""
    part = walk_part(entries, excluded, allowed, keep_listed)
    owners = part.nodes + part.stubs
    parses = parse_batch([(path, kind) for node in owners for path, kind in node.artifacts])
    unshelved = {_parsed_of(result).path: result for result in parses}
    collected: list[tuple[Project, ProjectResult]] = []
    shelved: dict[str, bytes] = {}
    for project in settled_projects(part.nodes):
        own = [unshelved[path] for path, _kind in project.artifacts]
        try:
            collected.append((project, collect_parsed(project, root, settings, [_parsed_of(r) for r in own])))
        except Exception:  # a bug on strange input: left to the engine, as if it were alone
            continue  # (raised from the share, it would end the scan's use of the pool)
        if shelve:  # (after collecting: what it read of its deferred copies goes too)
            shelved[project.path] = pickle.dumps(own, pickle.HIGHEST_PROTOCOL)
            for path, _kind in project.artifacts:
                del unshelved[path]
    return Share(part, collected, list(unshelved.values()), shelved, len(parses))


class Engine:
    """Holds the parse cache; `settings_for(root)` gives the configuration of a watched root."""

    def __init__(self, settings_for: Callable[[str], Settings], excluded: Iterable[str] = ()) -> None:
        self.settings_for = settings_for
        self.excluded = [os.path.abspath(p) for p in excluded]
        self._cache: dict[str, _CacheEntry] = {}
        self._fresh: set[str] = set()  # parsed by the prefetch of the scan under way
        # the last scan's parses of the projects its workers collected, pickled per project:
        # put in the cache when the project is first collected again (Share)
        self._shelved: dict[str, bytes] = {}
        self._roots: tuple[str, ...] = ()  # the resolved roots of the last scan: links may lead there
        self.parses = 0  # how many files were actually read and parsed (for tests and benchmarks)
        self.processes = usable_cores()  # how many processes share a scan's walk and parsing
        self.pool: Executor | None = None  # the workers a live session lends for its scans
        # a live session's inotify: its scans keep the directories they list, to be watched by
        # watch_listed (the pool's workers hold a copy of its descriptor)
        self.watching: Inotify | None = None

    def parse(self, path: str, kind: str) -> Parsed:
        """Parse one artifact, or return the cached result when its stamp is unchanged."""
        if path in self._fresh:
            return self._cache[path].parsed  # stat'ed and parsed moments ago, in this scan
        try:
            stat = os.stat(path)
        except OSError as exc:
            self._cache.pop(path, None)
            return Parsed(path, kind, 0, None, describe_os_error(exc))
        cached = self._cache.get(path)
        if cached is not None and cached.stamp == stamp_of(stat):
            return cached.parsed
        self.parses += 1
        return self._remember(parse_file(path, kind, stat))

    def _remember(self, result: tuple[Stamp, Parsed] | Parsed) -> Parsed:
        if isinstance(result, Parsed):
            self._cache.pop(result.path, None)
            return result
        stamp, parsed = result
        self._cache[parsed.path] = _CacheEntry(stamp, parsed)
        return parsed

    def collect_project(self, project: Project, root: str) -> ProjectResult:
        parsed = [self.parse(path, kind) for path, kind in project.artifacts]
        return collect_parsed(project, root, self.settings_for(root), parsed)

    def allowed(self, root: str) -> tuple[str, ...] | None:
        """Where symbolic links below `root` may lead: the roots, or anywhere with --follow-outside."""
        if self.settings_for(root).follow_outside:
            return None
        return self._roots or (os.path.realpath(root),)

    def recollect(self, project_path: str, root: str) -> ProjectResult:
        """Re-walk and re-collect one project alone (the dashboard's path for a change)."""
        shelved = self._shelved.pop(project_path, None)
        for result in pickle.loads(shelved) if shelved is not None else ():
            self._remember(result)
        inventory = project_inventory(project_path, self.excluded, self.allowed(root))
        live = {path for path, _kind in inventory.artifacts}
        for path in [p for p in self._cache if p.startswith(project_path + os.sep) and p not in live]:
            del self._cache[path]
        return self.collect_project(inventory, root)

    def scan(
        self,
        roots: Iterable[str],
        progress: Callable[[str, int, int | None], None] | None = None,
        wait_for_writers: float = 5.0,
        on_result: Callable[[ProjectResult], None] | None = None,
    ) -> Collection:
        """Walk every root and collect every project. Files still being written are retried."""
        roots = [os.path.abspath(r) for r in roots]
        self._roots = tuple(os.path.realpath(r) for r in roots)
        self._shelved.clear()  # (this scan shelves them afresh)
        collection = Collection(started_ns=change_clock_ns())
        for root in roots:
            walked, brought = self._walk(root, progress)
            try:
                for count, project in enumerate(walked.projects, 1):
                    if count % FREEZE_EVERY == 0:
                        # what the scan keeps lives as long as the collection: each full garbage
                        # collection would walk it all again (1.4 s of 9 on 20,000 projects). It
                        # holds no reference cycles: refcounting frees it when it is let go.
                        gc.freeze()
                    collection.projects[project.path] = self._result(project, root, brought)
                    if on_result is not None:
                        on_result(collection.projects[project.path])
                    if progress is not None:
                        progress("collect", count, len(walked.projects))
            finally:
                self._fresh.clear()  # later calls must look at the files again
            collection.walk_problems.extend(walked.problems)
            collection.directories += walked.directories
            collection.files += walked.files
            collection.skipped += walked.skipped
            if self.watching is not None:  # (what watch_listed looks at again)
                collection.listed += walked.listed
                collection.artifacts += [path for project in walked.projects for path, _kind in project.artifacts]
        self._retry_unsettled(collection, wait_for_writers)
        return collection

    def _walk(self, root: str, progress: Callable[[str, int, int | None], None] | None) -> tuple[WalkResult, Brought]:
        """Walk a root. Its top levels are visited here until they hold enough directories
        (discovery.start_split); those are shared out between processes, each walking its share,
        parsing its reports and collecting the projects that lie wholly in it (threads would
        not help: all need the GIL); those projects come back too. `collect` forks `processes`
        workers for one scan; a live session lends `pool`, workers started before its threads
        ran or spawned beside them (start_pool). With neither (forking beside threads is unsafe)
        one walk does it all."""
        allowed = self.allowed(root)
        keep_listed = self.watching is not None
        pool = self.pool
        if pool is None and threading.active_count() > 1:
            walked = None if progress is None else (lambda n: progress("walk", n, None))
            return find_projects([root], self.excluded, walked, allowed, keep_listed), {}
        walker, stack = start_split(root, self.excluded, allowed, keep_listed, self.processes * SHARES_PER_PROCESS)
        if pool is not None and len(stack) > 1:
            try:
                brought = self._share_out(pool, walker, stack, root, allowed)
            except (BrokenProcessPool, OSError, ValueError):  # a worker died or could not start: walk here
                self.pool = None
                return self._walk(root, progress)
        elif self.processes > 1 and len(stack) > 1:
            with ProcessPoolExecutor(max_workers=self.processes, initializer=worker_start) as forked:
                brought = self._share_out(forked, walker, stack, root, allowed)
        else:
            brought = self._share_out(None, walker, stack, root, allowed)
        if progress is not None:
            progress("walk", walker.directories, None)
        return finish_walk(walker), brought

    def _share_out(
        self,
        pool: Executor | None,
        walker: _Walker,
        stack: list[ShareEntry],
        root: str,
        allowed: tuple[str, ...] | None,
    ) -> Brought:
        """Walk what the split left in the pool's workers, in SHARES_PER_PROCESS shares per
        process, the largest first as far as can be told, each worker taking the next share
        when it is done with one (here, in one share, without a pool); their nodes are merged
        in a fixed order."""
        settings = self.settings_for(root)
        if pool is None:
            done = [walk_share(stack, root, self.excluded, allowed, settings, walker.keep_listed)]
        else:
            shares = min(len(stack), self.processes * SHARES_PER_PROCESS)
            stack = balance_split(walker, stack, shares)
            keep = walker.keep_listed
            theirs = [
                pool.submit(_walk_share_in_worker, stack[share::shares], root, self.excluded, allowed, settings, keep)
                for share in range(shares)
            ]
            with _collection_paused():
                done = [future.result() for future in theirs]  # merged in a fixed order, whichever ends first
        owners = {node.path: node for node in walker.nodes}  # (the split's own)
        brought: Brought = {}
        for share in done:
            self.parses += share.made
            for result in share.parses:
                self._trust(result)
            self._shelved.update(share.shelved)
            merge_part(walker, share.part, owners)
            brought.update((project.path, (project, result)) for project, result in share.collected)
        return brought

    def _result(self, project: Project, root: str, brought: Brought) -> ProjectResult:
        """A project's result: the one its share brought back, where the share saw the same
        inventory as the whole walk gives (discovery.settled_projects); else collected here."""
        collected = brought.get(project.path)
        if collected is not None and collected[0] == project:
            return collected[1]
        return self.collect_project(project, root)

    def _trust(self, result: tuple[Stamp, Parsed] | Parsed) -> None:
        """Keep a parse made during this scan; the collection that follows need not stat again."""
        parsed = self._remember(result)
        if not isinstance(result, Parsed):
            self._fresh.add(parsed.path)

    def watch_listed(self, collection: Collection, tell: Callable[[list[tuple[str, bool]]], None]) -> int:
        """Watch the directories a scan listed that have no watch yet, in the pool's workers,
        and `tell` what changed between the scan's look and the watch (inotify.watch_listed:
        (path, is directory)) as each task ends; how many directories got no watch. A live
        session calls it once the scan's output is out (why: collectors/live/inotify.py)."""
        watching = self.watching
        if watching is None:
            return 0
        files: dict[str, list[str]] = {}  # (a directory the scan read no file of shares one empty list)
        for path in collection.artifacts:
            files.setdefault(os.path.dirname(path), []).append(path)
        no_files: list[str] = []
        # (a rescan finds most already watched)
        listed = [(directory, files.get(directory, no_files)) for directory in watching.uncovered(collection.listed)]
        size = min(WATCHED_AT_ONCE, -(-len(listed) // (self.processes * SHARES_PER_PROCESS)))
        chunks = [listed[start : start + size] for start in range(0, len(listed), size or 1)]
        unwatched, made = 0, []
        for chunk, late in self._watched_in_chunks(chunks, collection.started_ns):
            watching.learn(placed_by(late, chunk))
            tell(late.changed)
            unwatched += late.unwatched
            made += late.made
        for directory in watching.uncovered(made):
            tell(watching.watch_tree(directory))  # (made while the scan looked elsewhere)
        return unwatched

    def _watched_in_chunks(self, chunks: list[Listed], since_ns: int) -> Iterator[tuple[Listed, LateWatches]]:
        """Each chunk watched by the next free worker (here, without a pool), with what came of
        it, in the order they end."""
        pool, watching = self.pool, self.watching
        assert watching is not None
        left = dict(enumerate(chunks))
        if pool is not None and len(chunks) > 1:
            try:
                theirs = {pool.submit(_watch_listed_in_worker, chunk, since_ns): n for n, chunk in left.items()}
                pending = set(theirs)
                while pending and not watching.closed:  # (a pool stopped meanwhile may never answer)
                    done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                    for future in done:
                        late = future.result()
                        yield left.pop(theirs[future]), late
            except (BrokenProcessPool, OSError, ValueError):  # a worker died or could not start: here
                self.pool = None
            except (CancelledError, RuntimeError):  # (BrokenProcessPool is a RuntimeError too)
                return  # the pool was stopped: the session is ending
        for chunk in left.values():
            if watching.closed:
                return  # the session ended: its descriptor's number may be another file's now
            yield chunk, watch_listed(watching.fd, chunk, since_ns)

    def _retry_unsettled(self, collection: Collection, budget: float) -> None:
        deadline = time.monotonic() + budget
        while time.monotonic() < deadline:
            waiting = [r for r in collection.projects.values() if r.unsettled]
            if not waiting:
                return
            time.sleep(min(SETTLE_SECONDS / 2, max(0.0, deadline - time.monotonic())))
            for result in waiting:
                collection.projects[result.path] = self.recollect(result.path, result.root)


@contextmanager
def _collection_paused() -> Iterator[None]:
    """No garbage collection while the shares come back: they bring thousands of objects (with
    no reference cycles: refcounting frees them), and each full collection while they arrived
    walked them all again (2.4 s of the main process's 3.1 s on 20,000 projects). Then one
    collection of what was made meanwhile (other threads' garbage: 8,800 objects of the
    dashboard's start), and they are frozen: they live as long as the scan's results."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
    gc.collect(0)  # (all of it is young: no collection ran)
    gc.freeze()


def usable_cores() -> int:
    """The cores this process may run on (a container or `taskset` may allow fewer than exist)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def prepare_spawning() -> None:
    """Start multiprocessing's resource tracker now, while standard error is the real one: an
    interface that captures it (Textual's fileno() is -1) makes every later first spawn fail
    with "bad value(s) in fds_to_keep". Call it before such an interface starts."""
    try:
        resource_tracker.ensure_running()
    except (OSError, ValueError):
        pass  # no processes to be had here: the callers walk or check in this process instead


def start_pool(processes: int, nice: int = 0, watching: Inotify | None = None) -> ProcessPoolExecutor | None:
    """Worker processes started now, so that they are ready when the work comes. Forked while
    this process runs a single thread (ready at once: nothing to import), spawned beside other
    threads (the interface's), where forking is unsafe (their imports paid now, not in the work).
    `nice`: background work that yields the machine to the interface; `watching`: the inotify
    whose descriptor their walks place watches through. None where processes cannot be had."""
    method = "fork" if threading.active_count() == 1 and os.name == "posix" else "spawn"
    shared = None if watching is None else SharedDescriptor(watching.fd)
    try:
        pool = ProcessPoolExecutor(
            max_workers=processes,
            mp_context=multiprocessing.get_context(method),
            initializer=worker_start,
            initargs=(nice, shared),
        )
        for _worker in range(processes):
            pool.submit(os.getpid)  # started now (a forked pool starts every worker at its first task)
    except (OSError, ValueError, ImportError, NotImplementedError):
        return None
    return pool


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now. shutdown() alone lets a running task finish, and the interpreter waits
    for it at exit: quitting during a scan (or a long schema check) would hang until it ends."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # (no public way to end one)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()


def worker_start(nice: int = 0, watching: SharedDescriptor | None = None) -> None:
    """In each worker process: Ctrl-C reaches it too, and it ends at once, without a traceback
    (the parent reports); and it ends with its parent. A parent killed outright (kill -9) cannot
    stop its pool, and a worker holds the other end of its own task queue: it would wait forever.
    `nice`: a background worker yields the machine to the interface; `watching`: the descriptor
    its walks place inotify watches through."""
    adopt(watching)
    signal.signal(signal.SIGINT, lambda _signal, _frame: os._exit(130))
    if nice:
        os.nice(nice)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="vitis-tui-parent-watch", daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns once the parent process is gone
    os._exit(0)


def _walk_share_in_worker(
    entries: list[ShareEntry],
    root: str,
    excluded: list[str],
    allowed: tuple[str, ...] | None,
    settings: Settings,
    keep_listed: bool,
) -> Share:
    """A worker's share (it travels back pickled)."""
    return walk_share(entries, root, excluded, allowed, settings, keep_listed, shelve=True)


def _watch_listed_in_worker(listed: Listed, since_ns: int) -> LateWatches:
    """Watch through the descriptor the worker was given (start_pool)."""
    fd = worker_descriptor()
    if fd is None:
        raise ValueError("this worker was given no inotify descriptor")
    return watch_listed(fd, listed, since_ns)
