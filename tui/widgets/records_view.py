"""The records view: a line table (line_table) over a RecordTable's rows.

The view keeps row indices into the RecordTable and draws the visible lines on demand, so
100,000 records cost what 50 do. The filter box, the "N of M" line, marks and export sit around
it in RecordsPanel.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Static

from collectors.records.query import Everything, Node, QueryError, parse
from collectors.records.table import RecordTable, RowKey, default_columns, label_of
from collectors.text import visible
from tui.widgets.line_table import LineTable

MAX_WIDTH = 40
QUICK_QUERY_SECONDS = 0.03  # a query answered this fast runs at every keystroke
QUICK_ROWS = 200_000  # ... on a table no larger than this (a first free-text query builds an index)
SETTLE_SECONDS = 0.12  # a slower one (a million records) runs once the typing pauses this long
MARK = "*"
SHIFT = "Move the chosen column left / right"


class Marks:
    """The records marked, held as rows of the view's table: marking the million rows shown is
    one update of a set of numbers (of record keys, hashing the keys took 0.35 s). A mark stays
    on its record through a reload: the new table's rows of the records marked in the old one
    are marked as they come in, by key; one the new table does not hold stays counted."""

    def __init__(self) -> None:
        self.rows: set[int] = set()  # rows of the view's table
        self._kept: set[RowKey] = set()  # marked records that the table holds no row of (yet)

    def __len__(self) -> int:
        return len(self.rows) + len(self._kept)

    def __contains__(self, row: int) -> bool:
        return row in self.rows

    def toggle(self, row: int) -> None:
        self.rows.symmetric_difference_update({row})

    def add(self, rows: Iterable[int]) -> None:
        self.rows.update(rows)

    def clear(self) -> None:
        self.rows.clear()
        self._kept.clear()

    def moved(self, old: RecordTable, new: RecordTable) -> None:
        """The view now shows `new` (a reload): each mark goes to its record's row there."""
        self._kept.update(map(old.keys.__getitem__, self.rows))
        self.rows = set()
        self.placed(new, range(len(new.keys)))

    def placed(self, table: RecordTable, rows: Iterable[int]) -> None:
        """Rows new to `table` (a batch of a load): those of records marked before are marked."""
        if self._kept:
            for row in rows:
                key = table.keys[row]
                if key in self._kept:
                    self._kept.discard(key)
                    self.rows.add(row)

    def forget(self, table: RecordTable, key: RowKey) -> None:
        """The mark of a record that is gone (before `table` drops its row)."""
        index = table.index_of(key)
        if index is not None:
            self.rows.discard(index)
        self._kept.discard(key)


def widest(values: list[str]) -> int:
    """The widest value in terminal cells (`len` where every value is ASCII: at C speed)."""
    if all(map(str.isascii, values)):
        return max(map(len, values), default=0)
    return max(map(cell_len, values), default=0)


