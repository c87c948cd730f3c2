"""The live dashboard: `vitis-tui watch ROOT`.

The session (collectors.live.session) runs on a worker thread and the watcher's thread; it posts
messages (tui.messages) that the dashboard applies on its own thread, each one patching only
the rows it names. The dashboard keeps no copy of the session's state: a detail screen reads
the project's current result from the session when it opens.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import deque
from collections.abc import Iterable

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, ProgressBar, Static

from collectors.interpreter import keep_for_good
from collectors.live.session import LiveSession, ProjectChange, ScanFinished
from collectors.records.model import key_of
from collectors.records.table import Prepared, RecordTable
from collectors.text import visible
from tui.messages import (
    PreparedRecords,
    ProjectsUpdated,
    ScanEnded,
    ScanProgressed,
    SessionTrouble,
    TotalsUpdated,
    WatchChanged,
    session_message,
)
from tui.records_actions import RECORDS_BINDINGS, RecordsActions
from tui.screens.help import HelpScreen
from tui.signals import exit_on_signals
from tui.widgets.records_view import RecordsPanel, RecordsView
from tui.widgets.runs_table import RunsTable, group_label, variant_label
from tui.widgets.tables import ExtensionsTable, ProblemsTable

NEXT_PANEL = "Next / previous panel"
GENERAL = ""  # the problems panel's source for problems of no single project


class StatusBar(Static):
    """The line under the panels: the watch mode, the scan, the totals, any trouble."""


class Dashboard(RecordsActions, App[int]):
    """Runs, records and problems of a watched tree, kept live."""

    CSS_PATH = "app.tcss"
    TITLE = "vitis-tui"
    BINDINGS = [
        *RECORDS_BINDINGS,
        Binding("r", "rescan", "Rescan", tooltip="Walk the whole tree again now"),
        Binding("tab", "focus_next", "Next panel", show=False, tooltip=NEXT_PANEL),
        Binding("shift+tab", "focus_previous", "Previous panel", show=False, tooltip=NEXT_PANEL),
    ]

    def __init__(self, session: LiveSession) -> None:
        """`session`: its events wait until the dashboard is mounted; it is started then, if the
        caller has not started it already (`watch` does, before Textual is even imported)."""
        super().__init__()
        self.session = session
        self.roots = session.live.roots
        self.output = session.live.output_path
        self.status: dict[str, str] = {"watch": "watch: starting", "scan": "scanning"}
        self.totals_text = ""
        self.trouble: str | None = None  # the session failed (it goes on, or it stopped)
        self.stopped = False  # the collection stopped for good: the exit status says so
        self.scans = 0  # scans finished (the first one ends the start-up; later ones are rescans)
        # told, not shown yet: changes, and the ends of scans (which wait for the changes before)
        self._unshown: deque[ProjectsUpdated | ScanFinished] = deque()

    # --- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # the panels are kept by reference: messages keep coming while another screen is on top
        self.runs = RunsTable(id="runs")
        self.runs.border_title = "Runs"
        self.records_panel = RecordsPanel(RecordTable(key_order=True, closed=True), id="records")
        self.records_panel.border_title = "Records"
        self.extensions = ExtensionsTable(id="extensions")
        self.extensions.border_title = "AI Engine · XRT recipes · LOOM mappings"
        self.problems = ProblemsTable(self.roots, id="problems")
        self.problems.border_title = "Problems"
        # shown once a scan counts its projects: an indeterminate bar animates 15 times a second,
        # and while the tree is walked its repaints took the CPU from the scan
        self.progress_bar = ProgressBar(total=1, id="scan-progress", show_eta=False)
        self.progress_bar.display = False
        self.status_bar = StatusBar(id="status")
        yield Header()
        with Vertical(id="panels"):
            yield self.runs
            yield self.records_panel
            yield self.extensions
            yield self.problems
        yield self.progress_bar
        yield self.status_bar
        yield Footer()

    @property
    def records_view(self) -> RecordsView:
        return self.records_panel.view

    def on_mount(self) -> None:
        self.sub_title = visible(" ".join(self.roots))  # (a root's name may hold any byte)
        self._show_status()
        self.set_interval(1.0, self._tick)
        self._signals = exit_on_signals(self)  # SIGTERM, SIGHUP: the same way out as `q`
        self.session.listen(self._from_thread)
        self.repaint_after_resume()
        self.show_start_warnings()
        self.session.start()  # (its end, if it fails, comes as a SessionTrouble message)

    def _from_thread(self, event: object) -> None:
        message = session_message(event)
        if isinstance(message, ProjectsUpdated):  # (on the session's thread: see prepare)
            message.prepare(self.records_panel.view.table)
        self.post_message(message)

    async def on_unmount(self) -> None:
        self._signals.remove()
        self.session.stop()

    # --- messages from the session -------------------------------------------------------------

    @on(ScanProgressed)
    def _progress(self, message: ScanProgressed) -> None:
        event = message.event
        if event.phase == "walk":
            self.status["scan"] = f"{self._scan_word()}: {event.count} directories"
        else:
            self.status["scan"] = f"{self._scan_word()}: {event.count}/{event.total} projects"
        if event.total:
            self.progress_bar.display = True
            self.progress_bar.update(total=event.total, progress=event.count)
        self._show_status()

    def _scan_word(self) -> str:
        return "rescanning" if self.scans else "scanning"

    @on(ProjectsUpdated)
    @on(ScanEnded)
    def _told(self, message: ProjectsUpdated | ScanEnded) -> None:
        """Changes go into the tables a message at a time, each behind what came meanwhile: the
        initial scan tells 20,000 projects in 40 messages at once, and a keystroke queued behind
        them all would wait seconds. A scan's end comes after its changes are in."""
        self._unshown.append(message if isinstance(message, ProjectsUpdated) else message.event)
        if len(self._unshown) == 1:
            self._show_soon()

    def _show_soon(self) -> None:
        """The next message's changes, once the event loop has run what it holds: keystrokes
        come through it (from the driver's thread), and Textual takes the messages it has queued
        without yielding to the loop, so a callback queued now would still come first."""
        asyncio.get_running_loop().call_soon(self.call_later, self._show_next)

    def _show_next(self) -> None:
        told = self._unshown.popleft()
        if isinstance(told, ScanFinished):
            self._scan_ended(told)
        else:
            self._show(told)
            if told.event.initial:
                keep_for_good()  # (see _scan_ended: the tables' new rows and the results stay too)
        if self._unshown:
            self._show_soon()

    def _show(self, message: ProjectsUpdated) -> None:
        event = message.event
        # (the initial scan's rows are sorted once, when it ends)
        self.runs.show_all([(change.path, change.result) for change in event.changes], changed=not event.initial)
        rows: list[Prepared] = []
        new_records = False
        for change in event.changes:
            rows += self._patch_records(change, message.prepared.get(change.path))
            new_records |= bool(change.records.added)
            self.extensions.apply(change.extensions)
            self.problems.replace(change.path, change.result.problems if change.result else [])
        # together: one append for the new ones (read on the session's thread: ProjectsUpdated.prepare)
        patched = self.records_view.table.put_prepared(rows)
        # once per message, and the columns follow the data only after the initial scan (each
        # adaptation is a pass over every record)
        self.records_view.data_changed(patched, adapt_columns=new_records and self.scans > 0)

    def _patch_records(self, change: ProjectChange, prepared: PreparedRecords | None) -> list[Prepared]:
        """Drop a project's removed records from the records view's table; the rows of those it
        added or changed, to be put in."""
        delta = change.records
        if not delta:
            return []
        table: RecordTable = self.records_view.table
        for key in delta.removed:
            self.records_view.marks.forget(table, ("", key, 0))  # a mark on a record that is gone
            table.drop("", key)
        rows, records = (prepared.rows, prepared.records) if prepared else ([], [])
        self.compare_records_changed(records, list(delta.removed))
        return rows

    @on(TotalsUpdated)
    def _totals(self, message: TotalsUpdated) -> None:
        totals = message.event
        written = (
            time.strftime("%H:%M:%S", time.localtime(totals.output_written)) if totals.output_written else "not yet"
        )
        self.totals_text = (
            f"{totals.projects} projects │ {totals.runs} runs │ {totals.records} records │ "
            f"{totals.problems} problems │ {os.path.basename(self.output)} written {written}"
        )
        self.status["write"] = f"ERROR {totals.write_error} (retrying)" if totals.write_error else ""
        self.problems.replace(GENERAL, totals.general_problems)
        self._show_status()

    def _scan_ended(self, event: ScanFinished) -> None:
        self.status["scan"] = ""
        self.scans += 1
        self.progress_bar.display = False
        if event.initial:
            self.runs.sort_rows()
            self.records_view.data_changed([], adapt_columns=True)  # the columns follow the data now
            # the tree's results stay for the session: keep them out of every later full garbage
            # collection, which would otherwise pause both threads for up to a second on large trees
            keep_for_good()
        self._show_status()

    @on(WatchChanged)
    def _watch(self, message: WatchChanged) -> None:
        note = f" │ {message.event.note}" if message.event.note else ""
        self.status["watch"] = f"watch: {message.event.mode}{note}"
        self._show_status()

    @on(SessionTrouble)
    def _session_trouble(self, message: SessionTrouble) -> None:
        self.stopped |= not message.event.alive
        self._trouble(message.event.error)

    def _trouble(self, error: str) -> None:
        self.trouble = error
        self.notify(visible(error), severity="error", timeout=10, markup=False)
        self._show_status()

    def _tick(self) -> None:
        self.runs.expire_marks()
        if self.session.revive():
            self._trouble("the watcher thread had stopped; it was started again")

    def _show_status(self) -> None:
        parts = [self.status["watch"], self.status["scan"], self.totals_text, f"root {' '.join(self.roots)}"]
        if self.status.get("write"):
            parts.insert(0, self.status["write"])
        if self.trouble:
            parts.insert(0, f"ERROR {self.trouble}")
        # (one line as wide as the screen: a new text needs no new layout, which redraws the
        # whole screen, twice a second during a scan)
        self.status_bar.update(Text(" │ ".join(p for p in parts if p)), layout=False)

    # --- actions --------------------------------------------------------------------------------

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.binding_help()))

    def action_rescan(self) -> None:
        self.status["scan"] = "rescanning"
        self._show_status()
        self.session.rescan()

    def action_focus_panel(self, panel: str) -> None:
        (self.records_view if panel == "records" else self.query_one(f"#{panel}")).focus()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for panel in ("runs", "records", "problems"):
            yield SystemCommand(
                f"Focus {panel}", f"Move to the {panel} panel", lambda p=panel: self.action_focus_panel(p)
            )

    @on(RunsTable.Selected, "#runs")
    def _open_run(self, event: RunsTable.Selected) -> None:
        from tui.screens.detail import DetailScreen  # (when first opened: see records_actions)

        project = self.runs.group_of.get(event.key)
        result = self.session.results.get(project or "")
        if result is None:
            return
        for run in result.runs:
            if RunsTable.key(result, run.target, run.device, run.variant) == event.key:
                title = f"{group_label(result)} {variant_label(result, run)} {run.target}"
                files = {path: result.accounts.get(path, "") for path in run.files}
                self.push_screen(DetailScreen(title, run.records, dict(run.sources), result.problems, run.notes, files))

    @on(RecordsView.Selected)
    def _open_record(self, event: RecordsView.Selected) -> None:
        from tui.screens.detail import DetailScreen  # (when first opened: see records_actions)

        table = event.view.table
        project = table.sources[event.index]
        _origin, key, _n = table.keys[event.index]
        result = self.session.results.get(project)
        if result is None:
            return
        for run in result.runs:
            for record in run.records:
                if key_of(record) == key:
                    sources = {record["report_type"]: run.sources.get(record["report_type"], [])}
                    title = f"{group_label(result)} {variant_label(result, run)} {record['report_type']}"
                    self.push_screen(DetailScreen(title, [record], sources, result.problems, run.notes))
                    return
