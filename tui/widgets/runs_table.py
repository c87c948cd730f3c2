"""The runs table: one row per run, a virtual (line-API) view that draws only the rows on screen.

A DataTable re-walks every row on each frame it draws after rows were added (its line offsets
and row order are rebuilt), and adding a row costs it a cursor update and a layout check: while
a 20,000-project scan filled it, the tables showed the scan four seconds after its output was
written. Here a row is its cells' text, kept by key; adding one is a dict entry and a widening
of the columns it outgrows, and a frame costs the rows it shows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from collectors.engine import ProjectResult
from collectors.text import visible

from .figures import FIGURE_COLUMNS, run_figures, statuses

CHANGED_MARK_SECONDS = 10.0  # how long a row keeps its "just changed" marker
MARK = "●"
COLUMNS = ("", "group", "variant", "target", "device", "status", *FIGURE_COLUMNS, "changed")  # "": the marker
PADDING = 1  # blank cells either side of a value, as a DataTable draws them


def group_label(result: ProjectResult) -> str:
    return "/".join(result.identity.problem["group_path"])


def variant_label(result: ProjectResult) -> str:
    variant = result.identity.implementation["variant"]
    return f"{variant['index']}_{variant['name']}"


class RunsTable(ScrollView, can_focus=True):
    """One row per run, sorted by group, variant and target; a `●` on rows that just changed."""

    BINDINGS = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("enter", "select", "Details", show=False),
    ]
    COMPONENT_CLASSES = {"runs-table--header", "runs-table--cursor", "runs-table--even-row", "runs-table--mark"}
    # (a DataTable's look)
    DEFAULT_CSS = """
    RunsTable {
        background: $surface;
        color: $foreground;
        &:focus {
            background-tint: $foreground 5%;
            & > .runs-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
        }
        &:dark > .runs-table--even-row {
            background: $surface-darken-1 40%;
        }
        & > .runs-table--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        & > .runs-table--even-row {
            background: $surface-lighten-1 50%;
        }
        & > .runs-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .runs-table--mark {
            color: $warning;
            text-style: bold;
        }
    }
    """

    @dataclass
    class Selected(Message):
        """Enter (or a click) on a row: `key` is the run's row key."""

        table: RunsTable
        key: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cells: dict[str, list[str]] = {}  # row key -> its cells' text, in COLUMNS order
        self.order: list[str] = []  # row keys as shown
        self.widths = [max(1, cell_len(label)) for label in COLUMNS]  # grow only: see _widen
        self.rows_of: dict[str, list[str]] = {}  # project -> its row keys
        self.project_of: dict[str, str] = {}  # row key -> project
        self.changed_at: dict[str, float] = {}  # project -> when it last changed (marked ones)
        self.cursor = 0  # a position in `order`
        self._removed = False  # rows left `cells`: `order` is filtered when next settled

    # --- what the tests and the dashboard read ----------------------------------------------------

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
        return self.get_row(self.rows[position])

    def get_cell(self, key: str, column: str) -> str:
        return self.cells[key][COLUMNS.index(column)]

    def width_of(self, column: str) -> int:
        return self.widths[COLUMNS.index(column)]

    # --- data ---------------------------------------------------------------------------------------

    def show_all(self, results: list[tuple[str, ProjectResult | None]], changed: bool) -> None:
        """Put each project's runs in place of its old rows; a batch that changed (not the initial
        scan's, which is sorted once when it ends) is sorted, new rows in place."""
        added = False
        for project, result in results:
            added |= self.show(project, result, changed)
        if added and changed:
            self.sort_rows()
        else:
            self._settled()

    def show(self, project: str, result: ProjectResult | None, changed: bool) -> bool:
        """One project's runs in place of its old rows; True when rows were added (show_all
        sorts and redraws once per batch)."""
        if changed:
            self.changed_at[project] = time.time()
        keys = [] if result is None else [self.key(result, run.target, run.device) for run in result.runs]
        for key in set(self.rows_of.get(project, ())) - set(keys):
            del self.cells[key]
            del self.project_of[key]
            self._removed = True
        added = False
        for key, run in zip(keys, result.runs if result is not None else ()):
            cells = self._cells(project, result, run)  # type: ignore[arg-type]
            self._widen(cells)
            if key not in self.cells:
                self.order.append(key)
                self.project_of[key] = project
                added = True
            self.cells[key] = cells
        if keys:
            self.rows_of[project] = keys
        else:
            self.rows_of.pop(project, None)
            self.changed_at.pop(project, None)
        return added

    def sort_rows(self) -> None:
        self._settle_order()
        self.order.sort(key=lambda key: self.cells[key][1:4])  # group, variant, target
        self._settled()

    def expire_marks(self) -> None:
        """Clear the marker of rows whose change is old now (only the marked ones are looked at)."""
        now = time.time()
        expired = [p for p, at in self.changed_at.items() if now - at >= CHANGED_MARK_SECONDS]
        for project in expired:
            for key in self.rows_of.get(project, ()):
                self.cells[key][0] = ""
            # the time of the change stays in its column; only the marker goes
            del self.changed_at[project]
        if expired:
            self.refresh()

    @staticmethod
    def key(result: ProjectResult, target: str, device: str) -> str:
        # a project's runs differ by target and device; the path keeps apart two projects that
        # map to one identity
        return f"{result.path}\x1f{target}\x1f{device}"

    def _cells(self, project: str, result: ProjectResult, run: Any) -> list[str]:
        """The row's text, control characters made visible (a report can hold terminal escapes)."""
        figures = run_figures(run.records)
        changed_at = self.changed_at.get(project)
        fresh = changed_at is not None and time.time() - changed_at < CHANGED_MARK_SECONDS
        values = [
            group_label(result),
            variant_label(result),
            run.target.removeprefix("vitis."),
            run.device,
            statuses(run.records),
            *(figures[c] for c in FIGURE_COLUMNS),
            time.strftime("%H:%M:%S", time.localtime(changed_at)) if changed_at else "",
        ]
        return [MARK if fresh else "", *(visible(str(v)) for v in values)]

    def _widen(self, cells: list[str]) -> None:
        """A column widens to a wider value and never narrows: a narrower value would mean
        measuring the whole column again (seconds at 20,000 runs), and a column that jumps
        back and forth is harder to read."""
        widths = self.widths
        for n, value in enumerate(cells):
            if len(value) > widths[n] or not value.isascii():
                widths[n] = max(widths[n], cell_len(value))

    def _settle_order(self) -> None:
        if self._removed:
            self.order = [key for key in self.order if key in self.cells]
            self._removed = False

    def _settled(self) -> None:
        """After rows changed: the scroll area, the cursor (kept at its position) and a redraw."""
        self._settle_order()
        self.cursor = min(self.cursor, max(0, len(self.order) - 1))
        self.virtual_size = Size(self._total_width(), len(self.order) + 1)  # (+1: the header)
        self.refresh()

    def _total_width(self) -> int:
        return sum(width + 2 * PADDING for width in self.widths)

    # --- drawing ------------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        base = self.rich_style
        if y == 0:
            return self._line(list(COLUMNS), base + self.get_component_rich_style("runs-table--header"), None)
        position = scroll_y + y - 1
        if position >= len(self.order):
            return Strip.blank(width, base)
        style = base
        if position % 2 == 0:
            style += self.get_component_rich_style("runs-table--even-row")
        if position == self.cursor:
            style += self.get_component_rich_style("runs-table--cursor")
        return self._line(self.cells[self.order[position]], style, base)

    def _line(self, cells: list[str], style: Style, mark_base: Style | None) -> Strip:
        scroll_x = self.scroll_offset.x
        width = self.size.width
        pad = " " * PADDING
        segments = []
        for n, (value, size) in enumerate(zip(cells, self.widths)):
            text = pad + value + " " * (size - cell_len(value)) + pad
            if n == 0 and value and mark_base is not None:  # the "just changed" marker
                segments.append(Segment(text, style + self.get_component_rich_style("runs-table--mark")))
            else:
                segments.append(Segment(text, style))
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        return strip.extend_cell_length(width, style)

    # --- moving and choosing ------------------------------------------------------------------------

    def _follow_cursor(self) -> None:
        shown = max(1, self.size.height - 1)
        top = self.scroll_offset.y
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False)
        elif self.cursor >= top + shown:
            self.scroll_to(y=self.cursor - shown + 1, animate=False)

    def _move_to(self, position: int) -> None:
        if self.order:
            self.cursor = max(0, min(len(self.order) - 1, position))
            self._follow_cursor()
            self.refresh()

    def action_move(self, delta: int) -> None:
        self._move_to(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(1, self.size.height - 2))

    def action_jump(self, where: int) -> None:
        self._move_to(len(self.order) - 1 if where < 0 else 0)

    def action_select(self) -> None:
        self._settle_order()
        if self.order:
            self.post_message(self.Selected(self, self.order[self.cursor]))

    def on_click(self, event: Click) -> None:
        """A click moves the cursor to the row; a click on the cursor's row opens it."""
        offset = event.get_content_offset(self)  # (None on the border)
        if offset is None or offset.y < 1 or self.scroll_offset.y + offset.y - 1 >= len(self.order):
            return
        position = self.scroll_offset.y + offset.y - 1
        if position == self.cursor:
            self.action_select()
        else:
            self._move_to(position)
