"""The plot widget of the Pareto and trajectory screens: textual-plotext's, made safe to draw."""

from __future__ import annotations

from rich.text import Text
from textual.app import RenderResult
from textual_plotext import PlotextPlot

MIN_WIDTH, MIN_HEIGHT = 12, 5  # below this plotext has no room for its axes


class Plot(PlotextPlot):
    """A plot that says why it is not drawn instead of ending the application: plotext fails on a
    tiny area (`math domain error`) and on log axes it cannot scale (`'NoneType' object is not
    iterable`)."""

    def render(self) -> RenderResult:
        if self.size.width < MIN_WIDTH or self.size.height < MIN_HEIGHT:
            return Text("(too small to plot)", style="dim")
        try:
            return super().render()
        except Exception as error:  # plotext's own failure: the points are listed under the plot
            return Text(f"(the plot cannot be drawn: {type(error).__name__})", style="dim")
