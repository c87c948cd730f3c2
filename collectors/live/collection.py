"""The collection a live session keeps: the results of every project, the output, and what the
last scan found (its walk's problems, the directories it listed and could not read).

It changes from one thread at a time (the session's thread during the initial scan, then the
watcher's), so the engine's cache needs no lock; other threads only look a project up
(`project_for`, `results.get`: single dict reads).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from collectors.collect.artifacts.hls_log_names import is_folder_session_log, started_in
from collectors.collect.config import Settings
from collectors.collect.engine import Collection, Engine, ProjectResult
from collectors.collect.results import Stamp, stamp
from collectors.live.events import ProjectChange, Totals
from collectors.live.inotify import Inotify
from collectors.live.looks import replaced, unreadable_directories
from collectors.live.placement import watch_scanned
from collectors.problems import Problem
from collectors.records.store import Output, extension_path


@dataclass
class _Counts:
    runs: int = 0
    problems: int = 0

    def add(self, result: ProjectResult | None, sign: int) -> None:
        if result is not None:
            self.runs += sign * len(result.runs)
            self.problems += sign * len(result.problems)


class LiveCollection:
    def __init__(self, roots: Iterable[str], output: str, settings_for: Callable[[str], Settings]) -> None:
        self.roots = [os.path.abspath(r) for r in roots]
        self.output_path = os.path.abspath(output)
        self.ext_output = extension_path(self.output_path)
        self.engine = Engine(settings_for, excluded=[self.output_path, self.ext_output])
        self.output = Output(self.output_path, self.ext_output)
        self.results: dict[str, ProjectResult] = {}
        self.walk_problems: list[Problem] = []
        self.failures: dict[str, Problem] = {}  # projects whose re-collection raised
        self.directories = 0
        self.unwatched = 0  # directories the last scan could not watch (inotify's watches ran out)
        self._unwatched_scan: Collection | None = None  # the last scan, until watch_scanned
        self.last_write: float | None = None
        self.written: dict[str, Stamp | None] = {}  # each output file, as last written (or found intact)
        self.unreadable: list[str] = []  # directories the last scan could not list
        self.write_error: str | None = None
        self._counts = _Counts()
        # the session's inotify, while it watches that way: each scan keeps what it lists, and
        # its directories are watched once the output is out (watch_scanned)
        self.watching: Inotify | None = None

    def project_for(self, path: str) -> str | None:
        """The known project a changed path belongs to (the deepest one containing it). None (a
        rescan) for the session log of a folder that known projects lie right in: it is theirs
        too (projects.with_session_logs_above), and one project's re-collection would leave
        theirs as they were."""
        if is_folder_session_log(path):
            folder = started_in(path)
            if any(os.path.dirname(project) == folder for project in self.results):
                return None
        probe = path
        while True:
            if probe in self.results:
                return probe
            parent = os.path.dirname(probe)
            if parent == probe or not any(parent.startswith(r) for r in self.roots):
                return None
            probe = parent

    def root_of(self, path: str) -> str:
        return max((r for r in self.roots if path == r or path.startswith(r + os.sep)), key=len, default=self.roots[0])

    def scan(self, progress: Callable[[str, int, int | None], None] | None = None) -> list[ProjectChange]:
        """A full walk (the initial scan and every rescan); unchanged files are not re-read.
        Each project's change is applied as soon as it is known; they are all returned."""
        changes: list[ProjectChange] = []

        def found(result: ProjectResult) -> None:
            self.failures.pop(result.path, None)
            change = self._apply(result.path, result)
            if change is not None:
                changes.append(change)

        # a root that is gone (renamed away, being rebuilt) keeps its last records until it is back
        present = [root for root in self.roots if os.path.isdir(root)]
        self._watch_first(present)
        collection = self.engine.scan(
            present, progress=progress, wait_for_writers=0, on_result=found, listing=self.watching is not None
        )
        self._unwatched_scan = collection
        scanned = [path for path in self.results if any(_below(path, root) for root in present)]
        for path in set(scanned) - set(collection.projects):
            self.failures.pop(path, None)
            gone = self._apply(path, None)
            if gone is not None:
                changes.append(gone)
        self.walk_problems = collection.walk_problems
        self.unreadable = unreadable_directories(collection.walk_problems)
        self.directories = collection.directories
        return changes

    def watch_scanned(self, tell: Callable[[list[tuple[str, bool]]], None]) -> None:
        """Watch what the last scan listed (placement.watch_scanned); `tell` hears what changed
        unseen meanwhile (path, is directory), to be looked at again."""
        collection, self._unwatched_scan = self._unwatched_scan, None
        if collection is not None and self.watching is not None:  # (beside the roots': _watch_first)
            self.unwatched += watch_scanned(self.engine, self.watching, collection, tell)

    def _watch_first(self, roots: list[str]) -> None:
        """Watched before a scan begins: the roots (the watcher takes a root without a watch
        for one deleted and made again) and the folders the output is written to, where a scan
        walks (else the output's own writing, a new entry there, would look like a change made
        during the scan; the events of the output's files are ignored)."""
        watching = self.watching
        outputs = {os.path.dirname(self.output_path), os.path.dirname(self.ext_output)}
        folders = [*roots, *(f for f in outputs if any(_below(f, root) for root in roots))]
        if watching is not None:
            self.unwatched = sum(not watching.watch_directory(folder) for folder in folders)

    def refresh(self, projects: Iterable[str]) -> list[ProjectChange]:
        """Re-collect the given projects alone; a project directory that is gone is removed.
        A project whose re-collection fails costs only itself: it keeps its last result and
        the failure is reported."""
        changes = []
        for path in sorted(projects):
            try:
                result = self.engine.recollect(path, self.root_of(path)) if os.path.isdir(path) else None
                self.failures.pop(path, None)
            except Exception as exc:  # a bug on strange input: this project only
                self.failures[path] = Problem(path, f"re-collection failed: {exc!r}")
                continue
            # what the scan's walk found wrong below the project, its own walk says now (or no more)
            self.walk_problems = [p for p in self.walk_problems if not _below(p.path, path)]
            change = self._apply(path, result)
            if change is not None:
                changes.append(change)
        return changes

    def _apply(self, path: str, result: ProjectResult | None) -> ProjectChange | None:
        old = self.results.get(path)
        if result is not None and result is old:
            return None  # the engine found nothing it came from changed (a rescan's common case)
        if result is None:
            if old is None:
                return None
            del self.results[path]
            records, extensions = self.output.remove(path)
        else:
            self.results[path] = result
            records, extensions = self.output.apply(
                path, result.records, result.extension_records, result.lines, result.extension_lines
            )
            if old is not None and not records and not extensions and _shown(old) == _shown(result):
                return None
        self._counts.add(old, -1)
        self._counts.add(result, +1)
        return ProjectChange(path, result, records, extensions)

    def replaced(self) -> list[str]:
        """The output files removed or replaced since written (by another program, or a user)."""
        return replaced((self.output_path, self.ext_output), self.written)

    def write(self) -> bool:
        """Write both files where their bytes changed, or where they are no longer as written;
        a failure is kept in `write_error`."""
        if self.replaced():
            self.output.file.written = self.output.ext_file.written = None  # (written whole again)
            self.last_write = None  # (until written again: the status claims no write)
        try:
            wrote = self.output.write()
        except OSError as exc:
            self.write_error = f"{exc.filename or self.output_path}: cannot write: {exc.strerror or exc}"
            return False
        self.write_error = None
        self.written = {path: stamp(path) for path in (self.output_path, self.ext_output)}
        if wrote:
            self.last_write = time.time()
        return wrote

    def general_problems(self) -> tuple[Problem, ...]:
        return (*self.walk_problems, *self.output.clashes(), *self.failures.values())

    def totals(self) -> Totals:
        general = self.general_problems()
        return Totals(
            projects=len(self.results),
            runs=self._counts.runs,
            records=len(self.output.records),
            extension_records=len(self.output.extensions),
            problems=self._counts.problems + len(general),
            output_written=self.last_write,
            write_error=self.write_error,
            general_problems=general,
        )


def _below(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _shown(result: ProjectResult) -> tuple[Any, ...]:
    """What the screen shows of a project beyond its records: runs' facts and problems."""
    return (
        [(r.target, r.device, r.variant, r.vitis_version, r.runtime_seconds, r.sources, r.notes) for r in result.runs],
        result.problems,
    )
