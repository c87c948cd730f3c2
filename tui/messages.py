"""The messages that carry the session's events (and browse's loads) into the apps.

Threads never touch a widget: they post one of these (`post_message` is thread-safe) and the
app applies it on its own thread. Where a newer message makes an older one pointless (progress,
totals), `can_replace` lets Textual drop the older one from the queue.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from threading import Semaphore
from typing import Any

from textual.message import Message

from collectors.live.events import ProjectsChanged, ScanFinished, ScanProgress, SessionFailed, Totals, WatchState
from collectors.problems import Problem
from collectors.records.loader import Batch
from collectors.records.table import Prepared, RecordTable


class ScanProgressed(Message):
    def __init__(self, event: ScanProgress) -> None:
        super().__init__()
        self.event = event

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, ScanProgressed)


@dataclass
class PreparedRecords:
    """A project's added and changed records as the records view takes them: their lines read
    back (what the file holds) and their columns taken, with the records for a compare screen."""

    rows: list[Prepared]
    records: list[dict[str, Any]]


class ProjectsUpdated(Message):
    def __init__(self, event: ProjectsChanged) -> None:
        super().__init__()
        self.event = event
        self.prepared: dict[str, PreparedRecords] = {}  # project -> its records, read (prepare)

    def prepare(self, table: RecordTable) -> None:
        """Read each changed line and take its columns, on the thread that posts the message (the
        session's): the interface's thread then only puts the rows in (a 20,000-project scan's
        lines were parsed and read there, seconds of its time)."""
        for change in self.event.changes:
            delta = change.records
            if not delta:
                continue
            written = {**delta.added, **delta.changed}
            records = [json.loads(line) for line in written.values()]
            rows = [
                table.prepare(line, record, delta.owners.get(key, change.path), "", key)
                for (key, line), record in zip(written.items(), records)
            ]
            self.prepared[change.path] = PreparedRecords(rows, records)


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
    """A batch of a load: rows prepared for `table` (appended on the interface's thread)."""

    def __init__(self, table: RecordTable, batch: Batch, seconds: float, room: Semaphore | None = None) -> None:
        super().__init__()
        self.table = table
        self.batch = batch
        self.seconds = seconds
        self.room = room  # released once the batch is appended: the loader reads on


class SchemaChecked(Message):
    """The background schema check of some rows: the refused ones and their problems."""

    def __init__(self, table: RecordTable, invalid: list[int], problems: list[Problem], unread: list[int]) -> None:
        super().__init__()
        self.table = table
        self.invalid = invalid  # the refused rows of `table`
        self.problems = problems
        self.unread = unread  # those of them that are no record (a load's piece took them): to go
