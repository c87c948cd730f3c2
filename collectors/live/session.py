"""A collection kept current: re-collect touched projects, keep the JSONL equal to `collect`'s.

The session (the watcher's client) posts small typed events (collectors.live.events) to
whoever listens: the dashboard turns them into Textual messages, the watch benchmark just
records them. Every event that changes records carries a delta, so a listener patches what
changed and never rebuilds. It never imports Textual. What it keeps: collectors.live.collection.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor

from collectors.collect.config import Settings
from collectors.collect.discovery import STATE_DIR
from collectors.collect.engine import ProjectResult
from collectors.collect.pool import prepare_spawning, stop_pool
from collectors.interpreter import usable_cores
from collectors.live.collection import LiveCollection
from collectors.live.events import (
    Mailbox,
    ProjectChange,
    ProjectsChanged,
    ScanFinished,
    ScanProgress,
    SessionFailed,
    Totals,
    WatchState,
)
from collectors.live.looks import ConfigWatch, listable
from collectors.live.modes import choose_mode
from collectors.live.placement import start_workers
from collectors.live.watcher import Watcher
from collectors.records.store import TEMPORARY_PREFIX

__all__ = [  # (the events are told from here: where listeners have always found them)
    "LiveCollection",
    "LiveSession",
    "ProjectChange",
    "ProjectsChanged",
    "ScanFinished",
    "ScanProgress",
    "SessionFailed",
    "Totals",
    "WatchState",
]

PARTIAL_EVERY = 0.5  # seconds between progress reports during a scan
TOLD_AT_ONCE = 500  # projects in one ProjectsChanged at most
SETTLE_RETRY = 0.5  # seconds before a file that was still being written is looked at again
WRITE_RETRY = 2.0  # seconds between tries to write an output that could not be written


# --- the headless session: watching, initial scan, updates ---------------------------------------


class LiveSession:
    """The dashboard's engine room, without the dashboard: watch, scan, re-collect, write.

    Each scan's walk keeps the directories it lists; once its output is out, they are watched
    and what changed since the scan began is looked at again (LiveCollection.watch_scanned;
    elsewhere than on Linux, and when polling, watching starts before the scan); what changes
    meanwhile is held and re-collected once the initial scan is written, so no change made
    during start-up is lost. `notify` receives the events above on the session's threads.
    """

    def __init__(
        self,
        roots: Iterable[str],
        output: str,
        settings_for: Callable[[str], Settings],
        notify: Callable[[object], None] | None = None,
        poll: float | None = None,
        rescan_every: float = 300.0,
        debounce: float = 0.1,
        config: ConfigWatch | None = None,
    ) -> None:
        """`config`: the configuration files are watched, and the records mapped again when
        they change (its settings are used then, not `settings_for`)."""
        self.config = config
        self.live = LiveCollection(roots, output, config.settings_for if config is not None else settings_for)
        prepare_spawning()  # before an interface captures standard error
        self._mailbox = Mailbox()
        self.notify = self._mailbox.tell
        if notify is not None:
            self.listen(notify)
        self._thread: threading.Thread | None = None
        self.poll = poll
        self.rescan_every = rescan_every
        self.debounce = debounce
        self.watcher = self._watcher()
        self.live.watching = self.watcher.watching
        processes = usable_cores()
        if processes > 1:  # (one core: the walk stays in this process)
            # started with the session, given the inotify descriptor: forked, ready at once, where
            # it is made before an interface starts its threads (`watch`); otherwise spawned.
            # Without them, the scans walk in this process (never forked beside threads).
            pool = start_workers(processes, self.live.watching)
            if pool is not None:
                self.live.engine.pool, self.live.engine.processes = pool, processes

    @property
    def results(self) -> dict[str, ProjectResult]:
        """The current result of every project (read-only for listeners: details on demand)."""
        return self.live.results

    def _watcher(self) -> Watcher:
        """inotify's watches are placed after each scan, on what it listed (watch_scanned);
        watchdog's observer (elsewhere) places its own first, the poller looks first."""
        return Watcher(
            self.live.roots,
            choose_mode(self.live.roots, self.poll),
            self,
            debounce=self.debounce,
            rescan_every=self.rescan_every,
            placed_by_scan=True,
        )

    def listen(self, listener: Callable[[object], None]) -> None:
        """Where the events go: those told before (the session may start before its listener
        is ready) first, in order."""
        self._mailbox.attach(listener)

    def start(self) -> None:
        """Run on a thread of its own (once); an end by an exception is told, as SessionFailed
        with alive False."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run_told, name="vitis-tui-session", daemon=True)
            self._thread.start()

    def _run_told(self) -> None:
        try:
            self.run()
        except Exception as exc:
            self.notify(SessionFailed(f"collection stopped: {exc!r}", alive=False))

    def run(self) -> None:
        """Start watching, scan, write, then hand over to the watcher (on the caller's thread)."""
        self.notify(WatchState(self.watcher.start(hold=True)))
        self._scan(initial=True)
        self._check_capacity()  # (a root that could not be watched: polled from now on)
        self.watcher.release()  # what changed during the scan is re-collected now
        self._watch_scanned()  # (what changed since is told as each worker's part is watched)
        self._check_capacity()

    def _check_capacity(self) -> None:
        self.watcher.check_capacity(self.live.directories, self.live.unwatched)
        self.live.watching = self.watcher.watching  # (none once polling)

    def rescan(self) -> None:
        self.watcher.rescan_now()

    def stop(self) -> None:
        self.watcher.stop()
        engine = self.live.engine
        pool, engine.pool, engine.processes = engine.pool, None, 1
        if isinstance(pool, ProcessPoolExecutor):
            stop_pool(pool)

    def revive(self) -> bool:
        """Restart the watcher's worker if it died; True when it had (the caller says so)."""
        return self.watcher.revive()

    def _scan(self, initial: bool) -> None:
        started = time.monotonic()
        shown = [0.0]

        def progress(phase: str, count: int, total: int | None) -> None:
            if time.monotonic() - shown[0] >= PARTIAL_EVERY or count == total:
                shown[0] = time.monotonic()  # a few a second: each costs the interface a repaint
                self.notify(ScanProgress(phase, count, total))

        # the changes are told once written: a listener's work on them (the dashboard's tables)
        # would take the GIL from the scan's own (about 0.6 ms a project), and the scan is over sooner
        changes = self.live.scan(progress)
        self._write()
        self._tell(changes, initial)
        self._after_write()
        self._retry_unsettled(self.live.results)
        self.notify(ScanFinished(initial, time.monotonic() - started))

    def _watch_scanned(self) -> None:
        """Watch what the scan listed; what changed meanwhile is re-collected."""

        def tell(changed: list[tuple[str, bool]]) -> None:
            for path, is_directory in changed:
                self.watcher.changed(path, is_directory)

        try:
            self.live.watch_scanned(tell)
        except Exception as exc:  # a bug on strange input: unwatched until the next rescan watches
            self.failed(exc)

    def _tell(self, changes: list[ProjectChange], initial: bool) -> None:
        """Tell changes in messages of at most TOLD_AT_ONCE projects: a listener handles each in
        one go (the dashboard's thread, which would not take a keystroke for seconds while it
        put 20,000 projects in its tables)."""
        for start in range(0, len(changes), TOLD_AT_ONCE):
            self.notify(ProjectsChanged(tuple(changes[start : start + TOLD_AT_ONCE]), initial))

    # --- the watcher's client (collectors.live.watcher.WatchClient) ------------------------------

    def project_for(self, path: str) -> str | None:
        return self.live.project_for(path)

    def ignored(self, path: str) -> bool:
        """The output file, its temporary siblings and the tool's state are never watched."""
        return (
            path in (self.live.output_path, self.live.ext_output)
            or os.path.basename(path).startswith(TEMPORARY_PREFIX)
            or f"{os.sep}{STATE_DIR}{os.sep}" in path
        )

    def batch_due(self, projects: set[str], rescan: bool) -> None:
        """Called by the watcher's worker: re-collect, write, tell."""
        if rescan:
            self._scan(initial=False)
            self._watch_scanned()
            return
        changes = self.live.refresh(projects)
        self._write()  # first: what the screen shows is already in the file
        self._tell(changes, initial=False)
        self._after_write()
        # (also those whose result did not change: a file still being written may look the same)
        self._retry_unsettled({p: self.live.results[p] for p in projects if p in self.live.results})

    def _write(self) -> None:
        """Write the output; one removed or replaced behind the session's back is written whole
        again and said, whichever write finds it (a batch's, or the look between batches)."""
        gone = self.live.replaced() if self.live.write_error is None else []
        self.live.write()
        if gone:
            # (whether the write failed is the totals' to say: the note stays on the status bar)
            self.state_changed(f"{' and '.join(gone)} was removed or replaced by another program: writing it again")

    def _after_write(self) -> None:
        if self.live.write_error is not None:
            self.watcher.call_later(WRITE_RETRY)  # an empty batch: batch_due writes again
        self.notify(self.live.totals())

    def _retry_unsettled(self, results: dict[str, ProjectResult]) -> None:
        for path, result in results.items():
            if result.unsettled:
                self.watcher.recheck(path, SETTLE_RETRY)

    def failed(self, error: BaseException) -> None:
        self.notify(SessionFailed(f"update failed and was skipped: {error!r}"))

    def state_changed(self, note: str) -> None:
        self.notify(WatchState(self.watcher.mode, note))

    def look(self) -> None:
        """Between batches, on the watcher's thread: what no event tells (collectors.live.looks)."""
        self._look_at_output()
        self._look_at_unreadable()
        if self.config is not None and self.config.changed():
            self._reconfigure()

    def _look_at_output(self) -> None:
        """An output removed or replaced behind the session's back is written again at once."""
        if self.live.write_error is None and self.live.replaced():
            self._write()
            self._after_write()

    def _look_at_unreadable(self) -> None:
        """A directory the scan could not list that can be listed now: the tree is scanned again
        (its projects collected, its directories watched, its problem gone)."""
        readable = [directory for directory in self.live.unreadable if listable(directory)]
        if readable:
            self.live.unreadable = [d for d in self.live.unreadable if d not in readable]
            more = f" (and {len(readable) - 1} more)" if len(readable) > 1 else ""
            self.state_changed(f"{readable[0]}{more} can be read now: scanning again")
            self.watcher.rescan_now()

    def _reconfigure(self) -> None:
        """The configuration changed: every project is mapped again with the new one (a rescan),
        or, where it cannot be used, the one in use is kept and the status bar says so."""
        config = self.config
        assert config is not None
        try:
            settings_for = config.load()
            new = [settings_for(root) for root in self.live.roots]
        except Exception as exc:  # (a ConfigError, or whatever a broken file makes of the loader)
            self.state_changed(f"configuration not read again: {exc}; records mapped as before (restart watch)")
            return
        if new == [config.current(root) for root in self.live.roots]:
            return  # (another table of a pyproject.toml, say)
        config.current = settings_for
        files = sorted({str(s.source) for s in new if s.source is not None}) or ["the configuration"]
        self.state_changed(f"{' and '.join(files)} changed: records mapped again")
        self.watcher.rescan_now()
