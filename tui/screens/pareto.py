"""The Pareto view of a comparison: one marker per arm, the non-dominated front drawn, the
dominated points dimmed.

Plotting is textual-plotext's (the maintained Textual wrapper of plotext): log axes, scatter
and line in a widget that follows the terminal size and theme. The points are also listed
under the plot with their exact values, so nothing is read off a character grid.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static

from collectors.compare.comparison import METRICS, Comparison, ProblemKey
from collectors.compare.pareto import Front, problem_front, suite_front
from collectors.compare.render import number_text, problem_text, visible
from tui.widgets.plot import Plot

MARKERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
FRONT_COLOR = "green"
DOMINATED_COLOR = "gray"
METRIC_NAMES = list(METRICS)


class ParetoScreen(Screen[None]):
    DEFAULT_CSS = """
    ParetoScreen #pareto-header { height: auto; padding: 0 1; }
    ParetoScreen PlotextPlot { height: 2fr; }
    ParetoScreen #pareto-points { height: 1fr; overflow-y: auto; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("s", "scope", "Problem / suite"),
        Binding("x", "axis('x')", "X metric"),
        Binding("y", "axis('y')", "Y metric"),
        Binding("l", "log", "Log / linear"),
    ]

    def __init__(self, comparison: Comparison, problem: ProblemKey | None) -> None:
        super().__init__()
        self.comparison = comparison
        self.problem = problem
        self.scope = "problem" if problem is not None else "suite"
        self.x_metric = "csynth.worst" if comparison.options.measure.sized else comparison.options.metric
        self.y_metric = "lut"
        self.log_axes = True
        self.front: Front | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="pareto-header")
        yield Plot(id="pareto-plot")
        yield Static("", id="pareto-points")
        yield Footer()

    def on_mount(self) -> None:
        self.draw()

    def draw(self) -> None:
        if self.scope == "problem" and self.problem is not None:
            self.front = problem_front(self.comparison, self.problem, self.x_metric, self.y_metric)
            where = f"problem {problem_text(self.comparison.spelled(self.problem))}"
        else:
            self.front = suite_front(self.comparison)
            where = "all problems"
        self.query_one("#pareto-header", Static).update(
            Text(
                f"Pareto: {where} · x {self.front.x_label} · y {self.front.y_label} · "
                f"{'log' if self.log_axes else 'linear'} axes · s problem/suite  x/y metric  l log/linear"
            )
        )
        self._plot(self.front)
        self.query_one("#pareto-points", Static).update(points_table(self.front))

    def _plot(self, front: Front) -> None:
        widget = self.query_one(Plot)
        plt = widget.plt
        plt.clear_figure()
        if self.log_axes:
            plt.xscale("log")
            plt.yscale("log")
        plt.xlabel(front.x_label)
        plt.ylabel(front.y_label)
        on_front = [p for p in front.points if not p.dominated]
        if len(on_front) > 1:
            plt.plot([p.x for p in on_front], [p.y for p in on_front], color=FRONT_COLOR, marker="dot")
        for n, point in enumerate(front.points):
            plt.scatter(
                [point.x],
                [point.y],
                marker=MARKERS[n % len(MARKERS)],
                color=DOMINATED_COLOR if point.dominated else FRONT_COLOR,
            )
        widget.refresh()

    def action_scope(self) -> None:
        if self.problem is not None:
            self.scope = "suite" if self.scope == "problem" else "problem"
            self.draw()

    def action_axis(self, axis: str) -> None:
        if self.scope != "problem":
            self.notify("the suite view plots speedup against LUT ratio; s goes back to the problem", markup=False)
            return
        name = "x_metric" if axis == "x" else "y_metric"
        current = getattr(self, name)
        setattr(self, name, METRIC_NAMES[(METRIC_NAMES.index(current) + 1) % len(METRIC_NAMES)])
        self.draw()

    def action_log(self) -> None:
        self.log_axes = not self.log_axes
        self.draw()


def points_table(front: Front) -> Table:
    """The points with their markers and exact values; the dominated dimmed."""
    table = Table(box=None, header_style="bold", pad_edge=False)
    for title in ("", "arm", "x", "y", "front"):
        table.add_column(title)
    for n, point in enumerate(front.points):
        style = "dim" if point.dominated else FRONT_COLOR
        table.add_row(
            Text(MARKERS[n % len(MARKERS)], style=style),
            Text(visible(point.label), style=style),
            Text(_figure(point.x)),
            Text(_figure(point.y)),
            Text("dominated" if point.dominated else "on the front", style=style),
        )
    for line in front.left_out:
        table.add_row(Text("·"), Text(visible(line), style="dim"), Text(""), Text(""), Text("not plotted"))
    return table


def _figure(value: float) -> str:
    return number_text(value) if value >= 100 else f"{value:.4g}"
