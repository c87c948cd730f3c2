"""Pilot tests of the compare views: matrix and its keys, the records behind a cell, live updates,
Pareto, trajectory, and `c` / `d` in browse. Values are hand-computed from the producer fixture
(c2hls U280 runs: two Sonnet setups against the HLSFactory ground truth)."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input

from collectors.compare.comparison import Options
from collectors.records.model import key_of
from tui.browse import BrowseApp
from tui.screens.compare import LOAD_STEP, CompareScreen
from tui.screens.diff import DiffScreen
from tui.screens.export import ExportScreen
from tui.screens.pareto import ParetoScreen
from tui.screens.trajectory import TrajectoryScreen
from tui.widgets.compare_matrix import FIXED, CompareMatrix

from ..conftest import FIXTURES, wait_until

SONNET = FIXTURES / "producers" / "c2hls__u280_sonnet_vs_gold__first35.jsonl"
RECORDS = [json.loads(line) for line in SONNET.read_text().splitlines()]
SUITE = "hlsfactory_polybench_float_small"
BASE = ("c2hls_orchestrator", "630ce11__sonnet__flash__base_skills")
NO_SKILLS = ("c2hls_orchestrator", "630ce11__sonnet__flash__no_skills")
MM2 = (SUITE, ("2mm",))


def cells(screen: CompareScreen, problem: tuple) -> list[str]:
    return [t.plain for t in screen.query_one(CompareMatrix).rows[problem]]


def header(screen: CompareScreen) -> str:
    return str(screen.query_one("#compare-header").render())


async def opened(pilot, records: list[dict[str, Any]], options: Options | None = None) -> CompareScreen:
    screen = CompareScreen(records, options)
    pilot.app.push_screen(screen)
    await wait_until(pilot, lambda: screen.ready and pilot.app.screen is screen)
    return screen


async def test_matrix_cells_and_option_keys() -> None:
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, RECORDS)
        # 1200415 / 64177 = 18.70; 1200415 / 52627 = 22.81; 2310407 / 2888009 = 0.80
        assert cells(screen, MM2) == [
            f"{SUITE}/2mm",
            "hlsfactory_benchmark#0 baseline: 1200415",
            "18.7×",
            "22.8×",
        ]
        assert cells(screen, (SUITE, ("3mm",)))[2] == "0.8×"
        matrix = screen.query_one(CompareMatrix)
        assert matrix.rows[(SUITE, ("3mm",))][FIXED].style == "red"
        assert matrix.rows[MM2][FIXED].style == "green"
        assert [s[0].plain for s in matrix.summary][0] == "geomean (n/N)"
        assert [s[FIXED].plain for s in matrix.summary][:2] == ["2.24× (4/4)", "0.8×–18.7×"]
        text = header(screen)
        assert "metric csynth.worst" in text and "baseline benchmark · pick final · policy exclude · common off" in text
        assert "4 problems, 4 with a baseline · 2 arms" in text
        await pilot.press("m", "m", "m", "m")  # worst, avg, best, time -> cosim.cycles
        await wait_until(pilot, lambda: screen.settled)
        assert screen.options.metric == "cosim.cycles" and "metric cosim.cycles" in header(screen)
        assert cells(screen, (SUITE, ("bicg",)))[FIXED] == "missing"  # base_skills has no cosim of bicg
        await pilot.press("M", "M", "M", "M", "b", "k", "o", "x")
        await wait_until(pilot, lambda: screen.settled)
        assert screen.options == Options("csynth.worst", "best", "best", "one", True)
        assert "baseline best · pick best · policy one · common on" in header(screen)
        await pilot.press("b")  # best -> the first explicit arm: the Sonnet base_skills setup
        await wait_until(pilot, lambda: screen.settled)
        assert screen.options.baseline == "c2hls_orchestrator@630ce11__sonnet__flash__base_skills"
        assert cells(screen, MM2)[1] == "c2hls_orchestrator#0 final: 64177"


async def test_enter_opens_candidate_and_baseline_side_by_side() -> None:
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, RECORDS)
        await pilot.press("enter")  # the cursor starts on the first arm of the first problem
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, DiffScreen))
        diff = pilot.app.screen
        assert "2mm · csynth.worst · 18.7×" in diff.title_text
        assert (
            "base_skills #0 final (64177)" in diff.title_text
            and "hlsfactory_benchmark #0 baseline (1200415)" in diff.title_text
        )
        table = diff.query_one("#diff-table")
        rows = [[c.plain for c in table.get_row_at(n)] for n in range(table.row_count)]
        worst = next(r for r in rows if r[0].endswith("SummaryOfOverallLatency.Worst-caseLatency"))
        # Δ = 64177 - 1200415 = -1136238; % = -1136238 / 1200415 = -94.65 %
        assert worst == [
            "hls_synth.PerformanceEstimates.SummaryOfOverallLatency.Worst-caseLatency",
            "64177",
            "1200415",
            "-1136238",
            "-94.7%",
        ]
        assert [r[0] for r in rows if r[0].startswith("── ")] == [
            "── hls_synth · vitis.csynth",
            "── sw_run · vitis.csim",
            "── rtl_sim · vitis.cosim",
        ]
        count = table.row_count
        await pilot.press("s")  # equal fields hidden
        assert table.row_count < count
        await pilot.press("escape")
        assert pilot.app.screen is screen


async def test_live_update_patches_only_the_touched_problem() -> None:
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, RECORDS)
        matrix = screen.query_one(CompareMatrix)
        atax_before = matrix.rows[(SUITE, ("atax",))]
        faster = copy.deepcopy(next(r for r in RECORDS if r["report_type"] == "hls_synth" and _is(r, "2mm", BASE)))
        faster["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] = "12004"
        screen.records_changed([faster], [])  # the same key: replaces the 64177 record
        assert cells(screen, MM2)[FIXED] == "100×"  # 1200415 / 12004 = 100.003
        assert matrix.rows[(SUITE, ("atax",))] is atax_before  # not re-made
        assert screen.last_update_seconds > 0
        screen.records_changed([], [key_of(faster)])  # its synthesis record goes: no value any more
        assert cells(screen, MM2)[FIXED] == "missing"
        new_arm = copy.deepcopy(faster)
        new_arm["implementation"]["origin_version"] = "v2"
        screen.records_changed([new_arm], [])  # a third arm appears: every row is made again
        assert len(matrix.arms) == 3 and "3 arms" in header(screen)


def _is(record: dict[str, Any], group: str, arm: tuple[str, str]) -> bool:
    impl = record["implementation"]
    return record["problem"]["group_path"] == [group] and (impl["origin"], impl["origin_version"]) == arm


async def test_updates_before_the_load_ends_are_kept() -> None:
    async with App().run_test(size=(200, 50)) as pilot:
        gate: list[dict[str, Any]] = []

        def slow() -> list[dict[str, Any]]:
            return RECORDS + gate

        screen = CompareScreen(slow)
        screen.records_changed([r for r in RECORDS if _is(r, "2mm", NO_SKILLS)], [])  # queued: not mounted yet
        assert screen.pending
        pilot.app.push_screen(screen)
        await wait_until(pilot, lambda: screen.ready)
        assert not screen.pending and cells(screen, MM2)[FIXED + 1] == "22.8×"


async def test_pareto_problem_and_suite() -> None:
    async with App().run_test(size=(200, 50)) as pilot:
        await opened(pilot, RECORDS)
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ParetoScreen))
        pareto = pilot.app.screen
        front = pareto.front
        # 2mm: no_skills (52627 cycles, 172485 LUT), base_skills (64177, 168709), baseline (1200415, 7362):
        # none is both faster and smaller than another, so all three are on the front
        assert [(p.label.split("__")[-1], p.x, p.y, p.dominated) for p in front.points] == [
            ("no_skills", 52627, 172485, False),
            ("base_skills", 64177, 168709, False),
            ("baseline hlsfactory_benchmark#0", 1200415, 7362, False),
        ]
        await pilot.press("y")  # LUT -> FF on the y axis
        assert pareto.y_metric == "ff" and "FF" in pareto.front.y_label
        await pilot.press("s")  # the suite: geomean speedup against geomean LUT ratio per arm
        suite = pareto.front
        assert suite.y_lower is False
        by_arm = {p.label.split("__")[-1]: (round(p.x, 3), round(p.y, 3), p.dominated) for p in suite.points}
        # speedups 2.24 / 5.64 (the matrix); LUT ratios: geomean(22.9, 0.965, 9.2, 9.37) and
        # geomean(23.4, 18, 9.2, 9.64): no_skills is faster but bigger, both on the front
        assert by_arm["no_skills"][1] > by_arm["base_skills"][1] and by_arm["no_skills"][0] > by_arm["base_skills"][0]
        assert not any(d for _, _, d in by_arm.values())
        assert "all problems" in str(pareto.query_one("#pareto-header").render())


def _steps_records() -> list[dict[str, Any]]:
    """One problem: the benchmark (variant 0) and an agent's three steps, the second failing."""
    template = next(r for r in RECORDS if r["report_type"] == "hls_synth" and _is(r, "2mm", BASE))
    out = []
    for origin, index, status, latency in (
        ("hlsfactory_benchmark", 0, "pass", "1000"),
        ("agent", 0, "pass", "800"),
        ("agent", 1, "fail", None),
        ("agent", 2, "pass", "900"),
        ("agent", 3, "pass", "400"),
    ):
        record = copy.deepcopy(template)
        record["implementation"].update(
            origin=origin, origin_version=None, variant={"index": index, "name": f"s{index}"}
        )
        record["hls_synth"]["status"] = status
        record["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] = latency
        out.append(record)
    return out


async def test_trajectory_of_an_arm() -> None:
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, _steps_records())
        assert cells(screen, MM2)[FIXED] == "2.5×"  # final step: 1000 / 400
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, TrajectoryScreen))
        steps = pilot.app.screen.steps
        assert [(s.index, s.status, s.value, s.best_so_far, s.failed) for s in steps] == [
            (0, "pass", 800, 800, False),
            (1, "fail", None, 800, True),
            (2, "pass", 900, 800, False),
            (3, "pass", 400, 400, False),
        ]
        assert "4 steps, 1 without a value" in str(pilot.app.screen.query_one("#trajectory-header").render())


