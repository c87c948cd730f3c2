"""Pilot tests of the live dashboard: reports written into a watched tree show up, change, go."""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.events import Callback

from collectors.collect.config import Settings
from collectors.live.session import LiveSession
from tui.app import Dashboard
from tui.widgets.rows_view import RowsView
from tui.widgets.runs_table import RunsTable

from .. import trees
from ..conftest import EXPECTED_TREE, VITIS, place, until, wait_until

GOOD = "SherlockChristie-FFT__FFT_sol_2__opt1__syn__report__csynth.xml"
CSYNTH = "proj/solution1/syn/report/csynth.xml"


def hls_project(root: Path) -> Path:
    return trees.waiting_solution(root, "fft", "fft_1_base")


def make_app(root: Path, output: Path, poll: float | None = None) -> Dashboard:
    return Dashboard(LiveSession([str(root)], str(output), lambda r: Settings(), poll=poll, rescan_every=3600))


def jsonl(output: Path) -> list[dict]:
    try:
        return [json.loads(line) for line in output.read_text().splitlines()]
    except FileNotFoundError:
        return []


def cell(table: RowsView, key: str, column: str) -> str:
    return table.cells[key][table.COLUMNS.index(column)]


def row_at(table: RowsView, position: int) -> list[str]:
    return table.cells[table.rows[position]]


def lut_in_table(app: Dashboard) -> list[str]:
    table = app.query_one("#runs")
    return [cell(table, key, "LUT") for key in table.rows]


def devices_in_table(app: Dashboard) -> list[str]:
    table = app.query_one("#runs")
    return [cell(table, key, "device") for key in table.rows]


def watching(app: Dashboard) -> bool:
    return app.status["watch"] != "watch: starting"


def problem_reasons(app: Dashboard) -> list[str]:
    table = app.query_one("#problems")
    return [str(table.get_row(key)[1]) for key in table.rows]


@pytest.mark.parametrize("poll", [None, 0.2], ids=["inotify", "polling"])
async def test_report_appears_changes_and_goes(tmp_path: Path, poll: float | None) -> None:
    root = tmp_path / "suite"
    project = hls_project(root)
    output = tmp_path / "out.jsonl"
    app = make_app(root, output, poll)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: watching(app) and app.scans >= 1)
        assert app.status["watch"].startswith("watch: polling every 0.2 s (--poll given)" if poll else "watch: inotify")
        assert jsonl(output) == []  # a solution with no report yet: no record
        assert str(row_at(app.query_one("#runs"), 0)[5]) == "waiting"

        place(project, CSYNTH, GOOD)
        await wait_until(pilot, lambda: "15752" in lut_in_table(app))
        assert [r["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] for r in jsonl(output)] == ["15752"]
        assert str(row_at(app.query_one("#runs"), 0)[0]) == "●"  # just changed

        report = project / CSYNTH
        report.write_text(report.read_text().replace("<Part>xc7z030-sbv485-1</Part>", "<Part>[12]/x</Part>"))
        await wait_until(pilot, lambda: "[12]/x" in devices_in_table(app))  # shown literally, not as markup
        assert [r["run"]["device"] for r in jsonl(output)] == ["[12]/x"]

        report.unlink()
        await wait_until(pilot, lambda: jsonl(output) == [] and "[12]/x" not in devices_in_table(app))

        shutil.rmtree(project)
        await wait_until(pilot, lambda: app.query_one("#runs").row_count == 0)
        assert "0 projects" in str(app.query_one("#status").render())


async def test_half_written_file_is_retried(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    project = hls_project(root)
    output = tmp_path / "out.jsonl"
    app = make_app(root, output)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: watching(app))
        data = (VITIS / GOOD).read_bytes()
        report = place(project, CSYNTH, text="")
        report.write_bytes(data[:2000])  # the tool is still writing
        await wait_until(pilot, lambda: any("broken XML" in reason for reason in problem_reasons(app)))
        with report.open("ab") as out:  # it finishes, later
            out.write(data[2000:])
        await wait_until(pilot, lambda: "15752" in lut_in_table(app))
        await wait_until(pilot, lambda: not problem_reasons(app))
        assert len(jsonl(output)) == 1


async def test_moved_in_report_and_new_project_are_seen(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    project = hls_project(root)
    output = tmp_path / "out.jsonl"
    app = make_app(root, output)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: watching(app))
        staging = project / "proj/solution1/syn/report"
        staging.mkdir(parents=True)
        shutil.copyfile(VITIS / GOOD, staging / "csynth.xml.tmp")
        os.replace(staging / "csynth.xml.tmp", staging / "csynth.xml")  # atomic rename onto the name
        await wait_until(pilot, lambda: "15752" in lut_in_table(app))

        trees.runner_timeout(root)  # a new project appears below the root
        await wait_until(pilot, lambda: any(r["report_type"] == "rtl_sim" for r in jsonl(output)))
        assert sorted((r["report_type"], r[r["report_type"]]["status"]) for r in jsonl(output)) == [
            ("hls_synth", "pass"),
            ("hls_synth", "timeout"),
            ("rtl_sim", "timeout"),
        ]


async def test_keys_help_detail_and_rescan(tmp_path: Path) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    output = tmp_path / "out.jsonl"
    app = make_app(root, output)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.scans == 1)
        assert app.query_one("#runs").row_count == 8
        assert len(app.records_view.table) == 11
        assert not app.query_one("#scan-progress").display  # the scan is over: its bar is gone
        status = str(app.query_one("#status").render())
        assert "7 projects │ 8 runs │ 11 records │ 1 problems" in status  # the hw run is shown, not written
        runs = app.query_one("#runs")
        assert sorted(str(runs.get_row(k)[3]) for k in runs.rows).count("hw") == 1
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ != "HelpScreen")
        app.query_one("#runs").focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
        await pilot.press("escape")
        await pilot.press("tab")
        await wait_until(pilot, lambda: app.focused is app.records_view)
        await pilot.press("r")
        await wait_until(pilot, lambda: app.scans == 2)
        assert "rescanning" not in str(app.query_one("#status").render())  # the transient text ended
        assert output.read_bytes() == EXPECTED_TREE.read_bytes()


