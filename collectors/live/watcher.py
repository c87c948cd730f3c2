"""Watching build trees: events coalesced into batches of projects for the one who keeps them.

Events are hints, never the truth: they are coalesced per project and handed to a client (a
WatchClient: collectors.live.session.LiveSession) that re-collects only the touched projects; a
periodic full rescan catches what was missed. How the tree is watched: collectors.live.modes;
the observers: collectors.live.observers, collectors.live.inotify, collectors.live.poller.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable
from typing import Protocol

from collectors.live import inotify
from collectors.live.modes import DEFAULT_POLL_SECONDS, POLL_ENV, RAISE_LIMIT, WatchMode, choose_mode
from collectors.live.observers import Observer, WatchdogObserver, relevant
from collectors.live.poller import StatPoller

__all__ = ["POLL_ENV", "StatPoller", "WatchClient", "WatchMode", "Watcher", "choose_mode", "relevant"]

ROOT_CHECK_SECONDS = 1.0  # between two looks at the roots, and at what no event tells (WatchClient.look)
REWATCH_SECONDS = 2.0


class WatchClient(Protocol):
    """What a Watcher asks of the one who keeps the collection; every call but `project_for`
    and `ignored` comes on the watcher's own thread, one at a time."""

    def project_for(self, path: str) -> str | None:
        """The known project a changed path belongs to; None (a new project, say) asks for a rescan."""
        ...

    def ignored(self, path: str) -> bool:
        """Whether a change of `path` is none of the collection's business (the output, say)."""
        ...

    def batch_due(self, projects: set[str], rescan: bool) -> None:
        """Re-collect these projects (or rescan the whole tree); an empty batch: retry what failed."""

    def failed(self, error: BaseException) -> None:
        """A batch, or an event, raised: watching goes on."""

    def state_changed(self, note: str) -> None:
        """How the tree is watched changed (a root gone or back, polling from now on)."""

    def look(self) -> None:
        """Every ROOT_CHECK_SECONDS between batches: look at what no event tells."""


