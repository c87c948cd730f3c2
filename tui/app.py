"""The live dashboard: `vitis-tui watch ROOT`."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, ProgressBar, Static

from collectors.config import Settings
from collectors.engine import ProjectResult
from collectors.live import LiveSession, Progress, Updated, Watching
from collectors.problems import Problem
from collectors.records.model import dumps, record_key
from collectors.records.table import RecordTable, extension_summary
from collectors.runs import Run

from .records_actions import RECORDS_BINDINGS, RecordsActions
from .screens.detail import DetailScreen
from .screens.help import HelpScreen
from .widgets.figures import FIGURE_COLUMNS, run_figures, statuses
from .widgets.records_view import RecordsPanel, RecordsView

CHANGED_MARK_SECONDS = 10.0  # how long a row keeps its "just changed" marker


class SessionEvent(Message):
    """An event from the collection threads, carried into the app (post_message is thread-safe)."""

    def __init__(self, event: object) -> None:
        super().__init__()
        self.event = event


@dataclass
class RunRow:
    project: str
    result: ProjectResult
    run: Run
    changed_at: float


def cell(value: Any) -> Text:
    """Report values go into cells as Text: HLS names are full of brackets that markup would eat."""
    return Text("" if value is None else str(value))


def group_label(result: ProjectResult) -> str:
    return "/".join(result.identity.problem["group_path"])


def variant_label(result: ProjectResult) -> str:
    variant = result.identity.implementation["variant"]
    return f"{variant['index']}_{variant['name']}"


class StatusBar(Static):
    pass


class Dashboard(RecordsActions, App[None]):
    """Runs, records and problems of a watched tree, kept live."""

    CSS_PATH = "app.tcss"
    TITLE = "vitis-tui"
    BINDINGS = [
        *RECORDS_BINDINGS,
        Binding("r", "rescan", "Rescan"),
        Binding("tab", "focus_next", "Next panel", show=False),
        Binding("shift+tab", "focus_previous", "Previous panel", show=False),
    ]

    def __init__(
        self,
        roots: Iterable[str],
        output: str,
        settings_for: Callable[[str], Settings],
        poll: float | None = None,
        rescan_every: float = 300.0,
        session_factory: Callable[..., LiveSession] = LiveSession,
        before_start: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.roots = [os.path.abspath(r) for r in roots]
        self.output = os.path.abspath(output)
        self.session = session_factory(
            self.roots, self.output, settings_for, self._from_thread, poll=poll, rescan_every=rescan_every
        )
        self.before_start = before_start
        self.results: dict[str, ProjectResult] = {}
        self.changed_at: dict[str, float] = {}  # project -> time of its last change
        self.marked: set[str] = set()  # projects whose rows carry the "just changed" marker
        self.problems: tuple[Problem, ...] = ()
        self.problem_since: dict[Problem, float] = {}
        self.record_count = 0
        self.output_written: float | None = None
        self.mode_text = "starting"
        self.scan_text = "scanning"
        self.error: str | None = None
        self.updates = 0  # Updated events applied (tests wait on it)

    # --- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="panels"):
            runs = DataTable(id="runs", cursor_type="row", zebra_stripes=True)
            runs.border_title = "Runs"
            yield runs
            records = RecordsPanel(id="records")
            records.border_title = "Records"
            yield records
            extensions = DataTable(id="extensions", cursor_type="row", zebra_stripes=True)
            extensions.border_title = "AI Engine · XRT recipes · LOOM mappings"
            yield extensions
            problems = DataTable(id="problems", cursor_type="row")
            problems.border_title = "Problems"
            yield problems
        yield ProgressBar(id="scan-progress", show_eta=False)
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        runs = self.query_one("#runs", DataTable)
        runs.add_column("", key="mark", width=1)
        for label in ("group", "variant", "target", "device", "status", *FIGURE_COLUMNS, "changed"):
            runs.add_column(label, key=label)
        self.sub_title = " ".join(self.roots)
        self.query_one("#extensions").display = False
        self._refresh_status()
        self.set_interval(1.0, self._expire_marks)
        if self.before_start is not None:
            self.before_start()
        threading.Thread(target=self._session_main, name="vitis-tui-session", daemon=True).start()

    def _session_main(self) -> None:
        try:
            self.session.run()
        except Exception as exc:  # a bug must show on screen, not kill the thread silently
            self.post_message(SessionEvent(Updated({}, frozenset(), (), 0, None, error=f"collection failed: {exc!r}")))

    def _from_thread(self, event: object) -> None:
        self.post_message(SessionEvent(event))

    async def on_unmount(self) -> None:
        self.session.stop()

    # --- events from the collection threads ------------------------------------------------------

    @on(SessionEvent)
    def _session_event(self, message: SessionEvent) -> None:
        event = message.event
        if isinstance(event, Progress):
            self.scan_text = (
                f"walking: {event.count} directories"
                if event.phase == "walk"
                else f"collecting: {event.count}/{event.total} projects"
            )
            bar = self.query_one("#scan-progress", ProgressBar)
            bar.update(total=event.total, progress=event.count if event.total else 0)
        elif isinstance(event, Watching):
            self.mode_text = str(event.mode)
        elif isinstance(event, Updated):
            self._apply(event)
        self._refresh_status()

    def _apply(self, event: Updated) -> None:
        if event.partial:  # projects found so far: show them, the counts come with the end of the scan
            self.results.update(event.results)
            self._fill_runs(set(event.results), full=False)
            return
        now = time.time()
        for path in event.removed:
            self.results.pop(path, None)
            self.changed_at.pop(path, None)
            self.marked.discard(path)
        for path, result in event.results.items():
            self.results[path] = result
            if not event.initial:
                self.changed_at[path] = now
                self.marked.add(path)
        for problem in event.problems:
            self.problem_since.setdefault(problem, now)
        self.problems = event.problems
        self.record_count = event.records
        self.output_written = event.output_written
        self.error = event.error
        if event.initial:
            self.scan_text = ""
            self.query_one("#scan-progress", ProgressBar).display = False
        self._fill_runs(set(event.results) | set(event.removed), full=event.initial)
        self._fill_records()
        self._fill_extensions()
        self._fill_problems()
        self.updates += 1

    # --- tables ---------------------------------------------------------------------------------

    def run_rows(self) -> dict[str, RunRow]:
        rows = {}
        for path, result in self.results.items():
            for run in result.runs:
                rows[f"{path}|{run.target}|{run.device}"] = RunRow(path, result, run, self.changed_at.get(path, 0))
        return rows

    def _run_cells(self, row: RunRow) -> list[Text]:
        figures = run_figures(row.run.records)
        fresh = row.project in self.marked and time.time() - row.changed_at < CHANGED_MARK_SECONDS
        changed = time.strftime("%H:%M:%S", time.localtime(row.changed_at)) if row.changed_at else ""
        return [
            Text("●" if fresh else "", style="bold yellow"),
            cell(group_label(row.result)),
            cell(variant_label(row.result)),
            cell(row.run.target.removeprefix("vitis.")),
            cell(row.run.device),
            cell(statuses(row.run.records)),
            *(cell(figures[c]) for c in FIGURE_COLUMNS),
            cell(changed),
        ]

    def _fill_runs(self, touched: set[str], full: bool) -> None:
        table = self.query_one("#runs", DataTable)
        rows = self.run_rows()
        existing = {key.value for key in table.rows}
        for key in existing - set(rows):
            table.remove_row(key)
        for key in sorted(rows):
            row = rows[key]
            if key not in existing:
                table.add_row(*self._run_cells(row), key=key)
            elif full or row.project in touched:
                for column, value in zip(table.columns, self._run_cells(row)):
                    table.update_cell(key, column, value, update_width=True)
        if full or set(rows) - existing:
            table.sort("group", "variant", "target", key=lambda *cells: tuple(str(c) for c in cells))

    def _fill_records(self) -> None:
        """The records view gets a new table; its filter, sort and marks stay."""
        table = RecordTable()
        for path in sorted(self.results):
            for run in self.results[path].runs:
                for record in run.records:
                    table.add(dumps(record), record, path)
        self.records_view.set_table(table)

    def _fill_extensions(self) -> None:
        """Extension records in their own table, with their own columns; hidden while there are none."""
        table = self.query_one("#extensions", DataTable)
        table.clear(columns=True)
        for label in ("type", "group", "variant", "subject", "target", "device", "summary"):
            table.add_column(label, key=label)
        for path in sorted(self.results):
            result = self.results[path]
            for record in result.extension_records:
                payload = record[record["report_type"]]
                table.add_row(
                    cell(record["report_type"]),
                    cell("/".join(record["problem"]["group_path"])),
                    cell(variant_label(result)),
                    cell(payload.get("subject")),
                    cell(record["run"]["target"]),
                    cell(record["run"]["device"]),
                    cell(extension_summary(record)),
                )
        table.display = table.row_count > 0

    def _fill_problems(self) -> None:
        table = self.query_one("#problems", DataTable)
        table.clear(columns=True)  # columns again: their widths follow the longest cell
        for label in ("file", "reason", "since"):
            table.add_column(label, key=label)
        for problem in self.problems:
            since = time.strftime("%H:%M:%S", time.localtime(self.problem_since.get(problem, time.time())))
            table.add_row(cell(self.display_path(problem.path)), cell(problem.reason), cell(since))

    def display_path(self, path: str) -> str:
        """Paths below a watched root are shown relative to it: the long prefix says nothing."""
        for root in self.roots:
            if path.startswith(root + os.sep):
                return path[len(root) + 1 :]
        return path

    def _expire_marks(self) -> None:
        """Clear the "just changed" marker of rows whose change is old now (only recent ones are looked at)."""
        now = time.time()
        table = self.query_one("#runs", DataTable)
        expired = {p for p in self.marked if now - self.changed_at.get(p, 0) >= CHANGED_MARK_SECONDS}
        if not expired:
            return
        present = {key.value for key in table.rows}
        for key, row in self.run_rows().items():
            if row.project in expired and key in present and str(table.get_cell(key, "mark")):
                table.update_cell(key, "mark", Text(""))
        self.marked -= expired

    def _refresh_status(self) -> None:
        runs = sum(len(r.runs) for r in self.results.values())
        written = time.strftime("%H:%M:%S", time.localtime(self.output_written)) if self.output_written else "not yet"
        parts = [
            f"watch: {self.mode_text}",
            f"{len(self.results)} projects",
            f"{runs} runs",
            f"{self.record_count} records",
            f"{len(self.problems)} problems",
            f"{os.path.basename(self.output)} written {written}",
            f"root {' '.join(self.roots)}",
        ]
        if self.scan_text:
            parts.insert(1, self.scan_text)
        if self.error:
            parts.insert(0, f"ERROR {self.error}")
        self.query_one(StatusBar).update(Text(" │ ".join(parts)))

    # --- actions --------------------------------------------------------------------------------

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self._all_bindings()))

    def action_rescan(self) -> None:
        self.scan_text = "rescanning"
        self._refresh_status()
        self.session.rescan()

    def action_focus_panel(self, panel: str) -> None:
        (self.records_view if panel == "records" else self.query_one(f"#{panel}", DataTable)).focus()

    def _all_bindings(self) -> list[tuple[str, str]]:
        return [
            ("q", "Quit"),
            ("?", "Help"),
            ("r", "Rescan the whole tree now"),
            ("tab / shift+tab", "Next / previous panel"),
            ("enter", "Details of the run or record under the cursor"),
            ("escape", "Close a detail or help screen"),
            *[(k, d) for k, d in self.binding_help() if k not in ("q", "enter")],
        ]

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Rescan", "Walk the whole tree again now", self.action_rescan)
        yield SystemCommand("Help", "List every key binding", self.action_help)
        yield SystemCommand("Export", "Export the marked (or shown) records", self.action_export)
        yield SystemCommand("Copy", "Copy the marked (or shown) records to the clipboard", self.action_copy)
        for panel in ("runs", "records", "problems"):
            yield SystemCommand(
                f"Focus {panel}", f"Move to the {panel} panel", lambda p=panel: self.action_focus_panel(p)
            )

    @on(DataTable.RowSelected, "#runs")
    def _open_run(self, event: DataTable.RowSelected) -> None:
        row = self.run_rows().get(event.row_key.value)
        if row is not None:
            sources = {t: s for t, s in row.run.sources.items()}
            self.push_screen(
                DetailScreen(
                    f"{group_label(row.result)} {variant_label(row.result)} {row.run.target}",
                    row.run.records,
                    sources,
                    row.result.problems,
                    row.run.notes,
                )
            )

    @on(RecordsView.Selected)
    def _open_record(self, event: RecordsView.Selected) -> None:
        key = event.view.table.keys[event.index]
        for result in self.results.values():
            for run in result.runs:
                for record in run.records:
                    if repr(record_key(record)) == key:
                        sources = {record["report_type"]: run.sources.get(record["report_type"], [])}
                        self.push_screen(
                            DetailScreen(
                                f"{group_label(result)} {record['report_type']}",
                                [record],
                                sources,
                                result.problems,
                                run.notes,
                            )
                        )
                        return