async def test_enter_on_a_record_opens_its_detail(tmp_path: Path) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    app = make_app(root, tmp_path / "out.jsonl")
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.scans == 1 and len(app.records_view.table) == 11)
        view = app.records_view
        view.focus()
        await pilot.press("down", "down")
        expected = view.table.record(view.rows[view.cursor])
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
        assert app.screen.records == [expected]
        assert app.screen.sources[expected["report_type"]]  # the files the record came from


async def test_a_session_started_before_the_dashboard_is_shown_whole(tmp_path: Path) -> None:
    """`watch` starts its session before Textual is imported: what it told before the dashboard
    listened waits for it, in order (here the whole initial scan)."""
    root = trees.build_all(tmp_path / "rodinia-hls")
    output = tmp_path / "out.jsonl"
    session = LiveSession([str(root)], str(output), lambda r: Settings(), rescan_every=3600)
    session.start()
    assert until(output.exists)  # the first output is written before the dashboard exists
    app = Dashboard(session)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.scans == 1 and watching(app))
        assert app.query_one("#runs").row_count == 8 and len(app.records_view.table) == 11
        assert "7 projects │ 8 runs │ 11 records │ 1 problems" in str(app.query_one("#status").render())


async def test_a_session_that_stops_is_shown_and_sets_the_exit_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fails(session: LiveSession, initial: bool) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(LiveSession, "_scan", fails)
    app = make_app(trees.build_all(tmp_path / "rodinia-hls"), tmp_path / "out.jsonl")
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.stopped)
        status = str(app.query_one("#status").render())
        assert "ERROR collection stopped: RuntimeError('disk on fire')" in status


