"""A collection kept current: re-collect touched projects, keep the JSONL equal to `collect`'s.

Used by the dashboard and the watch benchmark; it never imports Textual. All calls must come
from one thread (the watcher's worker), so the engine's cache needs no lock.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .config import Settings
from .engine import Collection, Engine, ProjectResult
from .extensions import extension_key
from .problems import Problem
from .records.store import extension_path, render, write_atomic


@dataclass
class Change:
    """What one update did: projects whose results changed or vanished, and the write."""

    changed: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)
    written: bool = False
    unsettled: set[str] = field(default_factory=set)  # projects with files still being written
    error: str | None = None  # the output could not be written


class LiveCollection:
    def __init__(self, roots: Iterable[str], output: str, settings_for: Callable[[str], Settings]) -> None:
        self.roots = [os.path.abspath(r) for r in roots]
        self.output = os.path.abspath(output)
        self.ext_output = extension_path(self.output)
        self.engine = Engine(settings_for, excluded=[self.output, self.ext_output])
        self.collection = Collection()
        self.last_write: float | None = None
        self._written: dict[str, bytes] = {}
        self._version = 0  # bumped on every change to the collection
        self._records_of: Collection | None = None
        self._records_version = -1
        self._records: tuple[list[dict[str, Any]], list[Problem]] = ([], [])

    # --- reading ----------------------------------------------------------------------------

    @property
    def projects(self) -> dict[str, ProjectResult]:
        return self.collection.projects

    def records(self) -> list[dict[str, Any]]:
        return self._sorted()[0]

    def problems(self) -> list[Problem]:
        return self.collection.problems() + self._sorted()[1]

    def _sorted(self) -> tuple[list[dict[str, Any]], list[Problem]]:
        """The collection's records and key clashes, sorted once per change (output, counts and
        problems all ask for them)."""
        if self._records_of is not self.collection or self._records_version != self._version:
            self._records = self.collection.records()
            self._records_of, self._records_version = self.collection, self._version
        return self._records

    def project_for(self, path: str) -> str | None:
        """The known project a changed path belongs to (the deepest one containing it)."""
        probe = path
        while True:
            if probe in self.collection.projects:
                return probe
            parent = os.path.dirname(probe)
            if parent == probe or not any(parent.startswith(r) for r in self.roots):
                return None
            probe = parent

    def root_of(self, path: str) -> str:
        return max((r for r in self.roots if path == r or path.startswith(r + os.sep)), key=len, default=self.roots[0])

    # --- updating ---------------------------------------------------------------------------

    def scan(
        self,
        progress: Callable[[str, int, int | None], None] | None = None,
        on_result: Callable[[ProjectResult], None] | None = None,
    ) -> Change:
        """A full walk (the initial scan, and the periodic reconciliation); unchanged files are not re-read."""
        before = self.collection.projects
        fresh = self.engine.scan(self.roots, progress=progress, wait_for_writers=0, on_result=on_result)
        change = Change(removed=set(before) - set(fresh.projects))
        for path, result in fresh.projects.items():
            old = before.get(path)
            if old is None or _fingerprint(old) != _fingerprint(result):
                change.changed.add(path)
            if result.unsettled:
                change.unsettled.add(path)
        self.collection = fresh
        return self._write(change)

    def refresh(self, projects: Iterable[str]) -> Change:
        """Re-collect the given projects alone; a project directory that is gone is removed."""
        change = Change()
        for path in projects:
            old = self.collection.projects.get(path)
            if not os.path.isdir(path):
                if old is not None:
                    del self.collection.projects[path]
                    change.removed.add(path)
                continue
            result = self.engine.recollect(path, self.root_of(path))
            self.collection.projects[path] = result
            if old is None or _fingerprint(old) != _fingerprint(result):
                change.changed.add(path)
            if result.unsettled:
                change.unsettled.add(path)
        return self._write(change)

    def _write(self, change: Change) -> Change:
        """Both files are kept equal to what `collect` writes; each only when its bytes change."""
        self._version += 1  # scan and refresh both end here: the sorted records are stale now
        outputs = [(self.output, render(self.records()))]
        extension = self.collection.extension_records()
        if extension or self._written.get(self.ext_output) is not None or os.path.exists(self.ext_output):
            outputs.append((self.ext_output, render(extension, key=extension_key)))
        for path, data in outputs:
            if data == self._written.get(path):
                continue
            try:
                write_atomic(path, data)
            except OSError as exc:
                change.error = f"{path}: cannot write: {exc.strerror or exc}"
                return change
            self._written[path] = data
            self.last_write = time.time()
            change.written = True
        return change


def _fingerprint(result: ProjectResult) -> tuple:
    """What the screen shows of a project: its runs, records and problems."""
    return (
        [(r.target, r.device, r.vitis_version, r.runtime_seconds, r.records) for r in result.runs],
        result.problems,
        result.extension_records,
    )


# --- the headless session: initial scan, then watching --------------------------------------


@dataclass(frozen=True)
class Progress:
    phase: str  # "walk" or "collect"
    count: int
    total: int | None


@dataclass(frozen=True)
class Updated:
    """Projects whose results changed (new objects, safe to keep) and projects that went away."""

    results: dict[str, ProjectResult]
    removed: frozenset[str]
    problems: tuple[Problem, ...]
    records: int
    output_written: float | None
    initial: bool = False
    error: str | None = None
    partial: bool = False  # projects found so far during the initial scan; nothing written yet


@dataclass(frozen=True)
class Watching:
    mode: Any  # collectors.watch.WatchMode


class LiveSession:
    """The dashboard's engine room, without the dashboard: scan, watch, re-collect, write.

    `notify` receives Progress, Updated and Watching events on the session's threads; the
    app turns them into messages (`post_message`), the benchmark just records them.
    """

    def __init__(
        self,
        roots: Iterable[str],
        output: str,
        settings_for: Callable[[str], Settings],
        notify: Callable[[object], None],
        poll: float | None = None,
        rescan_every: float = 300.0,
        debounce: float = 0.3,
    ) -> None:
        self.live = LiveCollection(roots, output, settings_for)
        self.notify = notify
        self.poll = poll
        self.rescan_every = rescan_every
        self.debounce = debounce
        self.watcher: Watcher | None = None

    def run(self) -> None:
        """Initial scan then start watching; call it on a worker thread."""
        from .watch import Watcher, choose_mode

        found: list[ProjectResult] = []
        last = [time.monotonic()]

        def on_result(result: ProjectResult) -> None:
            # the tables fill while the scan goes on, a batch every quarter second
            found.append(result)
            if time.monotonic() - last[0] >= PARTIAL_EVERY:
                self.notify(Updated({r.path: r for r in found}, frozenset(), (), 0, None, initial=True, partial=True))
                found.clear()
                last[0] = time.monotonic()

        change = self.live.scan(
            progress=lambda phase, n, total: self.notify(Progress(phase, n, total)), on_result=on_result
        )
        self._publish(change, initial=True)
        mode = choose_mode(self.live.roots, self.poll, directories=self.live.collection.directories)
        self.watcher = Watcher(
            self.live.roots,
            mode,
            self.live.project_for,
            self._batch,
            ignore=self._ignore,
            debounce=self.debounce,
            rescan_every=self.rescan_every,
        )
        self.notify(Watching(self.watcher.start()))
        for project in change.unsettled:
            self.watcher.recheck(project, SETTLE_RETRY)

    def rescan(self) -> None:
        if self.watcher is not None:
            self.watcher.rescan_now()

    def stop(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()

    def _ignore(self, path: str) -> bool:
        """The output file, its temporary siblings and the tool's state are never watched."""
        name = os.path.basename(path)
        return (
            path in (self.live.output, self.live.ext_output) or name.startswith(".vitis-tui") or "/.vitis-tui/" in path
        )

    def _batch(self, projects: set[str], rescan: bool) -> None:
        change = self.live.scan() if rescan else self.live.refresh(projects)
        for project in change.unsettled:
            self.watcher.recheck(project, SETTLE_RETRY)
        if change.changed or change.removed or change.error or rescan:
            self._publish(change)

    def _publish(self, change: Change, initial: bool = False) -> None:
        projects = self.live.projects
        self.notify(
            Updated(
                results={p: projects[p] for p in change.changed if p in projects},
                removed=frozenset(change.removed),
                problems=tuple(self.live.problems()),
                records=len(self.live.records()),
                output_written=self.live.last_write,
                initial=initial,
                error=change.error,
            )
        )


PARTIAL_EVERY = 0.25  # seconds between batches of projects shown during the initial scan
SETTLE_RETRY = 0.5  # seconds before a file that was still being written is looked at again
