"""The events a live session tells its listener (the dashboard turns each into a Textual
message: tui/messages.py), and the mailbox they wait in until the listener is there."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from collectors.problems import Problem

if TYPE_CHECKING:  # (browse takes these events' messages and never imports the collection engine)
    from collectors.collect.engine import ProjectResult
    from collectors.live.modes import WatchMode
    from collectors.records.store import Delta


@dataclass(frozen=True)
class ScanProgress:
    phase: str  # "walk" or "collect"
    count: int
    total: int | None


@dataclass(frozen=True)
class ProjectChange:
    """One project's new result (None: the project is gone) and what it changed in the files."""

    path: str
    result: ProjectResult | None
    records: Delta
    extensions: Delta


@dataclass(frozen=True)
class ProjectsChanged:
    changes: tuple[ProjectChange, ...]
    initial: bool = False  # found by the initial scan (no "just changed" marker)


@dataclass(frozen=True)
class Totals:
    """The counts and the state of the output, after every change (a newer one supersedes)."""

    projects: int
    runs: int
    records: int
    extension_records: int
    problems: int
    output_written: float | None
    write_error: str | None
    general_problems: tuple[Problem, ...]  # of the walk and of key clashes (not of one project)


@dataclass(frozen=True)
class ScanFinished:
    """A scan ended (the initial one, or a rescan): its transient status ends with it."""

    initial: bool
    seconds: float


@dataclass(frozen=True)
class WatchState:
    """How the tree is watched, and anything wrong with it."""

    mode: WatchMode
    note: str = ""


@dataclass(frozen=True)
class SessionFailed:
    """A failure the session survived (it goes on), or its end (alive False)."""

    error: str
    alive: bool = True


class Mailbox:
    """Events wait here until a listener is attached, then go to it in the order told."""

    def __init__(self) -> None:
        self._lock = threading.RLock()  # (a listener may tell an event of its own)
        self._waiting: list[object] = []
        self._listener: Callable[[object], None] | None = None

    def tell(self, event: object) -> None:
        with self._lock:  # (held while telling: a listener hears events in the order told)
            if self._listener is None:
                self._waiting.append(event)
            else:
                self._listener(event)

    def attach(self, listener: Callable[[object], None]) -> None:
        with self._lock:
            for event in self._waiting:
                listener(event)
            self._waiting.clear()
            self._listener = listener