async def test_tables_fill_once_the_first_output_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Filling the tables during the scan took the GIL from it: they fill right after the
    output is written (in messages of at most TOLD_AT_ONCE projects: see test_live)."""
    from collectors.live import session as live

    monkeypatch.setattr(live, "PARTIAL_EVERY", 0.0)  # (what is told as often as it can be)
    root = trees.build_all(tmp_path / "rodinia-hls")
    output = tmp_path / "out.jsonl"
    app = make_app(root, output)
    written_when_shown: list[bool] = []  # one per project put in the runs table
    show = RunsTable.show

    def spy(table: RunsTable, *args, **kwargs) -> bool:
        written_when_shown.append(output.exists())
        return show(table, *args, **kwargs)

    monkeypatch.setattr(RunsTable, "show", spy)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.scans == 1)
        assert app.query_one("#runs").row_count == 8
    assert written_when_shown == [True] * 7  # (7 projects)


async def test_what_comes_while_the_tables_fill_is_handled_between_messages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The initial scan's projects come in many messages at once (20,000 projects: 40): a
    keystroke must not wait behind all of them. What another thread posts while the first one
    is shown (as the driver's thread posts a key) is handled before the next one."""
    from collectors.live import session as live

    monkeypatch.setattr(live, "TOLD_AT_ONCE", 1)  # (7 projects, 7 messages)
    app = make_app(trees.build_all(tmp_path / "rodinia-hls"), tmp_path / "out.jsonl")
    order: list[str] = []
    show = RunsTable.show

    def spy(table: RunsTable, *args, **kwargs) -> bool:
        if not order:
            poster = threading.Thread(target=app.post_message, args=(Callback(lambda: order.append("key")),))
            poster.start()
            poster.join()
        order.append("project shown")
        return show(table, *args, **kwargs)

    monkeypatch.setattr(RunsTable, "show", spy)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.scans == 1)
        assert app.query_one("#runs").row_count == 8
    assert order == ["project shown", "key"] + ["project shown"] * 6


async def test_extension_records_have_their_own_panel(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    trees.aie_project(root)
    project = trees.loom_project(root)
    output = tmp_path / "out.jsonl"
    app = make_app(root, output)
    async with app.run_test(size=(200, 60)) as pilot:
        await wait_until(pilot, lambda: watching(app) and app.query_one("#extensions").row_count == 3)
        table = app.query_one("#extensions")
        assert table.display
        rows = {str(row_at(table, i)[3]): str(row_at(table, i)[6]) for i in range(table.row_count)}
        assert (
            rows["aiesimulator_output/data/output_aie.txt"]
            == "1024 lines, 4 frames, 250.0 Msps per frame, raw 250.2 Msps"
        )
        assert rows["dfg"].startswith("final: 2 nodes mapped, edges 3 routed / 1 unrouted, II 1, 15 config words")
        snapshot = project / "mapper-snapshots" / "dfg.fabric.snapshot-0002.route-repair.mapper-0002.map.json"
        snapshot.write_text(
            (project / "mapper-snapshots" / "dfg.fabric.snapshot-0001.negotiated-iter.mapper-0001.map.json").read_text()
        )
        await wait_until(
            pilot,
            lambda: "snapshot #2 route-repair" in str([str(row_at(table, i)[6]) for i in range(table.row_count)]),
        )
        ext = tmp_path / "out.ext.jsonl"
        assert sorted(json.loads(l)["report_type"] for l in ext.read_text().splitlines()) == [
            "aie_sim",
            "aie_sim",
            "cgra_map",
        ]


async def test_a_column_widens_to_a_wider_value_and_never_narrows(tmp_path: Path) -> None:
    """A changed report updates its row; a narrower value keeps the column's width (narrowing
    would mean measuring the whole column again: seconds at 20,000 runs), a wider one widens it."""
    root = tmp_path / "suite"
    reports = []
    for group in ("fft", "knn", "nw"):
        reports.append(place(trees.waiting_solution(root, group, f"{group}_1_base"), CSYNTH, GOOD))
    app = make_app(root, tmp_path / "out.jsonl")
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.scans == 1 and lut_in_table(app) == ["15752"] * 3)
        runs = app.query_one(RunsTable)
        assert runs.width_of("LUT") == 5

        reports[1].write_text(reports[1].read_text().replace("<LUT>15752</LUT>", "<LUT>7</LUT>"))
        await wait_until(pilot, lambda: sorted(lut_in_table(app)) == ["15752", "15752", "7"])
        assert runs.width_of("LUT") == 5
        assert runs.width_of("changed") == 8  # "HH:MM:SS", wider than its label

        reports[2].write_text(reports[2].read_text().replace("<LUT>15752</LUT>", "<LUT>123456789</LUT>"))
        await wait_until(pilot, lambda: "123456789" in lut_in_table(app))
        assert runs.width_of("LUT") == 9


