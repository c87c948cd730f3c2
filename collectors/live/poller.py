"""Polling by stat: a stat per directory and per report each time, not per file."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable

from collectors.collect.results import Stamp, stamp_of
from collectors.live.observers import relevant


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
        # directory -> (mtime_ns, ctime_ns): a chmod that makes it readable changes the second alone
        self.dirs: dict[str, tuple[int, int]] = {}
        self.files: dict[str, Stamp] = {}  # report -> its stamp (results.stamp_of: size and mtime miss `cp -p`)
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

    def covers(self, directory: str) -> bool:
        return directory in self.dirs

    def _learn(self, top: str, announce: bool) -> None:
        """Record a directory tree (a new one is announced entry by entry)."""
        stack = [top]
        while stack:
            directory = stack.pop()
            try:
                self.dirs[directory] = _times(os.stat(directory))
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
                mtime = _times(os.stat(directory))
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


def _times(stat: os.stat_result) -> tuple[int, int]:
    return (stat.st_mtime_ns, stat.st_ctime_ns)