async def test_trajectory_needs_several_variants() -> None:
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, RECORDS)
        await pilot.press("t")
        await wait_until(pilot, lambda: bool(pilot.app._notifications))
        assert pilot.app.screen is screen
        assert "several variants of hlsfactory_polybench_float_small/2mm" in list(pilot.app._notifications)[0].message


async def test_browse_c_opens_the_comparison_and_d_diffs_two_marks(tmp_path: Path) -> None:
    app = BrowseApp([str(SONNET)])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        assert {"Compare", "Diff"} <= {c.title for c in app.get_system_commands(app.screen)}
        await pilot.press("d")  # nothing marked: a notice, no screen
        await wait_until(pilot, lambda: bool(app._notifications))
        assert "mark exactly two records" in list(app._notifications)[0].message
        await pilot.press("space", "space", "d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen))
        first, second = (app.view.table.record(i) for i in app.view.selection())
        assert app.screen.pairs == [("A against B (Δ = A − B)", first, second)]
        await pilot.press("escape", "c")
        await wait_until(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.ready)
        assert cells(app.screen, MM2)[FIXED:] == ["18.7×", "22.8×"]
        assert app.compare_screen is app.screen
        more = copy.deepcopy(RECORDS[0])
        more["implementation"]["origin_version"] = "later"
        app.compare_records_changed([more], [])
        assert len(app.screen.query_one(CompareMatrix).arms) == 3


async def test_browse_compare_follows_the_filter_and_leaves_refused_lines_out(tmp_path: Path) -> None:
    from collectors.records.query import parse

    refused = copy.deepcopy(RECORDS[0])  # no_skills' 2mm synthesis, variant 1, 10 cycles: refused
    refused["implementation"]["variant"] = {"index": 1, "name": "refused"}
    refused["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] = "10"
    del refused["hls_synth"]["UserAssignments"]["Part"]
    tied = copy.deepcopy(next(r for r in RECORDS if r["problem"]["group_path"] == ["3mm"]))
    tied["implementation"]["variant"]["name"] = "again"  # a second variant at index 0 of that arm
    data = tmp_path / "r.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in [*RECORDS, refused, tied]))
    app = BrowseApp([str(data)])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and app.checked)
        app.view.set_query(parse("-group:bicg"))
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.ready)
        screen = app.screen
        matrix = screen.query_one(CompareMatrix)
        assert [p[1] for p in matrix.problems] == [("2mm",), ("3mm",), ("atax",)]  # bicg filtered out
        assert cells(screen, MM2)[FIXED:] == ["18.7×", "22.8×"]  # not 1200415 / 10
        text = header(screen)
        assert "filter -group:bicg" in text
        assert "⚠ hlsfactory_polybench_float_small/3mm: arm c2hls_orchestrator@" in text
        assert "(tie)" in "".join(cells(screen, (SUITE, ("3mm",)))[FIXED:])
        outside = copy.deepcopy(next(r for r in RECORDS if r["problem"]["group_path"] == ["bicg"]))
        outside["implementation"]["origin_version"] = "later"
        app.compare_records_changed([outside], [])  # a live record the filter leaves out
        assert len(matrix.arms) == 2 and ("bicg",) not in [p[1] for p in matrix.problems]


