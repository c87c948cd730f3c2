"""A table of text rows by key, as a virtual (line-API) view that draws only the rows on screen.

A DataTable re-walks every row on each frame it draws after rows were added (its line offsets
and row order are rebuilt), and adding a row costs it a cursor update and a layout check: while
a 20,000-project scan filled the runs table, the tables showed the scan 4.9 s after its output
was written. Here a row is its cells' text, kept by key; putting one is a dict entry and a
widening of the columns it outgrows, and a frame costs the rows it shows. The runs, extension
record and problems tables are ones (runs_table, tables); the records view is its own
(records_view).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from collectors.text import visible

PADDING = 1  # blank cells either side of a value, as a DataTable draws them
# the keys that move a row cursor (the records view's too)
CURSOR_BINDINGS = [
    Binding("up", "move(-1)", "Up", show=False),
    Binding("down", "move(1)", "Down", show=False),
    Binding("pageup", "page(-1)", "Page up", show=False),
    Binding("pagedown", "page(1)", "Page down", show=False),
    Binding("home", "jump(0)", "First", show=False),
    Binding("end", "jump(-1)", "Last", show=False),
]


def rows_shown(view: ScrollView) -> int:
    """The rows a view shows under its one-line header (and above its horizontal scrollbar)."""
    return max(1, view.scrollable_content_region.height - 1)


def scroll_to_row(view: ScrollView, row: int) -> None:
    """Scroll a view drawn under a one-line header just enough that `row` is on screen."""
    shown = rows_shown(view)
    top = view.scroll_offset.y
    if row < top:
        view.scroll_to(y=row, animate=False)
    elif row >= top + shown:
        view.scroll_to(y=row - shown + 1, animate=False)


NULL_STYLE = Style()


def solid(strip: Strip) -> Strip:
    """The strip with a style on every segment: Textual's monochrome filter (`NO_COLOR`) reads each
    segment's style and fails on a segment that has none (plain text, padding, blanks)."""
    if all(segment.style is not None for segment in strip):
        return strip
    return Strip(
        [segment if segment.style is not None else Segment(segment.text, NULL_STYLE) for segment in strip],
        strip.cell_length,
    )


class RowsView(ScrollView, can_focus=True):
    """Rows of text cells under a header of COLUMNS, by key, in `order`; a row cursor."""

    COLUMNS: ClassVar[tuple[str, ...]] = ()
    ZEBRA: ClassVar[bool] = True  # every other row lighter
    BINDINGS = [*CURSOR_BINDINGS, Binding("enter", "select", "Details", show=False)]
    COMPONENT_CLASSES = {"rows-view--header", "rows-view--cursor", "rows-view--even-row", "rows-view--mark"}
    # (a DataTable's look)
    DEFAULT_CSS = """
    RowsView {
        background: $surface;
        color: $foreground;
        &:focus {
            background-tint: $foreground 5%;
            & > .rows-view--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
        }
        &:dark > .rows-view--even-row {
            background: $surface-darken-1 40%;
        }
        & > .rows-view--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        & > .rows-view--even-row {
            background: $surface-lighten-1 50%;
        }
        & > .rows-view--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .rows-view--mark {
            color: $warning;
            text-style: bold;
        }
    }
    """

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
        self.cursor = 0  # a position in `order`
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

    def get_row_at(self, position: int) -> list[str]:
        self._settle_order()
        return self.get_row(self.order[position])

    def get_cell(self, key: str, column: str) -> str:
        return self.cells[key][self.COLUMNS.index(column)]

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
        self.refresh()

    # --- drawing ------------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        return solid(self._render_line(y))

    def _render_line(self, y: int) -> Strip:
        self._settle_order()
        base = self.rich_style
        if y == 0:
            return self._line(list(self.COLUMNS), base + self.get_component_rich_style("rows-view--header"), False)
        position = self.scroll_offset.y + y - 1
        if position >= len(self.order):
            return Strip.blank(self.size.width, base)
        style = base
        if self.ZEBRA and position % 2 == 0:
            style += self.get_component_rich_style("rows-view--even-row")
        if position == self.cursor:
            style += self.get_component_rich_style("rows-view--cursor")
        return self._line(self.cells[self.order[position]], style, True)

    def marked(self, column: int, value: str) -> bool:
        """Whether a cell is drawn in the marker's style (subclasses mark what just changed)."""
        return False

    def _line(self, cells: list[str], style: Style, is_row: bool) -> Strip:
        scroll_x, width = self.scroll_offset.x, self.size.width
        pad = " " * PADDING
        segments = []
        for n, (value, size) in enumerate(zip(cells, self.widths)):
            text = pad + value + " " * (size - cell_len(value)) + pad
            if is_row and self.marked(n, value):
                segments.append(Segment(text, style + self.get_component_rich_style("rows-view--mark")))
            else:
                segments.append(Segment(text, style))
        return Strip(segments).crop(scroll_x, scroll_x + width).extend_cell_length(width, style)

    # --- moving and choosing ------------------------------------------------------------------------

    def _move_to(self, position: int) -> None:
        if self.order:
            self.cursor = max(0, min(len(self.order) - 1, position))
            scroll_to_row(self, self.cursor)
            self.refresh()

    def action_move(self, delta: int) -> None:
        self._move_to(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self.action_move(direction * rows_shown(self))

    def action_jump(self, where: int) -> None:
        self._move_to(len(self.order) - 1 if where < 0 else 0)

    def action_select(self) -> None:
        self._settle_order()
        if self.order:
            self.post_message(self.Selected(self, self.order[self.cursor]))

    def on_click(self, event: Click) -> None:
        """A click moves the cursor to the row; a click on the cursor's row opens it."""
        offset = event.get_content_offset(self)  # (None on the border)
        if offset is None or offset.y < 1:
            return
        position = self.scroll_offset.y + offset.y - 1
        self._settle_order()
        if position >= len(self.order):
            return
        if position == self.cursor:
            self.action_select()
        else:
            self._move_to(position)