class RecordsView(LineTable):
    """Records as rows, a marker column first; a row and a column cursor."""

    COLUMN_CURSOR = True
    BINDINGS = [
        Binding("space", "toggle_mark", "Mark", tooltip="Mark or unmark the record under the cursor"),
        Binding("a", "mark_shown", "Mark shown", tooltip="Mark every record shown"),
        Binding("u", "clear_marks", "Clear marks", tooltip="Clear the marks"),
        Binding("s", "sort", "Sort", tooltip="Sort by the chosen column; again: descending; again: file order"),
        Binding("left_square_bracket", "shift_column(-1)", "Move column left", key_display="[", tooltip=SHIFT),
        Binding("right_square_bracket", "shift_column(1)", "Move column right", key_display="]", tooltip=SHIFT),
        Binding("minus", "hide_column", "Hide column", key_display="-", tooltip="Hide the chosen column"),
        Binding("plus", "show_columns", "Show all columns", key_display="+", tooltip="Show every column"),
    ]

    @dataclass
    class Changed(Message):
        """The rows shown, the marks or the sort changed: labels around the view follow."""

        view: RecordsView

    @dataclass
    class Selected(Message):
        view: RecordsView
        index: int  # row index in the table

    def __init__(self, table: RecordTable | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.table = table if table is not None else RecordTable()
        self.query_node: Node = Everything()
        self.sort_column: str | None = None
        self.descending = False
        self.columns, self.shared = default_columns(self.table)
        self.custom_columns = False  # the user moved, hid or added a column: keep them on new data
        self.rows: list[int] = []
        self.marks = Marks()  # they survive filtering, sorting and reloads
        self._widths: dict[str, int] = {}
        self.query_seconds = 0.0  # how long the last query took
        self._recompute()

    # --- data -------------------------------------------------------------------------------------

    def set_table(self, table: RecordTable) -> None:
        """New data (a reload, a live update): marks and the cursor's record are kept."""
        current = self.current_key()
        self.marks.moved(self.table, table)
        self.table = table
        self._widths = {}
        if not self.custom_columns:  # columns follow the data: those that differ, the rest in a header line
            self.columns, self.shared = default_columns(table)
        self._recompute(keep=current)

    def data_changed(self, rows: list[int], adapt_columns: bool) -> None:
        """The table was patched in place (a live update, a batch of a load) at `rows`: columns
        widen to their new values (and with `adapt_columns` follow the data again: it costs a
        pass over every row), rows follow, cursor and marks stay."""
        if adapt_columns and not self.custom_columns:
            self.columns, self.shared = default_columns(self.table)
        run = bool(rows) and rows == list(range(rows[0], rows[-1] + 1))  # (a load's batches: a slice)
        for column, width in self._widths.items():
            if width >= MAX_WIDTH:
                continue  # (as wide as a column gets)
            values = self.table.column(column)
            changed = values[rows[0] : rows[-1] + 1] if run else map(values.__getitem__, rows)
            longest = widest(list(set(changed)))  # (each spelling measured once: 4x faster on a load)
            self._widths[column] = min(MAX_WIDTH, max(width, longest))
        self.marks.placed(self.table, rows)
        self._recompute(keep=self.current_key())

    def set_query(self, node: Node) -> None:
        current = self.current_key()
        self.query_node = node
        started = time.perf_counter()
        self._recompute(keep=current)
        self.query_seconds = time.perf_counter() - started

    def current_key(self) -> RowKey | None:
        return self.table.keys[self.rows[self.cursor]] if self.rows else None

    def _recompute(self, keep: RowKey | None = None) -> None:
        self.rows = self.table.view(self.query_node, self.sort_column, self.descending)
        index = None if keep is None else self.table.index_of(keep)
        if index is not None:
            try:
                self.cursor = self.rows.index(index)  # a C-speed scan: no per-row Python work
            except ValueError:
                pass  # the record under the cursor is filtered out: stay at the same height
        self.cursor = min(self.cursor, max(0, len(self.rows) - 1))
        self.cursor_column = min(self.cursor_column, max(0, len(self.columns) - 1))
        self.virtual_size = Size(self._total_width(), len(self.rows) + 1)
        self.follow_cursor()
        self.redraw()
        self.post_message(self.Changed(self))

    def width_of(self, column: str) -> int:
        if column not in self._widths:
            values = self.table.column(column)
            # (each spelling measured once: `+` on 100,000 records took 1.45 s, one visible() a cell)
            longest = widest(list(map(visible, set(values)))) if len(values) < 200_000 else MAX_WIDTH
            self._widths[column] = min(MAX_WIDTH, max(cell_len(label_of(column)) + 1, longest))
        return self._widths[column]

    def _total_width(self) -> int:
        return sum(width + 2 for width in self.column_widths())

    # --- the line table's questions ----------------------------------------------------------------

    def column_widths(self) -> list[int]:
        return [len(MARK), *map(self.width_of, self.columns)]

    def column_count(self) -> int:
        return len(self.columns)

    def cursor_cell(self) -> int:
        return self.cursor_column + 1  # after the marker column

    def cursor_rows(self) -> int:
        return len(self.rows)

    def right_aligned(self, column: int) -> bool:
        return column > 0 and self.table.is_numeric(self.columns[column - 1])

    def header(self) -> list[Text]:
        arrow = "▼" if self.descending else "▲"
        return [
            Text(""),
            *(Text(visible(label_of(c)) + (arrow if c == self.sort_column else "")) for c in self.columns),
        ]

    def line(self, position: int) -> list[Text]:
        index = self.rows[position]
        marked = index in self.marks
        mark = Text(MARK, style=self.style_of("mark")) if marked else Text("")
        # visible(): escapes in a value never reach the terminal; Text: values are never markup
        return [mark, *(Text(visible(self.table.column(c)[index])) for c in self.columns)]

    def select(self) -> None:
        self.post_message(self.Selected(self, self.rows[self.cursor]))

    # --- actions ----------------------------------------------------------------------------------

    def action_toggle_mark(self) -> None:
        if self.rows:
            self.marks.toggle(self.rows[self.cursor])
            self.redraw()
            self.action_move(1)
            self.post_message(self.Changed(self))

    def action_mark_shown(self) -> None:
        self.marks.add(self.rows)
        self.redraw()
        self.post_message(self.Changed(self))

    def action_clear_marks(self) -> None:
        self.marks.clear()
        self.redraw()
        self.post_message(self.Changed(self))

    def action_sort(self) -> None:
        """Sort by the highlighted column; again reverses; a third time restores file order."""
        column = self.columns[self.cursor_column]
        if self.sort_column != column:
            self.sort_column, self.descending = column, False
        elif not self.descending:
            self.descending = True
        else:
            self.sort_column, self.descending = None, False
        self._recompute(keep=self.current_key())

    def action_shift_column(self, delta: int) -> None:
        n, target = self.cursor_column, self.cursor_column + delta
        if 0 <= target < len(self.columns):
            self.columns[n], self.columns[target] = self.columns[target], self.columns[n]
            self.cursor_column = target
            self.custom_columns = True
            self._recompute(keep=self.current_key())

    def action_hide_column(self) -> None:
        if len(self.columns) > 1:
            del self.columns[self.cursor_column]
            self.custom_columns = True
            self._recompute(keep=self.current_key())

    def action_show_columns(self) -> None:
        """Bring back every hidden column (those the header line holds, meta.KEY and fields not in
        the schema included), after the visible ones."""
        self.columns += [c for c in self.table.column_keys() if c not in self.columns]
        self.custom_columns = True
        self._recompute(keep=self.current_key())

    def selection(self) -> list[int]:
        """What export and copy take: the marked rows in view order, else the rows shown."""
        if not self.marks:
            return list(self.rows)
        marked = self.marks.rows
        shown = [i for i in self.rows if i in marked]
        return shown + sorted(marked - set(shown) - self.table.dead)  # (then those hidden, in file order)


class FilterBox(Input):
    """The filter box, where every key it is given runs in the order typed. Input's editing keys
    and enter are bindings, run once the key has bubbled up to the app: after the letters typed
    behind them (ctrl+u then `x` at once cleared the `x`). And the app hands each key to what
    has the focus as it takes it: a key typed right after enter reached the box before the focus
    left it (CI: the `c` of compare went into the query). So the box runs its own bindings as it
    takes their keys, leaves for `leave_to` at once on enter and escape, and gives a key that
    came after to the app again, for what has the focus now."""

    BINDINGS = [Binding("escape", "submit", "Back to the records", show=False)]  # (the query stays, as at enter)

    def __init__(self, leave_to: Widget, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._leave_to = leave_to

    async def action_submit(self) -> None:
        await super().action_submit()
        self.screen.set_focus(self._leave_to)  # now, not as `focus()` does: after the keys already taken

    async def _on_key(self, event: events.Key) -> None:
        if self.screen.focused is not self:  # (taken before an enter or escape run since moved the focus)
            event.stop()
            event.prevent_default()
            self.app.post_message(events.Key(event.key, event.character))
            return
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()
                return
        await super()._on_key(event)


class RecordsPanel(Vertical):
    """Filter box, the records view and its "N of M" line."""

    BINDINGS = [
        Binding(
            "slash",
            "filter",
            "Filter",
            key_display="/",
            tooltip="Filter (the language is below); enter or escape goes back to the table",
            # priority: run as the app takes the key, before it hands the next keys on (a query
            # typed at once would otherwise start in the records view, where letters are bindings)
            priority=True,
        ),
    ]

    def __init__(self, table: RecordTable | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = RecordsView(table, id="records-view")
        self._settling: tuple[Timer, Node] | None = None  # a slow query waiting for the typing to pause

    def compose(self) -> ComposeResult:
        yield FilterBox(
            self.view,
            placeholder="filter: type:hls_synth status:pass group:cfd/* lut<30000   (/ to edit, enter to go back)",
            id="filter",
        )
        yield Static("", id="filter-error")
        yield Static("", id="records-shared")
        yield self.view
        yield Static("", id="records-info")

    def on_mount(self) -> None:
        self.query_one("#filter-error").display = False
        self.query_one("#filter").display = False  # shown by `/`, and while it holds a query
        self._info()

    def action_filter(self) -> None:
        box = self.query_one("#filter", Input)
        if box.has_focus:
            raise SkipAction  # a `/` typed in the box is part of the query
        box.display = True
        self.screen.set_focus(box)  # now, not as `focus()` does: after the keys already taken

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        error = self.query_one("#filter-error", Static)
        try:
            node = parse(event.value)
        except QueryError as exc:
            error.update(Text(exc.pointer(event.value)))
            error.display = True
            return  # the view stays as it was
        error.display = False
        self._stop_settling()
        if self.view.query_seconds <= QUICK_QUERY_SECONDS and len(self.view.table) <= QUICK_ROWS:
            self.view.set_query(node)
        else:  # the box takes every key at once; the view follows when the typing pauses
            self._settling = (self.set_timer(SETTLE_SECONDS, self._settled), node)

    def _settled(self) -> None:
        """The query that waited for the typing to pause (or for enter), now."""
        if self._settling is not None:
            node = self._settling[1]
            self._stop_settling()
            self.view.set_query(node)

    def _stop_settling(self) -> None:
        if self._settling is not None:
            self._settling[0].stop()
            self._settling = None

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self._settled()  # enter or escape: a query still waiting runs now (the box gave the focus back)
        box = self.query_one("#filter", Input)
        box.display = bool(box.value.strip())

    @on(RecordsView.Changed)
    def _changed(self) -> None:
        self._info()

    def _info(self) -> None:
        view = self.view
        shared = self.query_one("#records-shared", Static)
        shared.display = bool(view.shared) and not view.custom_columns
        shared.update(Text(" │ ".join(f"{label_of(k)}: {visible(v)}" for k, v in view.shared.items())))
        sort = (
            f"sorted by {label_of(view.sort_column)} {'▼' if view.descending else '▲'}"
            if view.sort_column
            else "file order"
        )
        self.query_one("#records-info", Static).update(
            Text(
                f"{len(view.rows)} of {len(view.table)} records │ {len(view.marks)} marked │ {sort} │ "
                "/ filter  space mark  a mark shown  u clear  s sort  [ ] move  - hide  + all columns  e export  y copy"
            )
        )
