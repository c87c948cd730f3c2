"""Watching build trees with watchdog: inotify where it works, polling where it cannot.

Events are hints, never the truth: they are coalesced per project and handed to a consumer
that re-collects only the touched projects; a periodic full rescan catches what was missed.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer

from collectors.collect.artifacts import classify
from collectors.collect.discovery import BUILD_MARKERS
from collectors.collect.engine import Stamp, stamp_of
from collectors.live import inotify

POLL_ENV = "VITIS_TUI_POLL"
DEFAULT_POLL_SECONDS = 5.0
NETWORK_FILESYSTEMS = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb",
        "smb2",
        "smb3",
        "smbfs",
        "fuse.sshfs",
        "sshfs",
        "lustre",
        "gpfs",
        "fuse.gpfs",
        "beegfs",
        "fuse.beegfs",
        "glusterfs",
        "fuse.glusterfs",
        "ceph",
        "fuse.ceph",
        "9p",
        "afs",
        "panfs",
        "fuse.s3fs",
        "fuse.rclone",
        "davfs",
        "fuse.davfs2",
    }
)
RAISE_LIMIT = "raise fs.inotify.max_user_watches"
IGNORED_EVENTS = frozenset({"opened", "closed_no_write"})
# Only these reach us from watchdog (where inotify is not to be had): reading and listing (our
# own scans included) would otherwise flood its queue with open/close events on every directory.
EVENT_FILTER = [
    FileCreatedEvent,
    FileModifiedEvent,
    FileClosedEvent,
    FileDeletedEvent,
    FileMovedEvent,
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
]


@dataclass(frozen=True)
class WatchMode:
    kind: str  # "inotify" (Linux), "events" (watchdog's observer, elsewhere) or "polling"
    interval: float | None  # seconds between polls
    reason: str

    def __str__(self) -> str:
        every = f" every {self.interval:g} s" if self.interval else ""
        return f"{self.kind}{every} ({self.reason})"


def _unescape(field: str) -> str:
    return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")


def filesystem_of(path: str, mounts_file: str = "/proc/self/mounts") -> str | None:
    """The filesystem type of the mount holding `path` (longest mount point prefix)."""
    real = os.path.realpath(path)
    best: tuple[int, str] | None = None
    try:
        with open(mounts_file, encoding="utf-8", errors="replace") as mounts:
            for line in mounts:
                fields = line.split()
                if len(fields) < 3:
                    continue
                point, kind = _unescape(fields[1]), fields[2]
                if real == point or real.startswith(point.rstrip("/") + "/"):
                    if best is None or len(point) > best[0]:
                        best = (len(point), kind)
    except OSError:
        return None
    return best[1] if best else None


def inotify_watch_limit() -> int | None:
    try:
        with open("/proc/sys/fs/inotify/max_user_watches", encoding="ascii") as limit:
            return int(limit.read().strip())
    except (OSError, ValueError):
        return None


def choose_mode(
    roots: Iterable[str],
    poll: float | None = None,
    directories: int = 0,
    environ: Mapping[str, str] | None = None,
    mounts_file: str = "/proc/self/mounts",
) -> WatchMode:
    """Pick inotify or polling, and say why; the status bar shows the reason."""
    environ = os.environ if environ is None else environ
    if poll is not None:
        return WatchMode("polling", poll, "--poll given")
    if environ.get(POLL_ENV):
        try:
            seconds = float(environ[POLL_ENV])
        except ValueError:
            seconds = DEFAULT_POLL_SECONDS
        return WatchMode("polling", seconds, f"{POLL_ENV}={environ[POLL_ENV]}")
    for root in roots:
        kind = filesystem_of(root, mounts_file)
        if kind in NETWORK_FILESYSTEMS:
            return WatchMode(
                "polling",
                DEFAULT_POLL_SECONDS,
                f"{root} is on {kind}: inotify does not see changes made on other hosts",
            )
    limit = inotify_watch_limit()
    # watchdog fails silently when the watches run out: count before relying on them.
    if limit is not None and directories > limit * 0.9:
        return WatchMode(
            "polling",
            DEFAULT_POLL_SECONDS,
            f"{directories} directories, inotify allows {limit} watches ({RAISE_LIMIT})",
        )
    if not inotify.available():
        return WatchMode("events", None, "local filesystem")
    return WatchMode("inotify", None, "local filesystem")


def relevant(path: str, is_directory: bool) -> bool:
    """Whether a change can alter records: reports, logs, markers and any directory.

    A build writes thousands of other files (RTL, databases, objects); those are dropped here
    so they cost no re-collection.
    """
    if is_directory:
        return True
    name = os.path.basename(path)
    return classify(name, os.path.basename(os.path.dirname(path)), path) is not None or name in BUILD_MARKERS


class _Handler(FileSystemEventHandler):
    """watchdog's events, where its observer watches (not on Linux: see collectors.live.inotify)."""

    def __init__(self, note: Callable[[str, bool], None]) -> None:
        self.note = note

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in IGNORED_EVENTS:
            return
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            if raw:  # dest_path: an atomic rename onto a report name lands there
                self.note(os.fsdecode(raw), event.is_directory)


