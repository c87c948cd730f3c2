"""A table of text rows by key, on the line-API base (line_table): a frame costs the rows it shows.

A DataTable re-walks every row on each frame it draws after rows were added (its line offsets
and row order are rebuilt), and adding a row costs it a cursor update and a layout check: while
a 20,000-project scan filled the runs table, the tables showed the scan 4.9 s after its output
was written. Here a row is its cells' text, kept by key; putting one is a dict entry and a
widening of the columns it outgrows. The runs, extension record and problems tables are ones
(runs_table, tables).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.geometry import Size
from textual.message import Message

from collectors.text import visible
from tui.widgets.line_table import PADDING, LineTable


class RowsView(LineTable):
    """Rows of text cells under a header of COLUMNS, by key, in `order`; a row cursor."""

    COLUMNS: ClassVar[tuple[str, ...]] = ()
    ZEBRA: ClassVar[bool] = True

    @dataclass
    class Selected(Message):
        """Enter (or a click) on a row: `key` is the row's key."""

        view: RowsView
        key: str

        @property
        def control(self) -> RowsView:
            """The view (what `on(..., selector)` matches)."""
            return self.view

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cells: dict[str, list[str]] = {}  # row key -> its cells' text, in COLUMNS order
        self.order: list[str] = []  # row keys as shown
        self.widths = [max(1, cell_len(label)) for label in self.COLUMNS]  # grow only: see _widen
        self.rows_of: dict[str, list[str]] = {}  # a group of rows (a project, a source) -> their keys
        self.group_of: dict[str, str] = {}  # row key -> its group
        self._gone: set[str] = set()  # keys removed from `cells`, still in `order` until settled
        self._settling = False  # a settling is scheduled

    # --- what the tests and the app read -------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.cells)

    @property
    def rows(self) -> list[str]:
        """The row keys, in the order shown."""
        self._settle_order()
        return list(self.order)

    def get_row(self, key: str) -> list[str]:
        return list(self.cells[key])

    def width_of(self, column: str) -> int:
        return self.widths[self.COLUMNS.index(column)]

    # --- changing rows ------------------------------------------------------------------------------

    def put_row(self, key: str, values: list[Any]) -> bool:
        """Put a row's values (made text, control characters visible: a report can hold terminal
        escapes) in place of its old ones, or after the others; True when it is new."""
        cells = [visible(str(value)) for value in values]
        self._widen(cells)
        new = key not in self.cells
        if key in self._gone:  # removed in this batch and put again: it keeps its place
            self._gone.discard(key)
        elif new:
            self.order.append(key)
        self.cells[key] = cells
        self._changed()
        return new

    def put_rows(self, group: str, rows: list[tuple[str, list[Any]]]) -> bool:
        """A group's rows (key, values) in place of its old ones, those whose key is no longer
        there removed; True when some are new."""
        keys = [key for key, _values in rows]
        for key in set(self.rows_of.get(group, ())) - set(keys):
            self.remove_row(key)
        added = False
        for key, values in rows:
            if self.put_row(key, values):
                self.group_of[key] = group
                added = True
        if keys:
            self.rows_of[group] = keys
        else:
            self.rows_of.pop(group, None)
        return added

    def remove_row(self, key: str) -> None:
        if self.cells.pop(key, None) is not None:
            self.group_of.pop(key, None)
            self._gone.add(key)
            self._changed()

    def sort_rows_by(self, columns: slice) -> None:
        """Order the rows by the text of some of their cells (a stable sort)."""
        self._settle_order()
        self.order.sort(key=lambda key: self.cells[key][columns])
        self._changed()

    def _widen(self, cells: list[str]) -> None:
        """A column widens to a wider value and never narrows: a narrower value would mean
        measuring the whole column again (seconds at 20,000 rows), and a column that jumps
        back and forth is harder to read."""
        widths = self.widths
        for n, value in enumerate(cells):
            if len(value) > widths[n] or not value.isascii():
                widths[n] = max(widths[n], cell_len(value))

    def _changed(self) -> None:
        """Rows changed: the scroll area and the cursor follow once the caller's batch is done."""
        if not self._settling:
            self._settling = True
            self.call_later(self._settle)

    def _settle_order(self) -> None:
        if self._gone:
            self.order = [key for key in self.order if key in self.cells]
            self._gone.clear()

    def _settle(self) -> None:
        """After rows changed: the scroll area, the cursor (kept at its position) and a redraw."""
        self._settling = False
        self._settle_order()
        self.cursor = min(self.cursor, max(0, len(self.order) - 1))
        self.virtual_size = Size(sum(width + 2 * PADDING for width in self.widths), len(self.order) + 1)
        self.redraw()

    # --- the line table's questions --------------------------------------------------------------

    def column_widths(self) -> list[int]:
        return self.widths

    def header(self) -> list[Text]:
        return [Text(label) for label in self.COLUMNS]

    def cursor_rows(self) -> int:
        self._settle_order()
        return len(self.order)

    def line(self, position: int) -> list[Text]:
        mark = self.style_of("mark")
        cells = self.cells[self.order[position]]
        return [Text(value, style=mark) if self.marked(n, value) else Text(value) for n, value in enumerate(cells)]

    def marked(self, column: int, value: str) -> bool:
        """Whether a cell is drawn in the marker's style (subclasses mark what just changed)."""
        return False

    def select(self) -> None:
        self.post_message(self.Selected(self, self.order[self.cursor]))
