"""Export and copy of the records view, shared by the dashboard and browse."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding

from collectors.records.table import export
from collectors.text import visible

from .screens.export import ExportScreen
from .widgets.records_view import RecordsPanel, RecordsView

KEY_HELP = [
    ("/", "Filter (the language is in the README); enter goes back to the table"),
    ("up/down, pgup/pgdn, home/end", "Move in the records"),
    ("left/right", "Choose a column"),
    ("s", "Sort by the chosen column; again: descending; again: file order"),
    ("[ / ]", "Move the chosen column left / right"),
    ("- / +", "Hide the chosen column / show every column"),
    ("space", "Mark or unmark the record under the cursor"),
    ("a / u", "Mark every record shown / clear the marks"),
    ("e", "Export the marked records (or, with none marked, those shown): JSONL, CSV or Markdown"),
    ("y", "Copy the same to the clipboard (OSC 52), in the last export format"),
    ("enter", "The record as JSON, where it came from, its problems"),
    ("ctrl+p", "Command palette"),
    ("q", "Quit"),
    ("", ""),
    ("filter language", "terms are ANDed; `or` between terms; `-term` or `not term` negates; (...) groups"),
    ("field:value", "suite group origin variant type target device status; * and ? globs; = and != too"),
    ("number<value", "latency interval clock lut ff dsp bram uram cycles us mhz runtime; < <= > >= = !="),
    ("text", 'free text: a substring of any field; "quoted text" keeps spaces'),
    ("example", "type:hls_synth status:pass group:cfd/* lut<30000 or cycles>1e6"),
]


# the keys both apps share (each adds its own)
RECORDS_BINDINGS = [
    Binding("q", "quit", "Quit"),
    Binding("question_mark", "help", "Help", key_display="?"),
    Binding("e", "export", "Export"),
    Binding("y", "copy", "Copy"),
]


class RecordsActions:
    """Mixed into an App that has one RecordsPanel."""

    export_format = "md"

    @property
    def records_view(self) -> RecordsView:
        return self.query_one(RecordsPanel).view  # type: ignore[attr-defined]

    def _selection(self) -> tuple[list[int], str]:
        view = self.records_view
        rows = view.selection()
        return rows, "marked records" if view.marks else "records shown"

    def action_export(self) -> None:
        view = self.records_view
        rows, what = self._selection()

        screen = ExportScreen(view.table, rows, list(view.columns), what, fmt=self.export_format)

        def done(path: str | None) -> None:
            if path:
                self.export_format = screen.fmt  # `y` copies in the format last exported
                self.notify(Text(visible(f"wrote {len(rows)} {what} to {path}")))  # type: ignore[attr-defined]

        self.push_screen(screen, done)  # type: ignore[attr-defined]

    def action_copy(self) -> None:
        view = self.records_view
        rows, what = self._selection()
        self.copy_to_clipboard(export(view.table, rows, list(view.columns), self.export_format))  # type: ignore
        self.notify(Text(f"copied {len(rows)} {what} as {self.export_format}"))  # type: ignore[attr-defined]

    def binding_help(self) -> list[tuple[str, str]]:
        return KEY_HELP