async def test_h_shows_every_pair_of_arms_as_a_matrix() -> None:
    from tui.screens.headtohead import HeadToHeadScreen
    from tui.widgets.pairs_matrix import PairsMatrix, pair_cell

    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, RECORDS)
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HeadToHeadScreen))
        matrix = pilot.app.screen.query_one(PairsMatrix)
        [pair] = matrix.pairs
        base, no = (f"{o}@{v}" for o, v in (BASE, NO_SKILLS))
        # base_skills over no_skills: 2mm 18.70/22.81 and 3mm 0.7997/26.59 lost, atax and bicg equal
        ratio = ((1200415 / 64177) / (1200415 / 52627) * (2310407 / 2889043) / (2310407 / 86887)) ** 0.25
        assert pair_cell(pair, base).plain == f"0-2-2 ×{ratio:.3g} p=0.5 (4)"  # ×0.396; p = 2 * 1 / 2^2
        assert pair_cell(pair, base).style == "red"
        assert pair_cell(pair, no).plain == f"2-0-2 ×{1 / ratio:.3g} p=0.5 (4)"
        await pilot.press("escape")
        assert pilot.app.screen is screen


async def test_v_adds_the_virtual_best_and_i_the_intervals() -> None:
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, RECORDS)
        await pilot.press("v")
        await wait_until(pilot, lambda: screen.settled)
        assert screen.options.oracle and "virtual best" in header(screen)
        matrix = screen.query_one(CompareMatrix)
        assert matrix.labels[-1].plain == "virtual best"
        assert cells(screen, MM2)[-1] == f"22.8× {NO_SKILLS[0]}@{NO_SKILLS[1]}"  # 22.8 beats 18.7
        assert [s[0].plain for s in matrix.summary][0] == "geomean (n/N)"
        await pilot.press("i")
        await wait_until(pilot, lambda: screen.settled)
        assert [s[0].plain for s in matrix.summary][0] == "geomean [95% CI] (n/N)"
        assert matrix.summary[0][FIXED].plain == "2.24× [0.902-9.59] (4/4)"  # as the table shows it
        await pilot.press("v", "i")
        await wait_until(pilot, lambda: screen.settled)
        assert not screen.options.oracle and len(matrix.arms) == 2
        assert [s[0].plain for s in matrix.summary][0] == "geomean (n/N)"


