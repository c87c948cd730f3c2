"""The one line-API table under every table of the interface: the runs, extension-record and
problems tables (rows_view), the records view and the compare matrix.

A line-API view draws only the lines on screen, so 100,000 rows cost what 50 do. This base
holds what they share: a header line over the rows, a row cursor (and, where `COLUMN_CURSOR`, a
column cursor), paging by the view's height, home and end, clicks, styles from component
classes that follow the theme, cells padded and cut in terminal cells (a wide character takes
two), and a cache of the lines drawn. A subclass says what its lines hold (`header`, `line`,
`line_count`, `column_widths`) and calls `redraw` when that changes.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.events import Click
from textual.scroll_view import ScrollView
from textual.strip import Strip

PADDING = 1  # blank cells either side of a value, as a DataTable draws them
NULL_STYLE = Style()
LINES_CACHED = 400  # a few screens: scrolling back and forth draws nothing again

MOVE = "Move the cursor (a page is the view's height)"
CURSOR_BINDINGS = [
    Binding("up", "move(-1)", "Up", show=False, tooltip=MOVE),
    Binding("down", "move(1)", "Down", show=False, tooltip=MOVE),
    Binding("pageup", "page(-1)", "Page up", show=False, tooltip=MOVE),
    Binding("pagedown", "page(1)", "Page down", show=False, tooltip=MOVE),
    Binding("home", "jump(0)", "First", show=False, tooltip=MOVE),
    Binding("end", "jump(-1)", "Last", show=False, tooltip=MOVE),
    Binding("left", "column(-1)", "Column left", show=False, tooltip="Choose a column"),
    Binding("right", "column(1)", "Column right", show=False, tooltip="Choose a column"),
    Binding(
        "enter", "select", "Details", show=False, tooltip="Details of the row: a record's JSON, source and problems"
    ),
]


def solid(strip: Strip) -> Strip:
    """The strip with a style on every segment: Textual's monochrome filter (`NO_COLOR`) reads each
    segment's style and fails on a segment that has none."""
    if all(segment.style is not None for segment in strip):
        return strip
    return Strip(
        [segment if segment.style is not None else Segment(segment.text, NULL_STYLE) for segment in strip],
        strip.cell_length,
    )


def fit(text: Text, width: int, right: bool = False) -> Text:
    """The text padded or cut (with an ellipsis) to `width` terminal cells; numbers on the right."""
    size = text.cell_len
    if size > width:
        text = text.copy()
        text.truncate(width, overflow="ellipsis")
        size = text.cell_len
    padding = " " * (width - size)
    return Text.assemble(padding, text) if right else Text.assemble(text, padding)


