"""The collection engine: scan roots, (re)collect projects, reuse parses of unchanged files.

The walk itself, shared out between worker processes, is `collectors/collect/walk.py`; the
workers are `collectors/collect/pool.py`; one project's parsing and collection is
`collectors/collect/results.py`.
"""

from __future__ import annotations

import os
import pickle
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.config import Settings
from collectors.collect.discovery import project_inventory
from collectors.collect.projects import Project
from collectors.collect.results import (
    SETTLE_SECONDS,
    Parse,
    ProjectResult,
    Stamp,
    Stat,
    Stats,
    collect_parsed,
    parse_file,
    stamp_of,
    stat_of,
)
from collectors.collect.walk import Brought, Walked, WalkSpec, walk_tree
from collectors.files import change_clock_ns, describe_os_error
from collectors.interpreter import keep_for_good
from collectors.problems import Problem
from collectors.records.store import Output

__all__ = ["Collection", "Engine", "ProjectResult", "Stamp", "stamp_of"]

FREEZE_EVERY = 1000  # projects collected between two keep_for_good() calls during a scan

Progress = Callable[[str, int, int | None], None]


@dataclass
class Collection:
    """Everything one scan found: per-project results and the problems of the walk itself."""

    projects: dict[str, ProjectResult] = field(default_factory=dict)
    walk_problems: list[Problem] = field(default_factory=list)
    directories: int = 0
    files: int = 0
    skipped: int = 0  # build-output folders the walks pruned for discovery
    # what a live stage needs to watch the tree, where the scan was asked for it (`listing`):
    # when the scan began (files.change_clock_ns()), the directories its walks listed and the
    # artifacts they found
    started_ns: int = 0
    listed: list[str] = field(default_factory=list)
    artifacts: list[str] = field(default_factory=list)

    def output(self, path: str, ext_path: str) -> Output:
        """The files this collection writes (nothing is written yet)."""
        output = Output(path, ext_path)
        results = sorted(self.projects.items())
        # (a worker's result brings its keys and no records: results.without_records)
        output.records.fill((project, () if r.keys else r.records, r.lines, r.keys) for project, r in results)
        extended = [(project, r) for project, r in results if r.extension_records]  # (few projects)
        output.extensions.fill((project, r.extension_records, r.extension_lines, ()) for project, r in extended)
        return output

    def problems(self) -> list[Problem]:
        found = list(self.walk_problems)
        for path in sorted(self.projects):
            found.extend(self.projects[path].problems)
        # (a project collected again alone, as one still being written is, reports its walk's
        # problems too: a link out of the roots is said once)
        return list(dict.fromkeys(found))


@dataclass(frozen=True)
class _CacheEntry:
    stamp: Stamp
    parsed: Parsed


@dataclass(frozen=True)
class _Known:
    """A project's last result, and what it came from: while its inventory, the status of each
    of its artifacts, its root and its settings stay the same, so does the result (collecting
    is a pure function of them; the time only decides what is unsettled, never reused)."""

    project: Project
    stats: Stats
    root: str
    settings: Settings
    result: ProjectResult

    def holds(self, project: Project, stats: Stats, root: str, settings: Settings) -> bool:
        return self.project == project and self.stats == stats and self.reusable(root, settings)

    def reusable(self, root: str, settings: Settings) -> bool:
        """Whether the result may stand for an unchanged inventory under this root and settings."""
        return None not in self.stats and not self.result.unsettled and self.root == root and self.settings == settings