async def test_closing_the_comparison_while_it_loads_stops_reading() -> None:
    """Issue 26 (quit means quit): the load is a worker thread, which nothing can stop from
    outside, and the process waits for it at exit (`ctrl+q` during the load of 100,000 records:
    5.2 s). Closed, the screen's worker is cancelled and its load stops within LOAD_STEP
    records; it shows nothing."""
    async with App().run_test(size=(200, 50)) as pilot:
        pulled: list[int] = []
        reading, closed, ended = threading.Event(), threading.Event(), threading.Event()

        def endless() -> Iterator[dict[str, Any]]:
            try:
                for number in range(300_000):
                    if number == 100:
                        reading.set()
                        closed.wait(10)
                    pulled.append(number)
                    yield RECORDS[number % len(RECORDS)]
            finally:
                ended.set()  # (read to its end, or let go by the load)

        screen = CompareScreen(endless)
        pilot.app.push_screen(screen)
        await wait_until(pilot, reading.is_set)
        (load,) = [w for w in pilot.app.workers if w.group == "compare-load"]
        pilot.app.pop_screen()
        await wait_until(pilot, lambda: load.is_cancelled)
        closed.set()
        await wait_until(pilot, ended.is_set)
        assert len(pulled) <= LOAD_STEP and not screen.ready