class LineTable(ScrollView, can_focus=True):
    """A header line, then `line_count()` lines; the cursor moves over the first `cursor_rows()`."""

    COLUMN_CURSOR: ClassVar[bool] = False  # left/right move a column cursor (else they scroll)
    CELL_CURSOR: ClassVar[bool] = False  # the cursor is one cell (else its whole row)
    ZEBRA: ClassVar[bool] = False  # every other row lighter
    BINDINGS: ClassVar[list[BindingType]] = [*CURSOR_BINDINGS]
    COMPONENT_CLASSES = {
        "line-table--header",
        "line-table--header-cursor",
        "line-table--cursor",
        "line-table--even-row",
        "line-table--mark",
        "line-table--summary",
    }
    # (a DataTable's look, in the theme's colours)
    DEFAULT_CSS = """
    LineTable {
        background: $surface;
        color: $foreground;
        &:focus {
            background-tint: $foreground 5%;
            & > .line-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .line-table--header-cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
            }
        }
        &:dark > .line-table--even-row {
            background: $surface-darken-1 40%;
        }
        & > .line-table--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        & > .line-table--header-cursor {
            text-style: bold;
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
        }
        & > .line-table--even-row {
            background: $surface-lighten-1 50%;
        }
        & > .line-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .line-table--mark {
            color: $warning;
            text-style: bold;
        }
        & > .line-table--summary {
            text-style: bold;
        }
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.cursor = 0  # a row, among the first cursor_rows()
        self.cursor_column = 0
        self._lines: LRUCache[tuple, Strip] = LRUCache(LINES_CACHED)

    # --- what a subclass says --------------------------------------------------------------------

    def column_widths(self) -> list[int]:
        """Each column's width in cells (padding not included)."""
        raise NotImplementedError

    def header(self) -> list[Text]:
        raise NotImplementedError

    def line(self, position: int) -> list[Text]:
        """The cells of the line at `position` (0: the first under the header)."""
        raise NotImplementedError

    def line_count(self) -> int:
        return self.cursor_rows()

    def cursor_rows(self) -> int:
        raise NotImplementedError

    def right_aligned(self, column: int) -> bool:
        return False

    def cursor_cell(self) -> int:
        """The cell the column cursor is on (a subclass with a leading marker column shifts it)."""
        return self.cursor_column

    def column_count(self) -> int:
        return len(self.column_widths())

    def select(self) -> None:
        """Enter, or a click on the cursor: a subclass posts its message."""

    # --- drawing -----------------------------------------------------------------------------------

    def style_of(self, component: str) -> Style:
        return self.get_component_rich_style(f"line-table--{component}")

    def redraw(self) -> None:
        """What the lines hold changed: draw them again."""
        self._lines.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()  # a new theme: every style changes

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        position = -1 if y == 0 else scroll_y + y - 1
        is_cursor = position == self.cursor
        key = (position, scroll_x, self.size.width, is_cursor, self.cursor_column, self.has_focus)
        strip = self._lines.get(key)
        if strip is None:
            strip = solid(self._draw(position, is_cursor))
            self._lines[key] = strip
        return strip

    def _draw(self, position: int, is_cursor: bool) -> Strip:
        base = self.rich_style
        if position < 0:
            return self._strip(self.header(), base + self.style_of("header"), header=True)
        if position >= self.line_count():
            return Strip.blank(self.size.width, base)
        style = base
        if self.ZEBRA and position % 2 == 0:
            style += self.style_of("even-row")
        cells = self.line(position)
        if is_cursor and position < self.cursor_rows():
            if not self.CELL_CURSOR:
                style += self.style_of("cursor")
            elif 0 <= self.cursor_cell() < len(cells):
                cells = list(cells)
                cells[self.cursor_cell()] = cells[self.cursor_cell()].copy()
                cells[self.cursor_cell()].stylize(self.style_of("cursor"))
        return self._strip(cells, style, header=False)

    def _strip(self, cells: list[Text], style: Style, header: bool) -> Strip:
        pad = " " * PADDING
        line = Text(no_wrap=True, end="")
        for n, (text, width) in enumerate(zip(cells, self.column_widths())):
            cell = fit(text, width, self.right_aligned(n) and not header)
            if header and self.COLUMN_CURSOR and n == self.cursor_cell():
                cell.stylize(self.style_of("header-cursor"))
            line.append(pad)
            line.append_text(cell)
            line.append(pad)
        left = self.scroll_offset.x
        # the line's style under the cells' own (rich's Text.render leaves a span-less text unstyled)
        segments = Segment.apply_style(line.render(self.app.console, end=""), style)
        return Strip(segments).crop_extend(left, left + self.size.width, style)

    # --- the cursor ----------------------------------------------------------------------------------

    def rows_shown(self) -> int:
        """The rows shown under the header (and above a horizontal scrollbar)."""
        return max(1, self.scrollable_content_region.height - 1)

    def move_to(self, position: int, column: int | None = None) -> None:
        rows = self.cursor_rows()
        if rows:
            self.cursor = max(0, min(rows - 1, position))
        if column is not None and self.COLUMN_CURSOR:
            self.cursor_column = max(0, min(self.column_count() - 1, column))
        self.follow_cursor()
        self.refresh()

    def follow_cursor(self) -> None:
        """Scroll just enough that the cursor's row (and column) is on screen, once the layout
        under way is done: a scrollbar that appears, or a line above the table that wraps,
        changes how many rows are shown after the key that moved the cursor."""
        self.call_after_refresh(self._follow)

    def _follow(self) -> None:
        shown, top = self.rows_shown(), self.scroll_offset.y
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + shown:
            self.scroll_to(y=self.cursor - shown + 1, animate=False, immediate=True)
        if self.COLUMN_CURSOR:
            self._follow_column()

    def _follow_column(self) -> None:
        widths = [w + 2 * PADDING for w in self.column_widths()]
        cell = self.cursor_cell()
        left = sum(widths[:cell])
        right = left + (widths[cell] if cell < len(widths) else 0)
        if left < self.scroll_offset.x:
            self.scroll_to(x=left, animate=False, immediate=True)
        elif right > self.scroll_offset.x + self.size.width:
            self.scroll_to(x=right - self.size.width, animate=False, immediate=True)

    def on_resize(self) -> None:
        self.follow_cursor()

    def watch_show_horizontal_scrollbar(self) -> None:
        """A horizontal scrollbar takes a row from the view (no resize is told): follow again."""
        self.follow_cursor()

    def action_move(self, delta: int) -> None:
        self.move_to(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self.move_to(self.cursor + direction * self.rows_shown())

    def action_jump(self, where: int) -> None:
        self.move_to(self.cursor_rows() - 1 if where < 0 else 0)

    def action_column(self, delta: int) -> None:
        if self.COLUMN_CURSOR:
            self.move_to(self.cursor, self.cursor_column + delta)
        else:
            self.scroll_to(x=self.scroll_offset.x + delta * 4, animate=False)

    def action_select(self) -> None:
        if self.cursor_rows():
            self.select()

    def column_at(self, x: int) -> int | None:
        """The column under cell `x` of the table (scrolling included)."""
        left = 0
        for n, width in enumerate(self.column_widths()):
            left += width + 2 * PADDING
            if x < left:
                return n
        return None

    def on_click(self, event: Click) -> None:
        """A click moves the cursor to the row (and column); a click on the cursor opens it."""
        offset = event.get_content_offset(self)  # (None on the border)
        if offset is None or offset.y < 1:
            return
        position = self.scroll_offset.y + offset.y - 1
        if position >= self.cursor_rows():
            return
        column = self.column_at(self.scroll_offset.x + offset.x)
        shift = self.cursor_cell() - self.cursor_column  # (a leading marker column)
        target = None if column is None or not self.COLUMN_CURSOR else column - shift
        if position == self.cursor and (target is None or target == self.cursor_column):
            self.action_select()
        else:
            self.move_to(position, target)
