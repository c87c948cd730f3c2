"""Everyday settings and keys: `NO_COLOR`, `TERM=dumb` and every key the help lists work in
browse and the dashboard (each of them once ended the program)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App

from collectors.collect.config import Settings
from collectors.live.session import LiveSession
from tui.app import Dashboard
from tui.browse import BrowseApp

from .. import trees
from ..conftest import EXPECTED_TREE, wait_until


def browse_app(tmp_path: Path) -> BrowseApp:
    return BrowseApp([str(EXPECTED_TREE)])


def dashboard_app(tmp_path: Path) -> Dashboard:
    root = tmp_path / "root"
    trees.build_all(root)
    session = LiveSession([str(root)], str(tmp_path / "out.jsonl"), lambda r: Settings(), rescan_every=3600)
    return Dashboard(session)


def records_shown(app: App) -> int:
    return len(app.records_view.rows)  # type: ignore[attr-defined]


APPS = [pytest.param(browse_app, id="browse"), pytest.param(dashboard_app, id="watch")]


@pytest.mark.parametrize("make", APPS)
@pytest.mark.parametrize(("variable", "value"), [("NO_COLOR", "1"), ("TERM", "dumb")])
async def test_the_apps_draw_under_everyday_settings(
    make, variable: str, value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    app = make(tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: records_shown(app) > 0)
        await pilot.press("c")  # the compare screen draws too
        await pilot.pause(0.2)
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert app.is_running
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("make", APPS)
async def test_copy_copies_the_records_shown(make, tmp_path: Path) -> None:
    app = make(tmp_path)
    async with app.run_test(size=(160, 50), notifications=True) as pilot:  # the toast is drawn
        await wait_until(pilot, lambda: records_shown(app) > 0)
        copied: list[str] = []
        app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
        await pilot.press("y")
        await wait_until(pilot, lambda: len(app.screen.query("Toast")) == 1)
        await pilot.pause(0.1)
        assert app.is_running
        shown = records_shown(app)
        assert len(copied) == 1 and copied[0].count("\n") == shown + 2  # a Markdown header, its rule, the rows
    assert app.return_code in (None, 0)


# every key the help lists, each followed by escape (which closes what it opened); `q` last
HELP_KEYS = [
    ["slash", *"lut>0", "enter"],
    ["down", "up", "pagedown", "pageup", "end", "home", "right", "left"],
    ["s", "s", "s", "left_square_bracket", "right_square_bracket", "minus", "plus"],
    ["space", "a", "u", "space", "down", "space"],
    ["e"],
    ["y"],
    ["enter"],
    ["d"],
    ["question_mark"],
    ["ctrl+p"],
    ["c", "m", "M", "b", "k", "o", "x", "enter", "escape", "p", "s", "x", "y", "l", "escape", "t", "escape", "h"],
]


@pytest.mark.parametrize("make", APPS)
async def test_every_key_in_the_help_works(make, tmp_path: Path) -> None:
    app = make(tmp_path)
    app.copy_to_clipboard = lambda text: None  # (a real terminal gets OSC 52; the test's driver none)
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        await wait_until(pilot, lambda: records_shown(app) > 0)
        for keys in HELP_KEYS:
            await pilot.press(*keys)
            await pilot.pause(0.15)
            await pilot.press("escape")
            await pilot.pause(0.15)
            assert app.is_running, keys
            while len(app.screen_stack) > 1:
                app.pop_screen()
        await pilot.press("q")
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("size", [(1, 1), (5, 3), (20, 6), (160, 50)])
async def test_no_terminal_size_ends_the_plots(size: tuple[int, int], tmp_path: Path) -> None:
    app = browse_app(tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: records_shown(app) > 0)
        for plot_key in ("p", "t"):
            await pilot.press("c", plot_key)
            await pilot.pause(0.2)
            await pilot.resize_terminal(*size)
            await pilot.pause(0.2)
            await pilot.press("l")  # log axes on and off
            await pilot.pause(0.2)
            assert app.is_running, plot_key
            await pilot.resize_terminal(160, 50)
            while len(app.screen_stack) > 1:
                app.pop_screen()
            await pilot.pause(0.1)
    assert app.return_code in (None, 0)


WIDE_NAMES = ["kmeans", "kmeans_数据", "kmeans_🚀", "kmeans_e\u0301t\u0301e\u0301"]  # CJK, emoji, combining accents


async def test_wide_characters_keep_the_columns_of_the_records_view(tmp_path: Path) -> None:
    import json

    from rich.cells import cell_len

    template = json.loads(EXPECTED_TREE.read_text().splitlines()[0])
    lines = []
    for n, name in enumerate(WIDE_NAMES):
        record = json.loads(json.dumps(template))
        record["problem"]["group_path"] = [name]
        record["implementation"]["variant"]["index"] = n
        lines.append(json.dumps(record, ensure_ascii=False))
    path = tmp_path / "wide.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = BrowseApp([str(path)])
    async with app.run_test(size=(200, 20)) as pilot:
        await wait_until(pilot, lambda: records_shown(app) == len(WIDE_NAMES))
        view = app.records_view
        texts = ["".join(segment.text for segment in view.render_line(y)) for y in range(1, 1 + len(WIDE_NAMES))]
        # the variant column, after the group's, starts at the same terminal cell on every row
        starts = {cell_len(text[: text.index(f"{n}_baseline")]) for n, text in enumerate(texts)}
        assert len(starts) == 1, texts
        assert {cell_len(text) for text in texts} == {view.size.width}


@pytest.mark.parametrize("make", APPS)
async def test_the_help_and_the_palette_come_from_the_bindings(make, tmp_path: Path) -> None:
    app = make(tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: records_shown(app) > 0)
        titles = {command.title for command in app.get_system_commands(app.screen)}
        own = {"Help", "Export", "Copy", "Compare", "Diff"} | ({"Rescan"} if isinstance(app, Dashboard) else set())
        assert own <= titles
        help_keys = [key for key, _ in app.binding_help()]
        for key in ("/", "space", "[ / ]", "y", "q", "ctrl+p", "compare: m / M", "compare: enter"):
            assert key in help_keys
        assert ("r" in help_keys) == isinstance(app, Dashboard)