async def test_a_switch_is_recomputed_beside_the_interface_and_a_newer_one_replaces_it(monkeypatch) -> None:
    """Issue 26 (quit means quit, every keystroke answered): a metric switch over 100,000
    candidates took 0.45 s on the UI thread (no key read meanwhile, `ctrl+q` 0.54 s). It runs
    in a worker now: held inside its first problem here, the interface still answers; a live
    change waits for it; a second switch cancels it, and the screen shows only the last."""
    from collectors.compare import comparison

    gate = threading.Event()
    gate.set()
    computed = comparison.compare_problem

    def held(*args: Any) -> Any:
        assert gate.wait(10)
        return computed(*args)

    monkeypatch.setattr(comparison, "compare_problem", held)
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, RECORDS)
        gate.clear()
        await pilot.press("m")  # worst -> avg, held in its worker
        assert screen.options.metric == "csynth.avg" and "metric csynth.worst" in header(screen)
        assert not screen.settled
        faster = copy.deepcopy(next(r for r in RECORDS if r["report_type"] == "hls_synth" and _is(r, "2mm", BASE)))
        faster["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Best-caseLatency"] = "12004"
        screen.records_changed([faster], [])  # kept until the switch is on the screen
        assert screen.pending
        (first,) = [w for w in pilot.app.workers if w.group == "compare-switch"]
        await pilot.press("m")  # avg -> best: the first is cancelled
        assert first.is_cancelled
        gate.set()
        await wait_until(pilot, lambda: screen.settled)
        assert "metric csynth.best" in header(screen) and not screen.pending
        # 2mm's best case: the baseline's 1200415 / the changed 12004 = 100.003
        assert cells(screen, MM2)[FIXED] == "100×"