class Watcher:
    """Coalesces filesystem events into batches of projects and hands them to `on_batch`.

    `key_of(path)` maps a changed path to its project, or None when the path is outside every
    known project (a new project, say): that asks for a full rescan. `on_batch(projects,
    rescan)` runs on the watcher's own worker thread, one batch at a time. Started with
    `hold=True`, events are only remembered until `release()`: the caller's initial scan runs
    meanwhile, and what changed during it is re-collected after it. Made with
    `placed_by_scan=True`, inotify's watches are left to the caller's scans (`watching`, opened
    at once: each scan watches the directories it listed, see Engine.watch_listed).

    The worker never dies of a failing batch: `on_error` hears of it and the loop goes on. It
    also notices a root that disappears or is replaced (deleted and made again, renamed away and
    back), watches it again and asks for a rescan; `on_state` hears of both.
    """

    def __init__(
        self,
        roots: Iterable[str],
        mode: WatchMode,
        key_of: Callable[[str], str | None],
        on_batch: Callable[[set[str], bool], None],
        ignore: Callable[[str], bool] = lambda p: False,
        debounce: float = 0.1,
        rescan_every: float = 300.0,
        on_error: Callable[[BaseException], None] = lambda exc: None,
        on_state: Callable[[str], None] = lambda note: None,
        placed_by_scan: bool = False,
    ) -> None:
        self.roots = [os.path.abspath(r) for r in roots]
        self.mode = mode
        self.key_of = key_of
        self.on_batch = on_batch
        self.ignore = ignore
        self.debounce = debounce
        self.rescan_every = rescan_every
        self.on_error = on_error
        self.on_state = on_state
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
        self._observer: Any = None  # our Inotify or StatPoller, or watchdog's Observer
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
            self.on_state(mode.reason)

    def _opened(self) -> Any:
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
        observer = self._observer
        if isinstance(observer, StatPoller):
            return root in observer.dirs
        if isinstance(observer, inotify.Inotify):
            return observer.covers(root)
        return any(e.watch.path == root and e.is_alive() for e in getattr(observer, "emitters", ()))

    def _make_observer(self, mode: WatchMode) -> Any:
        if mode.kind == "polling":
            return StatPoller(
                [r for r in self.roots if os.path.isdir(r)], mode.interval or DEFAULT_POLL_SECONDS, self.note
            )
        if mode.kind == "inotify":
            return self._make_inotify()
        observer = Observer()
        handler = _Handler(self.changed)
        for root in self.roots:
            if os.path.isdir(root):
                observer.schedule(handler, root, recursive=True, event_filter=EVENT_FILTER)
        return observer

    def _make_inotify(self) -> inotify.Inotify:
        watching = inotify.Inotify(self.changed, self.rescan_now, self.on_error)
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
        if self.ignore(path):
            return
        with self._lock:
            if self._held is not None:
                self._held.add(path)
                return
        if path in self.roots:
            self._next_root_check = 0.0  # the root itself changed: look at it now
        key = self.key_of(path)
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
                self.on_error(exc)
                self._stop.wait(0.5)

    def _step(self) -> None:
        self._wake.clear()  # before reading the state: a note() from now on wakes the wait
        now = time.monotonic()
        if now >= self._next_root_check:
            self._check_roots()
            self._next_root_check = now + ROOT_CHECK_SECONDS
        if self._rewatch_due is not None and now >= self._rewatch_due:
            # a tree made again is often still being filled when it is first watched: directories
            # made during that first walk can miss their watch, so watch once more when it settled
            self._rewatch_due = None
            self._restart_observer()
            self.rescan_now()
        ready, rescan, tick, next_due = self._due(now)
        if ready or rescan or tick:
            self.on_batch(ready, rescan)
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
                self.on_state(f"{root} is gone; waiting for it to come back")
            else:
                changed = True
                self.on_state(f"{root} is back; watching it again")
        if changed:
            self._restart_observer()
            self.rescan_now()
            self._rewatch_due = time.monotonic() + REWATCH_SECONDS


