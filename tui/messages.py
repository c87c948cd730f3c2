"""The messages that carry the session's events (and browse's loads) into the apps.

Threads never touch a widget: they post one of these (`post_message` is thread-safe) and the
app applies it on its own thread. Where a newer message makes an older one pointless (progress,
totals), `can_replace` lets Textual drop the older one from the queue.
"""

from __future__ import annotations

from textual.message import Message

from collectors.live import ProjectsChanged, ScanFinished, ScanProgress, SessionFailed, Totals, WatchState
from collectors.problems import Problem
from collectors.records.loader import Followed
from collectors.records.table import RecordTable


class ScanProgressed(Message):
    def __init__(self, event: ScanProgress) -> None:
        super().__init__()
        self.event = event

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, ScanProgressed)


class ProjectsUpdated(Message):
    def __init__(self, event: ProjectsChanged) -> None:
        super().__init__()
        self.event = event


class TotalsUpdated(Message):
    def __init__(self, event: Totals) -> None:
        super().__init__()
        self.event = event

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, TotalsUpdated)


class ScanEnded(Message):
    def __init__(self, event: ScanFinished) -> None:
        super().__init__()
        self.event = event


class WatchChanged(Message):
    def __init__(self, event: WatchState) -> None:
        super().__init__()
        self.event = event


class SessionTrouble(Message):
    def __init__(self, event: SessionFailed) -> None:
        super().__init__()
        self.event = event


SESSION_MESSAGES: dict[type, type[Message]] = {
    ScanProgress: ScanProgressed,
    ProjectsChanged: ProjectsUpdated,
    Totals: TotalsUpdated,
    ScanFinished: ScanEnded,
    WatchState: WatchChanged,
    SessionFailed: SessionTrouble,
}


def session_message(event: object) -> Message:
    """The message for one of the session's events."""
    return SESSION_MESSAGES[type(event)](event)  # type: ignore[call-arg]


# --- browse ---------------------------------------------------------------------------------------


class Loaded(Message):
    """Files read: the table, where each file was read to, problems, rows to schema-check."""

    def __init__(
        self, table: RecordTable, followed: list[Followed], problems: list[Problem], rows: list[int], seconds: float
    ) -> None:
        super().__init__()
        self.table = table
        self.followed = followed
        self.problems = problems
        self.rows = rows
        self.seconds = seconds


class SchemaChecked(Message):
    """The background schema check of some rows: the refused ones and their problems."""

    def __init__(self, table: RecordTable, invalid_sources: list[str], problems: list[Problem]) -> None:
        super().__init__()
        self.table = table
        self.invalid_sources = invalid_sources
        self.problems = problems
