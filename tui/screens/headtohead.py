"""Head to head (`h` in the compare screen): every pair of arms as a matrix, A (row) against B
(column), over the problems of P both answered with a pass."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from collectors.compare.comparison import Comparison
from collectors.compare.headtohead import pairs
from collectors.compare.model import ORACLE
from collectors.compare.render import header
from tui.widgets.pairs_matrix import PairsMatrix


class HeadToHeadScreen(Screen[None]):
    DEFAULT_CSS = """
    HeadToHeadScreen #h2h-header { height: auto; padding: 0 1; background: $boost; }
    HeadToHeadScreen VerticalScroll { height: 1fr; }
    """
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, comparison: Comparison) -> None:
        super().__init__()
        self.comparison = comparison

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Head to head · {header(self.comparison)}"), id="h2h-header")
        with VerticalScroll():
            yield PairsMatrix(id="h2h-matrix")
        yield Footer()

    def on_mount(self) -> None:
        labels = [a.label for a in self.comparison.arms if a.arm != ORACLE]
        self.query_one(PairsMatrix).show(pairs(self.comparison), labels)