async def test_the_intervals_are_worked_out_beside_the_interface(monkeypatch) -> None:
    """Issue 26 (every keystroke answered, quit means quit): each arm's bootstrap interval costs
    about 1 s at 1,000 problems, and `i` worked them out on the UI thread (as did every switch
    while they were shown). Now in the switch's worker: held there, the interface answers, and
    a live change with the intervals shown goes through that worker too."""
    from collectors.compare import summary

    gate, threads = threading.Event(), []
    computed = summary.bootstrap_cis

    def held(lists: list[list[float]], stopped: Any = None) -> Any:
        threads.append(threading.current_thread())
        assert gate.wait(10)
        return computed(lists, stopped)

    monkeypatch.setattr(summary, "bootstrap_cis", held)
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, RECORDS)
        matrix = screen.query_one(CompareMatrix)
        await pilot.press("i")
        await wait_until(pilot, lambda: bool(threads))
        assert screen.intervals and [s[0].plain for s in matrix.summary][0] == "geomean (n/N)"  # not yet
        gate.set()
        await wait_until(pilot, lambda: screen.settled)
        assert matrix.summary[0][FIXED].plain == "2.24× [0.902-9.59] (4/4)"
        assert threading.main_thread() not in threads
        faster = copy.deepcopy(next(r for r in RECORDS if r["report_type"] == "hls_synth" and _is(r, "2mm", BASE)))
        faster["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] = "12004"
        screen.records_changed([faster], [])
        await wait_until(pilot, lambda: screen.settled and cells(screen, MM2)[FIXED] == "100×")
        assert threading.main_thread() not in threads and len(threads) == 2  # (every arm's at once, twice)


def _faster_2mm() -> dict[str, Any]:
    """2mm's base_skills synthesis record with a worst case of 12004 (1200415 / 12004: 100×)."""
    faster = copy.deepcopy(next(r for r in RECORDS if r["report_type"] == "hls_synth" and _is(r, "2mm", BASE)))
    faster["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] = "12004"
    return faster


async def test_a_negative_figure_has_no_ratio_and_the_switch_to_it_settles() -> None:
    """The review of the switch worker: a record the contract admits with an Average-caseLatency
    of "-1" gave a negative speedup, whose geomean raised in the worker: the screen never
    settled (the old metric shown, live changes held for ever). A negative figure is no value (nor,
    by pick or rule `best`, the best one)."""
    odd = copy.deepcopy(next(r for r in RECORDS if r["report_type"] == "hls_synth" and _is(r, "2mm", BASE)))
    odd["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Average-caseLatency"] = "-1"
    records = [r for r in RECORDS if not (r["report_type"] == "hls_synth" and _is(r, "2mm", BASE))] + [odd]
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, records)
        await pilot.press("m")  # csynth.worst -> csynth.avg
        await wait_until(pilot, lambda: screen.settled)
        assert "metric csynth.avg" in header(screen)
        assert cells(screen, MM2)[FIXED] == "no value"


async def test_an_error_in_a_switch_is_said_and_the_screen_goes_on(monkeypatch) -> None:
    """Whatever goes wrong in the switch's worker is a notification; the screen settles and takes
    the live changes that waited (they waited for ever: nothing was said)."""
    from collectors.compare import comparison

    computed, armed, gate = comparison.compare_problem, threading.Event(), threading.Event()

    def flaky(*args: Any) -> Any:
        if armed.is_set():  # (once)
            assert gate.wait(10)
            armed.clear()
            raise ValueError("boom")
        return computed(*args)

    monkeypatch.setattr(comparison, "compare_problem", flaky)
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, RECORDS)
        armed.set()
        await pilot.press("m")  # held in its worker, then it fails
        screen.records_changed([_faster_2mm()], [])  # waits for the switch
        gate.set()
        await wait_until(pilot, lambda: screen.settled and not screen.pending)
        assert [n.message for n in pilot.app._notifications] == [
            "the comparison could not be worked out: ValueError('boom')"
        ]
        # the switch did not happen: csynth.worst still, every row of it, with the change that waited
        assert screen.options.metric == "csynth.worst" and "metric csynth.worst" in header(screen)
        assert cells(screen, MM2)[FIXED] == "100×" and cells(screen, (SUITE, ("3mm",)))[FIXED] == "0.8×"


async def test_i_pressed_while_the_records_load_shows_the_intervals_once_loaded(monkeypatch) -> None:
    """The review of the switch worker: `i` before the load ended was dropped; then (a second
    review) the first matrix worked each arm's interval out on the interface's thread."""
    from collectors.compare import summary

    threads: list[threading.Thread] = []
    one, several = summary.bootstrap_ci, summary.bootstrap_cis

    def seen(compute: Any) -> Any:
        def counted(*args: Any) -> Any:
            threads.append(threading.current_thread())
            return compute(*args)

        return counted

    monkeypatch.setattr(summary, "bootstrap_ci", seen(one))
    monkeypatch.setattr(summary, "bootstrap_cis", seen(several))
    gate = threading.Event()

    def held() -> Iterator[dict[str, Any]]:
        assert gate.wait(10)
        yield from RECORDS

    async with App().run_test(size=(200, 50)) as pilot:
        screen = CompareScreen(held)
        pilot.app.push_screen(screen)
        await pilot.press("i")
        gate.set()
        await wait_until(pilot, lambda: screen.settled and screen.comparison is not None)
        await wait_until(pilot, lambda: screen.query_one(CompareMatrix).summary[0][FIXED].plain.count("[") == 1)
        assert screen.query_one(CompareMatrix).summary[0][FIXED].plain == "2.24× [0.902-9.59] (4/4)"
        assert threads and threading.main_thread() not in threads


