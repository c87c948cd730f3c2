"""The comparison matrix: problems as rows, arms as columns, summary rows under them.

A line-API view (like the records view): only the lines on screen are drawn. Cell texts are
kept per problem, so a live update re-makes only the rows of the problems it touched (and the
summary rows). Cell words and colours come from collectors.compare.render, as in the CLI table.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from collectors.compare.comparison import ArmKey, Comparison, ProblemKey
from collectors.compare.render import baseline_cell, cell, problem_text, summary_lines, visible
from tui.widgets.rows_view import scroll_to_row, solid

HEADER = Style(bold=True, underline=True)
CURSOR = Style(reverse=True)
SUMMARY = Style(bold=True)
MAX_WIDTH = 40  # the problem and baseline columns
LABEL_WIDTH = 24  # an arm's label may be cut to this (its cells never are)
FIXED = 2  # the problem and baseline columns before the arms


class CompareMatrix(ScrollView, can_focus=True):
    BINDINGS = [
        Binding("up", "move(-1, 0)", "Up", show=False),
        Binding("down", "move(1, 0)", "Down", show=False),
        Binding("left", "move(0, -1)", "Left", show=False),
        Binding("right", "move(0, 1)", "Right", show=False),
        Binding("pageup", "move(-20, 0)", "Page up", show=False),
        Binding("pagedown", "move(20, 0)", "Page down", show=False),
        Binding("home", "move(-1000000, 0)", "First", show=False),
        Binding("end", "move(1000000, 0)", "Last", show=False),
        Binding("enter", "select", "Records", show=False),
    ]

    @dataclass
    class Selected(Message):
        """Enter on a cell: the problem and the arm (None on the problem or baseline column)."""

        problem: ProblemKey
        arm: ArmKey | None

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.comparison: Comparison | None = None
        self.problems: list[ProblemKey] = []
        self.arms: list[ArmKey] = []
        self.rows: dict[ProblemKey, list[Text]] = {}  # per problem: problem, baseline, one cell per arm
        self.summary: list[list[Text]] = []
        self.labels: list[Text] = []
        self.widths: list[int] = []
        self.cursor_row = 0
        self.cursor_column = FIXED  # the first arm

    # --- data ---------------------------------------------------------------------------------

    def show(self, comparison: Comparison, touched: set[ProblemKey] | None = None) -> None:
        """Show a comparison; with `touched`, re-make only those problems' rows when the arms and
        the problem list did not change (a live update), else every row."""
        arms = [a.arm for a in comparison.arms]
        problems = comparison.problems
        current = self.current()
        if touched is None or arms != self.arms or problems != self.problems:
            touched = set(problems)
            self.rows = {}
        self.comparison, self.arms, self.problems = comparison, arms, problems
        for problem in touched:
            if problem in comparison.results:
                self.rows[problem] = self._row(comparison, problem)
        self.labels = [Text("problem"), Text("baseline")] + [Text(visible(a.label)) for a in comparison.arms]
        self.summary = self._summary(comparison)
        self.widths = self._widths()
        if current is not None and current[0] in self.problems:
            self.cursor_row = self.problems.index(current[0])
        self.cursor_row = min(self.cursor_row, max(0, len(self.problems) - 1))
        self.cursor_column = min(self.cursor_column, FIXED + len(self.arms) - 1)
        self.virtual_size = Size(sum(self.widths) + 2 * len(self.widths), len(self.problems) + 2 + len(self.summary))
        self.refresh()

    @staticmethod
    def _row(comparison: Comparison, problem: ProblemKey) -> list[Text]:
        cells = [Text(text, style=style) for text, style in (cell(comparison, a.arm, problem) for a in comparison.arms)]
        return [Text(problem_text(comparison.spelled(problem))), Text(baseline_cell(comparison, problem)), *cells]

    @staticmethod
    def _summary(comparison: Comparison) -> list[list[Text]]:
        if not comparison.arms:
            return []
        per_arm = [summary_lines(a, samples=comparison.options.samples) for a in comparison.arms]
        return [
            [Text(label, style=SUMMARY), Text("")] + [Text(lines[n][1]) for lines in per_arm]
            for n, (label, _) in enumerate(per_arm[0])
        ]

    def _widths(self) -> list[int]:
        widths = [min(len(t), LABEL_WIDTH) for t in self.labels]
        for line in [*self.rows.values(), *self.summary]:
            for n, text in enumerate(line):
                widths[n] = max(widths[n], len(text))
        return [min(MAX_WIDTH, w) if n < FIXED else w for n, w in enumerate(widths)]

    def current(self) -> tuple[ProblemKey, ArmKey | None] | None:
        if not self.problems:
            return None
        column = self.cursor_column - FIXED
        return self.problems[self.cursor_row], self.arms[column] if 0 <= column < len(self.arms) else None

    # --- rendering ----------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        return solid(self._render_line(y))

    def _render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        line = y + scroll_y
        if y == 0:
            return self._strip(self.labels, HEADER, None, scroll_x, width)
        position = line - 1
        if position < len(self.problems):
            cursor = self.cursor_column if position == self.cursor_row else None
            return self._strip(self.rows.get(self.problems[position], []), None, cursor, scroll_x, width)
        position -= len(self.problems) + 1
        if position == -1:
            return Strip([Segment("─" * max(0, sum(self.widths) + 2 * len(self.widths)))]).crop(
                scroll_x, scroll_x + width
            )
        if 0 <= position < len(self.summary):
            return self._strip(self.summary[position], None, None, scroll_x, width)
        return Strip.blank(width)

    def _strip(self, cells: list[Text], style: Style | None, cursor: int | None, scroll_x: int, width: int) -> Strip:
        line = Text(no_wrap=True)
        for n, (text, size) in enumerate(zip(cells, self.widths)):
            piece = fit(text, size)
            padding = size - len(piece)
            if n >= FIXED:  # numbers on the right
                piece = Text(" " * padding) + piece
            else:
                piece.append(" " * padding)
            if n == cursor:
                piece.stylize(CURSOR)
            line.append_text(piece)
            line.append("  ")
        if style is not None:
            line.stylize(style)
        strip = Strip(line.render(self.app.console)).crop(scroll_x, scroll_x + width)
        return strip.extend_cell_length(width)

    # --- actions ------------------------------------------------------------------------------

    def action_move(self, rows: int, columns: int) -> None:
        if not self.problems:
            return
        self.cursor_row = max(0, min(len(self.problems) - 1, self.cursor_row + rows))
        self.cursor_column = max(0, min(FIXED + len(self.arms) - 1, self.cursor_column + columns))
        self._follow_cursor()
        self.refresh()

    def _follow_cursor(self) -> None:
        scroll_to_row(self, self.cursor_row)
        left = sum(w + 2 for w in self.widths[: self.cursor_column])
        right = left + (self.widths[self.cursor_column] if self.cursor_column < len(self.widths) else 0)
        if left < self.scroll_offset.x:
            self.scroll_to(x=left, animate=False)
        elif right > self.scroll_offset.x + self.size.width:
            self.scroll_to(x=right - self.size.width, animate=False)

    def action_select(self) -> None:
        current = self.current()
        if current is not None:
            self.post_message(self.Selected(*current))


def fit(text: Text, width: int) -> Text:
    """The text cut in the middle to `width` cells: arm labels and problems differ at both ends
    (`c2hls…flash__base_skills` against `c2hls…flash__no_skills`)."""
    if len(text) <= width:
        return text.copy()
    if width < 3:
        return text[:width]
    head = (width - 1) // 2
    return Text.assemble(text[:head], "…", text[len(text) - (width - 1 - head) :])