async def test_the_runs_table_draws_escapes_visibly_and_keeps_columns_under_wide_names(tmp_path: Path) -> None:
    """The runs table draws its own lines: a terminal escape in a name is drawn as text, and a
    name of double-width characters (two cells each) does not shift the columns after it."""
    root = tmp_path / "suite"
    for group in ("g\x1b[31mx", "幅広い"):
        place(trees.waiting_solution(root, group, f"{group}_1_base"), CSYNTH, GOOD)
    app = make_app(root, tmp_path / "out.jsonl")
    async with app.run_test(size=(200, 50)) as pilot:
        runs = app.query_one(RunsTable)
        await wait_until(pilot, lambda: app.scans == 1 and runs.row_count == 2)
        lines = ["".join(segment.text for segment in runs.render_line(y)) for y in range(3)]
    assert all("\x1b" not in line for line in lines)
    assert "g\\x1b[31mx" in lines[1]
    assert runs.width_of("group") == 10  # g\x1b[31mx; 幅広い: three characters, six cells
    # the LUT column starts at the same cell on both rows, and under its label
    starts = {cell_len(line[: line.index("15752")]) for line in lines[1:]}
    assert starts == {cell_len(lines[0][: lines[0].index("LUT")])}


async def test_the_runs_table_moves_by_keys_and_clicks_and_opens_the_run_under_the_cursor(tmp_path: Path) -> None:
    """The runs table is a line-API view of its own: keys move its cursor, a click moves it to
    the row clicked, and a click on the cursor's row (or enter) opens that run's details."""
    root = trees.build_all(tmp_path / "rodinia-hls")
    app = make_app(root, tmp_path / "out.jsonl")
    async with app.run_test(size=(200, 50)) as pilot:
        runs = app.query_one(RunsTable)
        await wait_until(pilot, lambda: app.scans == 1)
        runs.focus()
        await pilot.press("end")
        assert runs.cursor == 7
        await pilot.press("up", "up")
        assert runs.cursor == 5
        await pilot.press("home", "down")
        assert runs.cursor == 1
        # the border, then the header, then the rows: the fourth row is four lines below the header
        await pilot.click(RunsTable, offset=(10, 5))
        assert runs.cursor == 3 and app.screen is app.screen_stack[0]
        await pilot.click(RunsTable, offset=(10, 5))  # again, on the cursor's row: it opens
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
        group, variant = row_at(runs, 3)[1:3]
        assert app.screen.title_text.startswith(f"{group} {variant} ")  # type: ignore[attr-defined]


async def test_the_cursor_row_stays_above_the_horizontal_scrollbar(tmp_path: Path) -> None:
    """A table wider than the screen has a horizontal scrollbar under its rows: following the
    cursor must keep the cursor's row above it, not under it (the runs table and the records
    view both hid it there)."""
    root = tmp_path / "suite"
    for n in range(40):
        place(trees.waiting_solution(root, f"group{n:02d}", f"group{n:02d}_1_base"), CSYNTH, GOOD)
    app = make_app(root, tmp_path / "out.jsonl")
    async with app.run_test(size=(50, 40)) as pilot:
        await wait_until(pilot, lambda: app.scans == 1 and len(app.records_view.rows) == 40)
        for view in (app.query_one(RunsTable), app.records_view):

            def bottom() -> int:  # the last row shown (line 0: the header)
                return view.scroll_offset.y + view.scrollable_content_region.height - 2

            view.focus()
            await pilot.press("end")
            assert view.scrollbar_size_horizontal == 1  # (the table is wider than the screen)
            assert view.cursor == 39
            await wait_until(pilot, lambda: bottom() == 39, timeout=5)  # (a scroll waits for the next refresh)
            await pilot.press("home", *["down"] * 30)
            assert view.cursor == 30
            await wait_until(pilot, lambda: bottom() == 30, timeout=5)


async def test_ctrl_c_ends_watch_as_it_ends_browse(tmp_path: Path) -> None:
    """A helper's real-terminal run: in watch, ctrl+c only showed Textual's "press ctrl+q to quit"
    (browse had its own binding); it quits both, whatever has the focus."""
    root = trees.build_all(tmp_path / "rodinia-hls")
    app = make_app(root, tmp_path / "out.jsonl")
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.scans == 1)
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code in (None, 0)
