"""The trajectory of one arm on one problem: the value of each variant (optimisation step),
failed steps marked, the best so far as a line; the steps listed with exact values under it."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static

from collectors.compare.comparison import ArmKey, Comparison, ProblemKey, Step, arm_label, trajectory
from collectors.compare.render import number_text, problem_text, visible
from tui.widgets.plot import Plot

FAILED_MARKER = "x"


class TrajectoryScreen(Screen[None]):
    DEFAULT_CSS = """
    TrajectoryScreen #trajectory-header { height: auto; padding: 0 1; }
    TrajectoryScreen PlotextPlot { height: 2fr; }
    TrajectoryScreen #trajectory-steps { height: 1fr; overflow-y: auto; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("left_square_bracket", "arm(-1)", "Previous arm", key_display="["),
        Binding("right_square_bracket", "arm(1)", "Next arm", key_display="]"),
    ]

    def __init__(self, comparison: Comparison, arms: list[ArmKey], arm: ArmKey, problem: ProblemKey) -> None:
        super().__init__()
        self.comparison, self.arms, self.arm, self.problem = comparison, arms, arm, problem
        self.steps: list[Step] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="trajectory-header")
        yield Plot(id="trajectory-plot")
        yield Static("", id="trajectory-steps")
        yield Footer()

    def on_mount(self) -> None:
        self.draw()

    def draw(self) -> None:
        options = self.comparison.options
        self.steps = trajectory(self.comparison, self.arm, self.problem)
        label = visible(arm_label(self.arm, options.by))
        where = problem_text(self.comparison.spelled(self.problem))
        self.query_one("#trajectory-header", Static).update(
            Text(
                f"Trajectory: {label} on {where} · {options.metric} ({options.measure.label}) · "
                f"{len(self.steps)} steps, {sum(s.failed for s in self.steps)} without a value · [ ] other arm"
            )
        )
        self._plot()
        self.query_one("#trajectory-steps", Static).update(steps_table(self.steps))

    def _plot(self) -> None:
        widget = self.query_one(Plot)
        plt = widget.plt
        plt.clear_figure()
        plt.xlabel("step (variant index)")
        plt.ylabel(self.comparison.options.metric)
        passed = [s for s in self.steps if not s.failed and s.value is not None]
        best = [s for s in self.steps if s.best_so_far is not None]
        if best:
            plt.plot([s.index for s in best], [s.best_so_far for s in best], color="green", label="best so far")
        if passed:
            plt.scatter([s.index for s in passed], [s.value for s in passed], color="blue", marker="o", label="value")
        failed = [s for s in self.steps if s.failed]
        if failed:  # no value to place them at: on the lowest value seen (or 0)
            floor = min((s.value for s in passed if s.value is not None), default=0)
            plt.scatter([s.index for s in failed], [floor] * len(failed), color="red", marker=FAILED_MARKER)
        widget.refresh()

    def action_arm(self, delta: int) -> None:
        if self.arm in self.arms and len(self.arms) > 1:
            self.arm = self.arms[(self.arms.index(self.arm) + delta) % len(self.arms)]
            self.draw()


def steps_table(steps: list[Step]) -> Table:
    table = Table(box=None, header_style="bold", pad_edge=False)
    for title in ("step", "variant", "status", "value", "best so far"):
        table.add_column(title, justify="right" if title in ("value", "best so far") else "left")
    for step in steps:
        style = "red" if step.failed else ""
        table.add_row(
            Text(str(step.index)),
            Text(visible(step.name)),
            Text(visible(step.status) + (f" {FAILED_MARKER}" if step.failed else ""), style=style),
            Text(number_text(step.value)),
            Text(number_text(step.best_so_far)),
        )
    return table
