"""The export dialog: where, in which format; never overwrites without a second confirmation."""

from __future__ import annotations

import os

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static
from textual.worker import get_current_worker

from collectors.problems import Cancelled
from collectors.records.store import write_atomic
from collectors.records.table import FORMATS, RecordTable
from collectors.records.writers import ExportPlan, plan_export, plan_pieces
from collectors.text import visible
from tui.keys import QUIT_FROM_MODAL

FORMAT_NAMES = {"jsonl": "JSONL (original records)", "csv": "CSV (visible columns)", "md": "Markdown table"}


class ExportScreen(ModalScreen[str | None]):
    """Returns the path written, or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), QUIT_FROM_MODAL]
    AUTO_FOCUS = "#export-path"

    def __init__(
        self,
        table: RecordTable,
        rows: list[int],
        columns: list[str],
        what: str,
        fmt: str = "csv",
        directory: str | None = None,
    ) -> None:
        super().__init__()
        self.table, self.rows, self.columns, self.what = table, rows, columns, what
        self.fmt = fmt
        self.directory = directory or os.getcwd()
        self.confirmed_path: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="export"):
            yield Label(
                Text(f"Export {len(self.rows)} {self.what} (the file name's ending picks the format)"),
                id="export-title",
            )
            yield Select(
                [(name, key) for key, name in FORMAT_NAMES.items()],
                value=self.fmt,
                allow_blank=False,
                id="export-format",
            )
            yield Input(value=os.path.join(self.directory, f"records.{self.fmt}"), id="export-path")
            yield Static("", id="export-message")
            with Horizontal(id="export-buttons"):
                yield Button("Export", variant="primary", id="export-go")
                yield Button("Cancel", id="export-cancel")

    @on(Select.Changed, "#export-format")
    def _format(self, event: Select.Changed) -> None:
        path = self.query_one("#export-path", Input)
        stem, ending = os.path.splitext(path.value)
        if ending.lstrip(".") in FORMATS:
            path.value = f"{stem}.{event.value}"
        self.fmt = str(event.value)
        self.confirmed_path = None

    @on(Input.Changed, "#export-path")
    def _path_changed(self, event: Input.Changed) -> None:
        if os.path.abspath(os.path.expanduser(event.value.strip())) != self.confirmed_path:
            self.confirmed_path = None  # a different file: confirm again
            self.query_one("#export-message", Static).update("")

    @on(Input.Submitted, "#export-path")
    @on(Button.Pressed, "#export-go")
    def _go(self) -> None:
        path = os.path.abspath(os.path.expanduser(self.query_one("#export-path", Input).value.strip()))
        message = self.query_one("#export-message", Static)
        ending = os.path.splitext(path)[1].lstrip(".").lower()
        if ending in FORMATS and ending != self.fmt:  # a path ending in .jsonl/.csv/.md names its format
            self.fmt = ending
            self.query_one("#export-format", Select).value = ending
        if os.path.isdir(path):
            message.update(Text(f"{visible(path)} is a directory"))
            return
        if os.path.exists(path) and self.confirmed_path != path:
            self.confirmed_path = path
            message.update(Text(f"{visible(path)} exists: press Export again to overwrite it", style="bold yellow"))
            return
        message.update(Text(f"writing {len(self.rows)} {self.what} to {visible(path)}…"))
        # (what it writes taken from the table here, on the thread that owns it: the worker reads
        # no cache the interface fills as records arrive)
        self._write(path, plan_export(self.table, self.rows, self.columns, self.fmt))

    @work(thread=True, exclusive=True, group="export", exit_on_error=False)
    def _write(self, path: str, plan: ExportPlan) -> None:
        """Write the export in a thread, the interface answering meanwhile (a million records:
        1.5-3.5 s): closing the dialog (escape, Cancel, quitting) stops it between two pieces or
        before the file is replaced, the temporary file removed and the file left as it was."""
        worker = get_current_worker()
        try:
            write_atomic(path, (piece.encode("utf-8") for piece in plan_pieces(plan)), lambda: worker.is_cancelled)
        except Cancelled:
            return
        except Exception as exc:  # (any error: a worker's would leave the dialog saying "writing…")
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            self.app.call_from_thread(self._failed, f"cannot write {path}: {why}")
            return
        self.app.call_from_thread(self._written, path)

    def _written(self, path: str) -> None:
        if self.is_attached:
            self.dismiss(path)
        else:  # (closed in the instant the file was put in place)
            self.app.notify(visible(f"wrote {path}"), markup=False)

    def _failed(self, why: str) -> None:
        if self.is_attached:  # (closed meanwhile: nothing to say it on)
            self.query_one("#export-message", Static).update(Text(visible(why), style="bold red"))

    @on(Button.Pressed, "#export-cancel")
    def action_cancel(self) -> None:
        self.workers.cancel_group(self, "export")  # (an export under way: stopped, nothing written)
        self.dismiss(None)