class Watcher:
    """Coalesces filesystem events into batches of projects and hands them to its client.

    The client (WatchClient) maps a changed path to its project, or to None when the path is
    outside every known project (a new project, say): that asks for a full rescan. Its
    `batch_due` runs on the watcher's own worker thread, one batch at a time. Started with
    `hold=True`, events are only remembered until `release()`: the caller's initial scan runs
    meanwhile, and what changed during it is re-collected after it. Made with
    `placed_by_scan=True`, inotify's watches are left to the caller's scans (`watching`, opened
    at once: each scan watches the directories it listed, see placement.watch_scanned).

    The worker never dies of a failing batch: the client's `failed` hears of it and the loop goes
    on. It also notices a root that disappears or is replaced (deleted and made again, renamed
    away and back), watches it again and asks for a rescan; `state_changed` hears of both.
    """

    def __init__(
        self,
        roots: Iterable[str],
        mode: WatchMode,
        client: WatchClient,
        debounce: float = 0.1,
        rescan_every: float = 300.0,
        placed_by_scan: bool = False,
    ) -> None:
        self.roots = [os.path.abspath(r) for r in roots]
        self.mode = mode
        self.client = client
        self.debounce = debounce
        self.rescan_every = rescan_every
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._pending: dict[str, float] = {}  # project -> when it is due
        self._held: set[str] | None = None  # paths noted before release()
        self._rescan_due: float | None = None
        self._tick_due: float | None = None  # an empty batch (a retry of the write)
        self._next_rescan = time.monotonic() + rescan_every
        self._roots_seen = {root: _identity(root) for root in self.roots}
        self._next_root_check = 0.0
        self._rewatch_due: float | None = None
        self.placed_by_scan = placed_by_scan
        self._observer: Observer | None = None
        if placed_by_scan and mode.kind == "inotify":
            self._observer = self._opened()  # its descriptor exists before the scans' workers start
        self._thread = threading.Thread(target=self._run, name="vitis-tui-watch", daemon=True)

    def start(self, hold: bool = False) -> WatchMode:
        """Start watching; falls back to polling when inotify cannot be set up."""
        if hold:
            with self._lock:
                self._held = set()
        if self._observer is None:
            self._observer = self._opened()
        self._observer.start()
        if not hold:
            self._thread.start()
        return self.mode

    @property
    def watching(self) -> inotify.Inotify | None:
        """The inotify a scan places its watches through, when the caller places them."""
        observer = self._observer
        return observer if self.placed_by_scan and isinstance(observer, inotify.Inotify) else None

    def release(self) -> None:
        """End the hold: every path noted so far is mapped to its project now, then dispatched."""
        with self._lock:
            held, self._held = self._held or set(), None
        for path in held:
            self.note(path)
        self._thread.start()

    def check_capacity(self, directories: int, unwatched: int = 0) -> None:
        """Switch to polling when the tree has more directories than inotify can watch, or some
        got no watch (watchdog fails silently there); a rescan catches what changed meanwhile."""
        if self._stop.is_set():
            return  # (the session ended while its scan's watches were being placed)
        mode = choose_mode(self.roots, None, directories=directories)
        if unwatched and mode.kind != "polling":
            reason = f"{unwatched} of {directories} directories got no inotify watch ({RAISE_LIMIT})"
            mode = WatchMode("polling", DEFAULT_POLL_SECONDS, reason)
        if mode.kind == "polling" and self.mode.kind != "polling":
            self.mode = mode
            self._restart_observer()
            self.rescan_now()
            self.client.state_changed(mode.reason)

    def _opened(self) -> Observer:
        """The observer for the mode, not started yet; polling when inotify cannot be set up."""
        try:
            return self._make_observer(self.mode)
        except OSError as exc:
            self.mode = WatchMode("polling", DEFAULT_POLL_SECONDS, f"inotify failed: {exc.strerror or exc}")
            return self._make_observer(self.mode)

    def _start_observer(self) -> None:
        self._observer = self._opened()
        self._observer.start()

    def _restart_observer(self) -> None:
        if self.watching is not None and self.mode.kind == "inotify":
            self.watching.clear()  # (its descriptor is shared with the scans' workers: kept)
            return  # the rescan that follows watches the tree again
        self._stop_observer()
        self._start_observer()

    def _stop_observer(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)

    def _covers(self, root: str) -> bool:
        """Whether the observer still watches `root` (inotify's watch ends with the directory)."""
        return self._observer is not None and self._observer.covers(root)

    def _make_observer(self, mode: WatchMode) -> Observer:
        if mode.kind == "polling":
            return StatPoller(
                [r for r in self.roots if os.path.isdir(r)], mode.interval or DEFAULT_POLL_SECONDS, self.note
            )
        if mode.kind == "inotify":
            return self._make_inotify()
        return WatchdogObserver(self.roots, self.changed)

    def _make_inotify(self) -> inotify.Inotify:
        watching = inotify.Inotify(self.changed, self.rescan_now, self.client.failed)
        if not self.placed_by_scan:
            for root in self.roots:
                watching.watch_tree(root)
        return watching

    def changed(self, path: str, is_directory: bool) -> None:
        """A change heard of (a report, a log, a marker or a directory is noted; others dropped)."""
        if relevant(path, is_directory):
            self.note(path)

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._stop_observer()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def revive(self) -> bool:
        """Start the worker again if it died (it should not: see `_run`); True when it had."""
        if self._stop.is_set() or self._held is not None or self._thread.is_alive() or self._thread.ident is None:
            return False
        self._thread = threading.Thread(target=self._run, name="vitis-tui-watch", daemon=True)
        self._thread.start()
        return True

    # --- called from any thread ---------------------------------------------------------------

    def note(self, path: str) -> None:
        """A hint that `path` changed."""
        if self.client.ignored(path):
            return
        with self._lock:
            if self._held is not None:
                self._held.add(path)
                return
        if path in self.roots:
            self._next_root_check = 0.0  # the root itself changed: look at it now
        key = self.client.project_for(path)
        due = time.monotonic() + self.debounce
        with self._lock:
            if key is None:
                self._rescan_due = due
            else:
                self._pending[key] = due  # a later event pushes the batch back: bursts coalesce
        self._wake.set()

    def recheck(self, project: str, after: float) -> None:
        """Look at a project again later (a file that was still being written)."""
        with self._lock:
            self._pending[project] = max(self._pending.get(project, 0), time.monotonic() + after)
        self._wake.set()

    def call_later(self, after: float) -> None:
        """An empty batch after `after` seconds (the consumer retries what failed)."""
        with self._lock:
            self._tick_due = time.monotonic() + after
        self._wake.set()

    def rescan_now(self) -> None:
        with self._lock:
            self._rescan_due = time.monotonic()
        self._wake.set()

    # --- the worker ---------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._step()
            except Exception as exc:  # a failing batch costs that batch; watching goes on
                self.client.failed(exc)
                self._stop.wait(0.5)

    def _step(self) -> None:
        self._wake.clear()  # before reading the state: a note() from now on wakes the wait
        now = time.monotonic()
        if now >= self._next_root_check:
            self._next_root_check = now + ROOT_CHECK_SECONDS  # (first: a look that raises waits its turn)
            self._check_roots()
            self.client.look()
        if self._rewatch_due is not None and now >= self._rewatch_due:
            # a tree made again is often still being filled when it is first watched: directories
            # made during that first walk can miss their watch, so watch once more when it settled
            self._rewatch_due = None
            self._restart_observer()
            self.rescan_now()
        ready, rescan, tick, next_due = self._due(now)
        if ready or rescan or tick:
            self.client.batch_due(ready, rescan)
            return
        wake_at = min(next_due, self._next_root_check, self._rewatch_due or next_due)
        self._wake.wait(timeout=max(0.01, wake_at - time.monotonic()))

    def _due(self, now: float) -> tuple[set[str], bool, bool, float]:
        with self._lock:
            ready = {p for p, due in self._pending.items() if due <= now}
            for project in ready:
                del self._pending[project]
            rescan = (self._rescan_due is not None and self._rescan_due <= now) or now >= self._next_rescan
            if rescan:
                self._rescan_due = None
                self._next_rescan = now + self.rescan_every
            tick = self._tick_due is not None and self._tick_due <= now
            if tick:
                self._tick_due = None
            dues = [*self._pending.values(), self._next_rescan]
            dues += [d for d in (self._rescan_due, self._tick_due) if d is not None]
        return ready, rescan, tick, min(dues)

    def _check_roots(self) -> None:
        """A root removed, or replaced by another directory, leaves inotify deaf: watch again."""
        changed = False
        for root in self.roots:
            now, before = _identity(root), self._roots_seen[root]
            if now == before and (now is None or self._covers(root)):
                continue  # (a root made again can get the old inode: then only a deaf watch tells)
            self._roots_seen[root] = now
            if now is None:  # a root renamed away keeps its records until it is back (rescans skip it)
                self.client.state_changed(f"{root} is gone; waiting for it to come back")
            else:
                changed = True
                self.client.state_changed(f"{root} is back; watching it again")
        if changed:
            self._restart_observer()
            self.rescan_now()
            self._rewatch_due = time.monotonic() + REWATCH_SECONDS


def _identity(path: str) -> tuple[int, int] | None:
    """Which directory a path is (device, inode), or None when there is none."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino)