ROOT_CHECK_SECONDS = 1.0
REWATCH_SECONDS = 2.0


def _identity(path: str) -> tuple[int, int] | None:
    """Which directory a path is (device, inode), or None when there is none."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino)


def _listing(directory: str) -> list[tuple[os.DirEntry, bool]]:
    """A directory's entries with whether each is a directory (symlinks not followed); [] if unreadable."""
    try:
        with os.scandir(directory) as scan:
            entries = list(scan)
    except OSError:
        return []
    out = []
    for entry in entries:
        try:
            out.append((entry, entry.is_dir(follow_symlinks=False)))
        except OSError:
            continue
    return out


class StatPoller:
    """Polling that costs a stat per directory and per report, not per file.

    watchdog's PollingObserver stats every file of the tree on every poll: on a 200,000-file
    build tree that is seconds of CPU each time. A directory's mtime changes when an entry is
    created, removed or renamed in it, so stat'ing the directories finds new and removed files;
    stat'ing the known reports finds rewrites. Only a changed directory is listed again.
    """

    def __init__(self, roots: Iterable[str], interval: float, note: Callable[[str], None]) -> None:
        self.roots = list(roots)
        self.interval = interval
        self.note = note
        self.dirs: dict[str, int] = {}  # directory -> mtime_ns
        self.files: dict[str, Stamp] = {}  # report -> its stamp (engine.stamp_of: size and mtime miss `cp -p`)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="vitis-tui-poll", daemon=True)

    def start(self) -> None:
        for root in self.roots:
            self._learn(root, announce=False)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout: float | None = None) -> None:
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _learn(self, top: str, announce: bool) -> None:
        """Record a directory tree (a new one is announced entry by entry)."""
        stack = [top]
        while stack:
            directory = stack.pop()
            try:
                self.dirs[directory] = os.stat(directory).st_mtime_ns
            except OSError:
                continue
            for entry, is_dir in _listing(directory):
                if is_dir:
                    stack.append(entry.path)
                elif relevant(entry.path, False):
                    self._track(entry.path, announce)
            if announce:
                self.note(directory)

    def _track(self, path: str, announce: bool) -> None:
        try:
            stat = os.stat(path)
        except OSError:
            return
        self.files[path] = stamp_of(stat)
        if announce:
            self.note(path)

    def poll_once(self) -> None:
        for directory, known in list(self.dirs.items()):
            try:
                mtime = os.stat(directory).st_mtime_ns
            except OSError:
                self._forget(directory)
                continue
            if mtime != known:
                self.dirs[directory] = mtime
                self._relist(directory)
        for path, seen in list(self.files.items()):
            try:
                stat = os.stat(path)
            except OSError:
                del self.files[path]
                self.note(path)
                continue
            if stamp_of(stat) != seen:
                self.files[path] = stamp_of(stat)
                self.note(path)

    def _relist(self, directory: str) -> None:
        entries = _listing(directory)
        for entry, is_dir in entries:
            if is_dir and entry.path not in self.dirs:
                self._learn(entry.path, announce=True)
            elif not is_dir and entry.path not in self.files and relevant(entry.path, False):
                self._track(entry.path, announce=True)
        present = {entry.path for entry, _is_dir in entries}
        for path in [p for p in self.files if os.path.dirname(p) == directory and p not in present]:
            del self.files[path]
            self.note(path)

    def _forget(self, directory: str) -> None:
        prefix = directory + os.sep
        for path in [p for p in self.dirs if p == directory or p.startswith(prefix)]:
            del self.dirs[path]
        for path in [p for p in self.files if p.startswith(prefix)]:
            del self.files[path]
        self.note(directory)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.poll_once()
