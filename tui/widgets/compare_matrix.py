"""The comparison matrix: problems as rows, arms as columns, summary rows under them.

A line table (line_table): only the lines on screen are drawn. Cell texts are
kept per problem, so a live update re-makes only the rows of the problems it touched (and the
summary rows). Cell words and colours come from collectors.compare.render, as in the CLI table.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message

from collectors.compare.comparison import ArmKey, Comparison, ProblemKey
from collectors.compare.render import baseline_cell, cell, problem_text, summary_lines, visible
from tui.widgets.line_table import CURSOR_BINDINGS, LineTable

MAX_WIDTH = 40  # the problem and baseline columns
LABEL_WIDTH = 24  # an arm's label may be cut to this (its cells never are)
FIXED = 2  # the problem and baseline columns before the arms


class CompareMatrix(LineTable):
    """Problems as rows, arms as columns, a rule and the summary rows under them; a cell cursor."""

    COLUMN_CURSOR = True
    CELL_CURSOR = True
    SELECT = [
        Binding(
            "enter",
            "select",
            "Records",
            show=False,
            tooltip="The records behind the cell: candidate and baseline side by side, Δ and %",
        )
    ]
    BINDINGS = [*(b for b in CURSOR_BINDINGS if b.key != "enter"), *SELECT]

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
        self.cursor_column = FIXED  # the first arm
        self.intervals = False  # each geomean with its 95 % interval (`i` in the compare screen)

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
        self.summary = self._summary(comparison, self.intervals)
        self.widths = self._widths()
        if current is not None and current[0] in self.problems:
            self.cursor = self.problems.index(current[0])
        self.cursor = min(self.cursor, max(0, len(self.problems) - 1))
        self.cursor_column = min(self.cursor_column, FIXED + len(self.arms) - 1)
        self.virtual_size = Size(sum(self.widths) + 2 * len(self.widths), self.line_count() + 1)
        self.redraw()

    @staticmethod
    def _row(comparison: Comparison, problem: ProblemKey) -> list[Text]:
        cells = [Text(text, style=style) for text, style in (cell(comparison, a.arm, problem) for a in comparison.arms)]
        return [Text(problem_text(comparison.spelled(problem))), Text(baseline_cell(comparison, problem)), *cells]

    @staticmethod
    def _summary(comparison: Comparison, intervals: bool = False) -> list[list[Text]]:
        if not comparison.arms:
            return []
        per_arm = [summary_lines(a, intervals, comparison.options.samples) for a in comparison.arms]
        return [
            [Text(label), Text("")] + [Text(lines[n][1]) for lines in per_arm]
            for n, (label, _) in enumerate(per_arm[0])
        ]

    def _widths(self) -> list[int]:
        widths = [min(t.cell_len, LABEL_WIDTH) for t in self.labels]
        for line in [*self.rows.values(), *self.summary]:
            for n, text in enumerate(line):
                widths[n] = max(widths[n], text.cell_len)
        return [min(MAX_WIDTH, w) if n < FIXED else w for n, w in enumerate(widths)]

    def current(self) -> tuple[ProblemKey, ArmKey | None] | None:
        if not self.problems:
            return None
        column = self.cursor_column - FIXED
        return self.problems[self.cursor], self.arms[column] if 0 <= column < len(self.arms) else None

    # --- the line table's questions ----------------------------------------------------------------

    def column_widths(self) -> list[int]:
        return self.widths

    def cursor_rows(self) -> int:
        return len(self.problems)

    def line_count(self) -> int:
        return len(self.problems) + (1 + len(self.summary) if self.summary else 0)

    def right_aligned(self, column: int) -> bool:
        return column >= FIXED  # numbers on the right

    def header(self) -> list[Text]:
        return [cut_middle(label, width) for label, width in zip(self.labels, self.widths)]

    def line(self, position: int) -> list[Text]:
        if position < len(self.problems):
            cells = self.rows.get(self.problems[position], [])
            return [cut_middle(text, width) for text, width in zip(cells, self.widths)]
        position -= len(self.problems) + 1
        if position < 0:  # the rule between the problems and the summaries
            return [Text("─" * width) for width in self.widths]
        summary = self.style_of("summary")
        return [Text.assemble(text, style=summary) for text in self.summary[position]]

    def select(self) -> None:
        current = self.current()
        if current is not None:
            self.post_message(self.Selected(*current))


def cut_middle(text: Text, width: int) -> Text:
    """The text cut in the middle to `width` cells: arm labels and problems differ at both ends
    (`c2hls…flash__base_skills` against `c2hls…flash__no_skills`)."""
    if len(text) <= width:
        return text.copy()
    if width < 3:
        return text[:width]
    head = (width - 1) // 2
    return Text.assemble(text[:head], "…", text[len(text) - (width - 1 - head) :])