class Engine:
    """Holds the parse cache; `settings_for(root)` gives the configuration of a watched root.

    `processes`: how many worker processes share a scan's walk and parsing; 1, the walk stays
    in this process. More are forked for each scan, unless a `pool` of that many is lent (a
    live session's, started before its threads: forking beside threads is unsafe, so whoever
    runs threads lends a pool or keeps to one process). `cache`: keep what a scan parsed, for
    the projects collected again later (a live session); `collect` scans once and needs none.
    `accounts`: what became of each report file is kept (`collect --explain`, the run detail);
    without a cache, only then."""

    def __init__(
        self,
        settings_for: Callable[[str], Settings],
        excluded: Iterable[str] = (),
        processes: int = 1,
        cache: bool = True,
        accounts: bool = True,
    ) -> None:
        self.settings_for = settings_for
        self.excluded = [os.path.abspath(p) for p in excluded]
        self._cache: dict[str, _CacheEntry] = {}
        self._fresh: set[str] = set()  # parsed by the prefetch of the scan under way
        # the last scan's parses of the projects its workers collected, pickled per project:
        # put in the cache when the project is first collected again (walk.Share)
        self._shelved: dict[str, bytes] = {}
        self._roots: tuple[str, ...] = ()  # the resolved roots of the last scan: links may lead there
        self._known: dict[str, _Known] = {}  # each project's last result (with `cache`)
        self.parses = 0  # how many files were actually read and parsed (for tests and benchmarks)
        self.processes = max(1, processes)
        self.cache = cache
        self.accounts = accounts
        self.pool: Executor | None = None  # the workers a live session lends for its scans

    def parse(self, path: str, kind: str) -> Parsed:
        """Parse one artifact, or return the cached result when its stamp is unchanged."""
        return self._parse_stat(path, kind)[0]

    def _parse_stat(self, path: str, kind: str) -> tuple[Parsed, Stat]:
        """An artifact's parse (Engine.parse) and its stamp."""
        fresh = self._cache[path] if path in self._fresh else None
        if fresh is not None:
            return fresh.parsed, fresh.stamp  # stat'ed and parsed moments ago, in this scan
        try:
            stat = os.stat(path)
        except OSError as exc:
            self._cache.pop(path, None)
            return Parsed(path, kind, 0, None, describe_os_error(exc)), None
        cached = self._cache.get(path)
        if cached is not None and cached.stamp == stamp_of(stat):
            return cached.parsed, cached.stamp
        self.parses += 1
        result = parse_file(path, kind, stat)
        return self._remember(result), stat_of(result)

    def _remember(self, result: Parse) -> Parsed:
        if isinstance(result, Parsed):
            self._cache.pop(result.path, None)
            return result
        stamp, parsed = result
        self._cache[parsed.path] = _CacheEntry(stamp, parsed)
        return parsed

    def collect_project(self, project: Project, root: str) -> ProjectResult:
        """A project's result: its last one where nothing it came from changed (_Known)."""
        settings = self.settings_for(root)
        pairs = [self._parse_stat(path, kind) for path, kind in project.artifacts]
        stats = tuple(stat for _parsed, stat in pairs)
        known = self._known.get(project.path)
        if known is not None and known.holds(project, stats, root, settings):
            return known.result
        result = collect_parsed(project, root, settings, [parsed for parsed, _stat in pairs], self.accounts)
        if self.cache:
            self._known[project.path] = _Known(project, stats, root, settings, result)
        return result

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
        inventory = project_inventory(project_path, self.excluded, self.allowed(root), root)
        live = {path for path, _kind in inventory.artifacts}
        for path in [p for p in self._cache if p.startswith(project_path + os.sep) and p not in live]:
            del self._cache[path]
        return self.collect_project(inventory, root)

    def scan(
        self,
        roots: Iterable[str],
        progress: Progress | None = None,
        wait_for_writers: float = 5.0,
        on_result: Callable[[ProjectResult], None] | None = None,
        listing: bool = False,
    ) -> Collection:
        """Walk every root and collect every project. Files still being written are retried.
        `listing`: the collection names what a live stage watches (Collection.listed)."""
        roots = [os.path.abspath(r) for r in roots]
        self._roots = tuple(os.path.realpath(r) for r in roots)
        collection = Collection(started_ns=change_clock_ns())
        for root in roots:
            walked = self._walk(root, progress, listing)
            try:
                self._collect_walked(collection, walked, root, progress, on_result)
            finally:
                self._fresh.clear()  # later calls must look at the files again
            found = walked.result
            collection.walk_problems.extend(found.problems)
            collection.directories += found.directories
            collection.files += found.files
            collection.skipped += found.skipped
            if listing:  # (what a live stage looks at again once it watches)
                collection.listed += found.listed
                collection.artifacts += [path for project in found.projects for path, _kind in project.artifacts]
        self._retry_unsettled(collection, wait_for_writers)
        # (what the last scan shelved stays for the projects it found unchanged)
        self._shelved = {path: data for path, data in self._shelved.items() if path in collection.projects}
        self._known = {path: known for path, known in self._known.items() if path in collection.projects}
        return collection

    def _collect_walked(
        self,
        collection: Collection,
        walked: Walked,
        root: str,
        progress: Progress | None,
        on_result: Callable[[ProjectResult], None] | None,
    ) -> None:
        projects = walked.result.projects
        for count, project in enumerate(projects, 1):
            if count % FREEZE_EVERY == 0:
                # what the scan keeps lives as long as the collection: each full garbage
                # collection would walk it all again (1.4 s of 9 on 20,000 projects). It
                # holds no reference cycles: refcounting frees it when it is let go.
                keep_for_good()
            collection.projects[project.path] = self._result(project, root, walked.brought, walked.stats)
            if on_result is not None:
                on_result(collection.projects[project.path])
            if progress is not None:
                progress("collect", count, len(projects))

    def _walk(self, root: str, progress: Progress | None, listing: bool) -> Walked:
        """Walk a root (walk.walk_tree) in the lent pool, in `processes` forked for it, or here;
        keep what the shares parsed. A lent pool whose worker died is given up on: walked here."""
        settings = self.settings_for(root)
        known = {path: k.stats for path, k in self._known.items() if k.reusable(root, settings)}
        files = {path: entry.stamp for path, entry in self._cache.items()} if self.cache else {}
        spec = WalkSpec(self.excluded, self.allowed(root), settings, listing, self.cache, self.accounts, known, files)
        try:
            walked = walk_tree(root, spec, self.processes, self.pool, progress)
        except (BrokenProcessPool, OSError, ValueError):
            if self.pool is None:
                raise
            self.pool, self.processes = None, 1  # (a worker died or could not start)
            return self._walk(root, progress, listing)
        self.parses += walked.made
        for result in walked.parses:
            self._trust(result)
        self._shelved.update(walked.shelved)
        return walked

    def _result(
        self, project: Project, root: str, brought: Brought, stats: dict[str, Stats] | None = None
    ) -> ProjectResult:
        """A project's result: the one its share brought back, where the share saw the same
        inventory as the whole walk gives (projects.fold_settled), or the last one where
        the share found its artifacts as they were; else collected here."""
        collected = brought.get(project.path)
        # (the whole walk's project is most often the very object the share sent: compared by identity first)
        if collected is None or (collected[0] is not project and collected[0] != project):
            return self.collect_project(project, root)
        result = collected[1]
        known = self._known.get(project.path)
        if result is None:  # (the share found every artifact as the engine knew it)
            return (
                known.result if known is not None and known.project == project else self.collect_project(project, root)
            )
        if self.cache and stats is not None and project.path in stats:
            self._known[project.path] = _Known(project, stats[project.path], root, self.settings_for(root), result)
        return result

    def _trust(self, result: Parse) -> None:
        """Keep a parse made during this scan; the collection that follows need not stat again."""
        parsed = self._remember(result)
        if not isinstance(result, Parsed):
            self._fresh.add(parsed.path)

    def _retry_unsettled(self, collection: Collection, budget: float) -> None:
        deadline = time.monotonic() + budget
        while time.monotonic() < deadline:
            waiting = [r for r in collection.projects.values() if r.unsettled]
            if not waiting:
                return
            time.sleep(min(SETTLE_SECONDS / 2, max(0.0, deadline - time.monotonic())))
            for result in waiting:
                collection.projects[result.path] = self.recollect(result.path, result.root)
