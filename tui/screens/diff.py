"""Records side by side, field by field, with Δ and %: a candidate against its baseline (from the
compare matrix) or any two marked records (`d` in the records view)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from collectors.compare.diff import FieldRow, field_rows
from collectors.compare.render import number_text, visible

Pair = tuple[str, "dict[str, Any] | None", "dict[str, Any] | None"]  # section label, left record, right record

CHANGED = "bold"
ONLY_ONE = "yellow"


def value_text(value: Any) -> Text:
    if value is None:
        return Text("—", style="dim")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Text(number_text(value))
    return Text(visible(value))


def delta_cells(row: FieldRow) -> tuple[Text, Text]:
    if row.delta is None:
        return Text(""), Text("")
    style = "" if row.delta == 0 else "green" if row.delta < 0 else "red"  # lower is better for every figure
    sign = "+" if row.delta > 0 else ""
    percent = "" if row.percent is None else f"{sign}{row.percent:.3g}%"
    return Text(f"{sign}{number_text(row.delta)}", style=style), Text(percent, style=style)


class DiffScreen(Screen[None]):
    """Sections of paired records; each field once, its values side by side, Δ = left − right."""

    DEFAULT_CSS = """
    DiffScreen #diff-title { height: auto; padding: 0 1; }
    DiffScreen #diff-table { height: 1fr; }
    """
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("s", "toggle_same", "Show/hide equal fields"),
    ]

    def __init__(self, title: str, left: str, right: str, pairs: list[Pair]) -> None:
        super().__init__()
        self.title_text, self.left, self.right, self.pairs = title, left, right, pairs
        self.hide_same = False

    def compose(self) -> ComposeResult:
        yield Static(Text(self.title_text, style="bold"), id="diff-title")
        yield DataTable(id="diff-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("field", Text(visible(self.left)), Text(visible(self.right)), "Δ", "%")
        self._fill()
        table.focus()

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for label, left, right in self.pairs:
            table.add_row(Text(f"── {visible(label)}", style="bold underline"), Text(""), Text(""), Text(""), Text(""))
            if left is None or right is None:
                table.add_row(Text("(only one side has this record)", style=ONLY_ONE), *[Text("")] * 4)
            for row in field_rows(left, right):
                if self.hide_same and not row.differs:
                    continue
                style = CHANGED if row.differs else ""
                table.add_row(
                    Text(visible(row.field), style=style),
                    value_text(row.left),
                    value_text(row.right),
                    *delta_cells(row),
                )

    def action_toggle_same(self) -> None:
        self.hide_same = not self.hide_same
        self._fill()
