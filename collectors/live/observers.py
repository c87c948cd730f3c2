"""The three observers a Watcher can hold (collectors.live.inotify's, the poller, watchdog's
observer where inotify is missing), behind one protocol, and which changes are worth a note."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Protocol

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
from watchdog.observers import Observer as _WatchdogThread

from collectors.collect.artifacts import classify
from collectors.collect.discovery import BUILD_MARKERS

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


class Observer(Protocol):
    """What a Watcher asks of its observer, whichever it is."""

    def start(self) -> None:
        """Begin telling changes (on a thread of its own)."""

    def stop(self) -> None:
        """Stop telling changes; its watches go."""

    def join(self, timeout: float | None = None) -> None:
        """Wait for its thread after stop()."""

    def covers(self, directory: str) -> bool:
        """Whether `directory` is still watched (a watch ends with its directory)."""
        ...


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


class WatchdogObserver:
    """watchdog's observer for the platform (where inotify is missing), with the Observer protocol."""

    def __init__(self, roots: Iterable[str], changed: Callable[[str, bool], None]) -> None:
        self._thread = _WatchdogThread()
        handler = _Handler(changed)
        for root in roots:
            if os.path.isdir(root):
                self._thread.schedule(handler, root, recursive=True, event_filter=EVENT_FILTER)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._thread.stop()

    def join(self, timeout: float | None = None) -> None:
        if self._thread.is_alive():
            self._thread.join(timeout)

    def covers(self, directory: str) -> bool:
        return any(e.watch.path == directory and e.is_alive() for e in self._thread.emitters)
