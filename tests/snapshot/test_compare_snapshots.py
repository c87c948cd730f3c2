"""SVG snapshots (pytest-textual-snapshot) of the compare matrix and the Pareto view on the producer
fixture: a fixed terminal size, no clock, nothing random. `pytest --snapshot-update` rewrites them."""

from __future__ import annotations

import json

from textual.app import App

from tui.screens.compare import CompareScreen

from ..conftest import FIXTURES, wait_until

SONNET = FIXTURES / "producers" / "c2hls__u280_sonnet_vs_gold__first35.jsonl"
SIZE = (150, 36)


class CompareHost(App[None]):
    """The compare screen over the fixture's records, on its own."""

    def on_mount(self) -> None:
        self.compare = CompareScreen([json.loads(line) for line in SONNET.read_text().splitlines()])
        self.push_screen(self.compare)


async def ready(pilot) -> None:
    await wait_until(pilot, lambda: pilot.app.compare.ready)
    await pilot.pause()


def test_matrix_snapshot(snap_compare) -> None:
    assert snap_compare(CompareHost(), terminal_size=SIZE, run_before=ready)


def test_matrix_on_lut_with_policy_one_snapshot(snap_compare) -> None:
    assert snap_compare(CompareHost(), terminal_size=SIZE, run_before=ready, press=["M"] * 5 + ["o", "down"])


def test_pareto_snapshot(snap_compare) -> None:
    async def pareto(pilot) -> None:
        await ready(pilot)
        await pilot.press("p")
        await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == "ParetoScreen")
        await pilot.pause()

    assert snap_compare(CompareHost(), terminal_size=SIZE, run_before=pareto)
