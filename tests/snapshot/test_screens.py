"""Snapshots of the main screens (pytest-textual-snapshot): a change in what a person sees fails
here and shows the difference. `pytest --snapshot-update` records new ones after a wanted change.

Everything on screen is made deterministic: a fixed tree path, and a fixed clock for the times
the screens print.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from collectors.collect.config import Settings
from collectors.live.session import LiveSession
from tui.app import Dashboard
from tui.browse import BrowseApp

from .. import trees
from ..conftest import EXPECTED_TREE, wait_until

SIZE = (160, 48)
FIXED = time.struct_time((2026, 11, 22, 12, 0, 0, 6, 326, 0))


@pytest.fixture
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time, "localtime", lambda *_: FIXED)


@pytest.fixture
def fixed_tree() -> Path:
    base = Path("/tmp/vitis-tui-snapshot")
    shutil.rmtree(base, ignore_errors=True)
    return trees.build_all(base / "rodinia-hls")


def dashboard(root: Path) -> Dashboard:
    return Dashboard(LiveSession([str(root)], str(root.parent / "out.jsonl"), lambda r: Settings(), rescan_every=3600))


def test_dashboard(snap_compare, fixed_tree: Path, fixed_clock: None) -> None:
    app = dashboard(fixed_tree)

    async def scanned(pilot) -> None:
        await wait_until(pilot, lambda: app.scans == 1)
        app.runs.focus()

    assert snap_compare(app, terminal_size=SIZE, run_before=scanned)


def test_run_detail(snap_compare, fixed_tree: Path, fixed_clock: None) -> None:
    app = dashboard(fixed_tree)

    async def opened(pilot) -> None:
        await wait_until(pilot, lambda: app.scans == 1)
        app.runs.focus()
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")

    assert snap_compare(app, terminal_size=SIZE, run_before=opened)


def test_help(snap_compare, fixed_tree: Path, fixed_clock: None) -> None:
    app = dashboard(fixed_tree)

    async def helped(pilot) -> None:
        await wait_until(pilot, lambda: app.scans == 1)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen")

    assert snap_compare(app, terminal_size=SIZE, run_before=helped)


def test_browse_filtered_and_marked(snap_compare, fixed_clock: None) -> None:
    base = Path("/tmp/vitis-tui-snapshot-browse")
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir()
    shutil.copyfile(EXPECTED_TREE, base / "results.jsonl")
    app = BrowseApp([str(base / "results.jsonl")])

    async def filtered(pilot) -> None:
        await wait_until(pilot, lambda: app.loaded and app.checked)
        await pilot.press("slash", *"type:hls_synth", "enter")
        await wait_until(pilot, lambda: len(app.view.rows) < len(app.view.table))
        await pilot.press("space", "down", "space")
        app.load_seconds = 0.0  # the one figure that differs from run to run
        app._show_problems()

    assert snap_compare(app, terminal_size=SIZE, run_before=filtered)