async def test_a_failed_load_says_so_and_keeps_no_live_change(monkeypatch) -> None:
    """A review: after a load that failed (a notification), the header still said it was reading
    the records, and every live change was kept, for ever."""
    async with App().run_test(size=(200, 50)) as pilot:
        screen = CompareScreen(RECORDS)

        def broken(*args: Any) -> Any:
            raise ValueError("boom")

        monkeypatch.setattr(screen.comparer, "result", broken)
        pilot.app.push_screen(screen)
        await wait_until(pilot, lambda: screen.broken)
        screen.records_changed([_faster_2mm()], [])
        assert screen.pending == [] and header(screen).startswith("the records could not be compared")
        assert [n.message for n in pilot.app._notifications] == [
            "the comparison could not be worked out: ValueError('boom')"
        ]


@pytest.mark.parametrize("tabs", [0, 1, 2, 3])
async def test_q_in_the_export_dialog_types_in_its_box_and_quits_elsewhere(tabs: int) -> None:
    """A review: in the export dialog (a modal screen, where the app's keys are not heard) `q`
    neither quit nor typed once the format list or a button had the focus."""
    app = BrowseApp([str(SONNET)])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen))
        for _ in range(tabs):
            await pilot.press("tab")
        box = app.focused if isinstance(app.focused, Input) else None
        before = box.value if box is not None else None
        await pilot.press("q")
        if box is not None:  # (the file name's box: q is a letter of it; the name was selected)
            assert app.is_running and box.value != before and box.value.endswith("q")
        else:
            await wait_until(pilot, lambda: not app.is_running)


async def test_b_offers_only_the_arms_a_rule_can_name() -> None:
    """A fuzz of records the contract admits: an arm whose origin_version is "" made the rule
    `ai@`, which no rule parses (ValueError on the interface's thread: browse ended), and one whose
    version holds a `#` (`bi@v#1`) a rule naming variant 1 of another arm."""
    odd = []
    for version in ("", "v#1"):
        record = copy.deepcopy(next(r for r in RECORDS if r["report_type"] == "hls_synth" and _is(r, "2mm", BASE)))
        record["implementation"]["origin_version"] = version
        odd.append(record)
    async with App().run_test(size=(200, 50)) as pilot:
        screen = await opened(pilot, RECORDS + odd)
        assert screen.baseline_rules() == [
            "benchmark",
            "best",
            f"{BASE[0]}@{BASE[1]}",
            f"{NO_SKILLS[0]}@{NO_SKILLS[1]}",
            "hlsfactory_benchmark",
        ]
        for _ in range(6):  # round the rules, back to benchmark
            await pilot.press("b")
            await wait_until(pilot, lambda: screen.settled)
        assert screen.options.baseline == "best"


@pytest.mark.parametrize("opened_by", [("c",), ("c", "p"), ("c", "h"), ("c", "enter"), ("question_mark",), ("enter",)])
async def test_q_ends_browse_from_every_screen(opened_by: tuple[str, ...]) -> None:
    """Issue 26 ("`q`, `ctrl+c` and `ctrl+q` end the program at any moment, a compare
    recomputation included"): on the compare screen and the screens it opens, `q` went back one
    screen (a chaos run found it); `escape` goes back, `q` quits, whatever screen is on top."""
    app = BrowseApp([str(SONNET)])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        for key in opened_by:
            screens = len(app.screen_stack)
            await pilot.press(key)
            await wait_until(pilot, lambda: len(app.screen_stack) > screens)
            if isinstance(app.screen, CompareScreen):
                await wait_until(pilot, lambda: app.screen.settled)  # type: ignore[attr-defined]
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code in (None, 0)
