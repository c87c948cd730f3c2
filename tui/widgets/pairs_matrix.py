"""The head-to-head matrix: arm A (row) against arm B (column), over the problems both passed."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from collectors.compare.headtohead import Pair
from collectors.text import visible


def oriented(pair: Pair, row_label: str) -> tuple[int, int, int, float | None, float, int]:
    """(wins, losses, ties, geomean ratio, p, problems) seen from `row_label`'s side of the pair."""
    if pair.a_label == row_label:
        return pair.wins, pair.losses, pair.ties, pair.geomean_ratio, pair.p_value, pair.problems
    ratio = None if pair.geomean_ratio is None else 1 / pair.geomean_ratio
    return pair.losses, pair.wins, pair.ties, ratio, pair.p_value, pair.problems


def pair_cell(pair: Pair, row_label: str) -> Text:
    """'3-1-0 ×1.42 p=0.62 (4)': wins-losses-ties, geomean ratio, sign-test p, problems; green when
    the row's arm wins more, red when it loses more."""
    wins, losses, ties, ratio, p, problems = oriented(pair, row_label)
    shown = "—" if ratio is None else f"×{ratio:.3g}"
    style = "green" if wins > losses else "red" if losses > wins else ""
    return Text(f"{wins}-{losses}-{ties} {shown} p={p:.2g} ({problems})", style=style)


def pairs_table(pairs: list[Pair], labels: list[str]) -> Table:
    table = Table(title=Text("row against column: wins-losses-ties (within 1 %), geomean ratio, sign-test p (n)"))
    table.add_column(Text("A \\ B"))
    for label in labels:
        table.add_column(Text(visible(label)), justify="right")
    found = {frozenset((p.a_label, p.b_label)): p for p in pairs}
    for row in labels:
        cells = [
            Text("—", style="dim") if row == column else pair_cell(found[frozenset((row, column))], row)
            for column in labels
        ]
        table.add_row(Text(visible(row)), *cells)
    return table


class PairsMatrix(Static):
    """The matrix of every pair of arms (rendered whole: a few arms, a few dozen cells)."""

    def show(self, pairs: list[Pair], labels: list[str]) -> None:
        self.pairs, self.labels = pairs, labels
        self.update(pairs_table(pairs, labels) if len(labels) > 1 else Text("one arm: no pair to compare"))
