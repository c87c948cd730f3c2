"""The comparison core and its renderers: every number below is worked out by hand in a comment."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from collectors.compare.comparison import (
    ArmKey,
    ArmSummary,
    Comparer,
    Comparison,
    Options,
    Row,
    as_recorded,
    compare,
    trajectory,
)
from collectors.compare.render import ratio_text, render, to_csv, visible

from ..compare_records import cosim, csim, synth

PRODUCERS = Path(__file__).resolve().parents[1] / "fixtures" / "producers"
SONNET = PRODUCERS / "c2hls__u280_sonnet_vs_gold__first35.jsonl"
HW_EMU = PRODUCERS / "c2hls__references__hw_emu_u280.jsonl"
NO_SKILLS = ("c2hls_orchestrator", "630ce11__sonnet__flash__no_skills")
BASE_SKILLS = ("c2hls_orchestrator", "630ce11__sonnet__flash__base_skills")
RODINIA = ("rodinia_hls_benchmark", "2023_port")
POLY = "hlsfactory_polybench_float_small"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def arm_of(comparison: Comparison, arm: ArmKey) -> ArmSummary:
    return next(a for a in comparison.arms if a.arm == arm)


def answer(comparison: Comparison, arm: ArmKey, group: str) -> Row:
    row = comparison.answer(arm, ("s", (group,)))
    assert row is not None
    return row


# ---- (a) the Sonnet-vs-ground-truth excerpt ------------------------------------------------


def test_sonnet_csynth_worst_against_the_benchmark() -> None:
    result = compare(load(SONNET), Options())
    no_skills, base_skills = arm_of(result, NO_SKILLS), arm_of(result, BASE_SKILLS)
    rows = {(r.problem[1][0], r.arm): r for r in result.rows}
    # 2mm: 1200415 / 52627 = 22.8099 (ground truth hlsfactory_benchmark #0 over the AI's final)
    assert rows["2mm", NO_SKILLS].speedup == pytest.approx(22.8099, abs=1e-4)
    assert rows["2mm", NO_SKILLS].value == 52627 and rows["2mm", NO_SKILLS].baseline_value == 1200415
    # 3mm with skills: 2310407 / 2889043 = 0.79971 (slower than the ground truth)
    assert rows["3mm", BASE_SKILLS].speedup == pytest.approx(0.79971, abs=1e-5)
    # no_skills: 22.8099, 26.5909 (2310407/86887), 1.29285 (119608/92515), 1.29367 (115210/89057)
    # geomean = (22.8099 * 26.5909 * 1.29285 * 1.29367) ** (1/4) = 1014.44 ** 0.25 = 5.6436
    assert no_skills.geomean == pytest.approx(5.6436, abs=1e-4)
    assert (no_skills.problems, no_skills.compared, no_skills.baselines) == (4, 4, 4)
    assert no_skills.min == pytest.approx(1.29285, abs=1e-5) and no_skills.max == pytest.approx(26.5909, abs=1e-4)
    assert no_skills.median == pytest.approx((1.29367 + 22.8099) / 2, abs=1e-4)  # 12.0518
    assert no_skills.fast_1 == 1.0  # 4 of 4 above 1
    # base_skills: 18.7048 (1200415/64177), 0.79971, 1.29285, 1.29367; product 25.019 -> geomean 2.2365
    assert base_skills.geomean == pytest.approx(2.2365, abs=1e-4)
    assert base_skills.fast_1 == 0.75  # 3 of 4 (3mm is slower)
    assert base_skills.status_counts == {"pass": 4}
    assert base_skills.stages == {"sw_run": (4, 4, 4), "hls_synth": (4, 4, 4), "rtl_sim": (3, 3, 4)}
    assert len(result.rows) == 8  # 2 arms x 4 problems; the ground truth's own rows are left out


def test_sonnet_cosim_missing_policy_one_and_common() -> None:
    records = load(SONNET)
    exclude = arm_of(compare(records, Options(metric="cosim.cycles")), BASE_SKILLS)
    # bicg's base_skills rtl_sim was cut off: not attempted. 2mm 1200412/64807 = 18.5229,
    # 3mm 2310404/3678586 = 0.62807, atax 119142/92190 = 1.29235; product 15.0351
    assert (exclude.problems, exclude.compared, exclude.baselines) == (3, 3, 4)
    assert exclude.geomean == pytest.approx(15.0351 ** (1 / 3), abs=1e-4)  # 2.4681
    assert exclude.fast_1 == 0.5  # 2mm and atax of 4 problems with a baseline
    one = arm_of(compare(records, Options(metric="cosim.cycles", policy="one")), BASE_SKILLS)
    # bicg counts 1.0: (15.0351 * 1.0) ** (1/4) = 1.9691; median of 0.628, 1.0, 1.292, 18.52 = 1.1462
    assert one.geomean == pytest.approx(1.9691, abs=1e-4)
    assert one.median == pytest.approx((1.0 + 1.29235) / 2, abs=1e-5)
    common = compare(records, Options(metric="cosim.cycles", common=True))
    no_skills = arm_of(common, NO_SKILLS)
    # P shrinks to 2mm, 3mm, atax: 1200412/52990 = 22.6536, 2310404/87193 = 26.4976, 119142/92190 = 1.29235
    assert (no_skills.compared, no_skills.baselines) == (3, 3)
    assert no_skills.geomean == pytest.approx((22.6536 * 26.4976 * 1.29235) ** (1 / 3), abs=1e-3)  # 9.1731
    bicg = next(r for r in common.rows if r.problem[1] == ("bicg",) and r.arm == BASE_SKILLS)
    assert (bicg.status, bicg.answer) == ("missing", False)


def test_sonnet_lut_ratio_and_utilisation() -> None:
    result = compare(load(SONNET), Options(metric="lut"))
    row = next(r for r in result.rows if r.problem[1] == ("2mm",) and r.arm == NO_SKILLS)
    assert row.speedup == pytest.approx(172485 / 7362)  # 23.429: the AI uses 23x the LUTs
    assert row.utilisation is not None and row.utilisation > 0
    # base_skills' 3mm: 13605 / 14104 = 0.9646 is the only ratio below 1 -> 1 of 4 smaller
    assert arm_of(result, BASE_SKILLS).fast_1 == 0.25


def test_sonnet_grouped_by_meta_model() -> None:
    result = compare(load(SONNET), Options(by="meta.model"))
    # both AI setups are one arm now; each problem has two variant-0 candidates, the last seen wins
    assert [a.label for a in result.arms] == ["model=claude-sonnet-4-6"]
    assert arm_of(result, ("claude-sonnet-4-6",)).problems == 4


# ---- (b) the Rodinia hw_emu references ------------------------------------------------------


def test_rodinia_hwemu_explicit_baseline_variant_0() -> None:
    result = compare(load(HW_EMU), Options(metric="hwemu.us", baseline="rodinia_hls_benchmark#0"))
    arm = arm_of(result, RODINIA)
    # variant 0 passed in 11 of 16 problems (StreamCluster, lc_mgvf timed out; hotspot, kmeans, lavaMD failed)
    assert arm.baselines == 11 and arm.problems == 16
    # final variants that pass: cfd_flux 86.737/26.899 = 3.2245, knn 3496.756/1673.361 = 2.0897,
    # lc_gicov 10836.984/78.092 = 138.772, lud 187511.421/4915.063 = 38.150,
    # pathfinder 7033.563/73.098 = 96.221, srad 8103.564/117.4 = 69.025
    speedups = [3.2245, 2.0897, 138.772, 38.150, 96.221, 69.025]
    assert arm.compared == 6
    assert arm.geomean == pytest.approx(math.prod(speedups) ** (1 / 6), rel=1e-4)  # 24.875
    assert arm.min == pytest.approx(2.0897, abs=1e-4) and arm.max == pytest.approx(138.772, abs=1e-3)
    assert arm.median == pytest.approx((38.150 + 69.025) / 2, abs=1e-3)
    assert arm.status_counts == {"pass": 6, "fail": 9, "timeout": 1}  # 16 final variants
    assert arm.fast_1 == pytest.approx(6 / 11)
    one = arm_of(
        compare(load(HW_EMU), Options(metric="hwemu.us", baseline="rodinia_hls_benchmark#baseline", policy="one")),
        RODINIA,
    )
    assert one.geomean == pytest.approx(math.prod(speedups) ** (1 / 11), rel=1e-4)  # 5 problems count 1.0


def test_rodinia_hwemu_best_baseline_excludes_itself() -> None:
    result = compare(load(HW_EMU), Options(metric="hwemu.us", baseline="best"))
    arm = arm_of(result, RODINIA)
    # 12 problems have a passing variant. Where the best is the final one, the answer is the highest
    # other index: knn #4 1673.361/11513.302 = 0.14534, lud (best #2) #3 3879.586/4915.063 = 0.78933,
    # pathfinder #4 73.098/3521.087 = 0.020760, srad #4 117.4/936.551 = 0.12535
    assert (arm.compared, arm.baselines) == (4, 12)
    assert arm.geomean == pytest.approx((0.14534 * 0.78933 * 0.020760 * 0.12535) ** 0.25, rel=1e-4)  # 0.13145
    assert arm.fast_1 == 0.0
    assert result.results["rodinia_hls", ("knn",)].baseline.index == 5  # type: ignore[union-attr]


def test_rodinia_pick_best() -> None:
    result = compare(load(HW_EMU), Options(metric="hwemu.us", baseline="rodinia_hls_benchmark#0", pick="best"))
    dilate = result.answer(RODINIA, ("rodinia_hls", ("leukocyte", "lc_dilate")))
    assert dilate is not None and dilate.candidate.index == 6  # #7 failed; #6 is the fastest that passed
    assert dilate.speedup == pytest.approx(12072.491 / 102.034)  # 118.318


def test_trajectory_of_optimisation_steps() -> None:
    result = compare(load(HW_EMU), Options(metric="hwemu.us"))
    steps = trajectory(result, RODINIA, ("rodinia_hls", ("backprop", "forward")))
    assert [s.index for s in steps] == [0, 1, 2, 4, 5, 6]
    assert [s.value for s in steps] == [88411.622, 80721.704, 5026.615, 3908.472, None, None]
    assert [s.best_so_far for s in steps] == [88411.622, 80721.704, 5026.615, 3908.472, 3908.472, 3908.472]
    assert [s.failed for s in steps] == [False, False, False, False, True, True]  # timeout, fail


# ---- (c) small record sets ------------------------------------------------------------------


def test_failed_candidate_and_timed_out_baseline() -> None:
    records = [
        synth("p1", "x_benchmark", worst=1000),
        synth("p1", "ai", status="fail"),
        synth("p2", "x_benchmark", status="timeout"),
        synth("p2", "ai", worst=10),
        synth("p3", "x_benchmark", worst=300),
        synth("p3", "ai", worst=100),
    ]
    result = compare(records, Options())
    ai = arm_of(result, ("ai", None))
    rows = {r.problem[1][0]: r for r in result.rows}
    assert rows["p1"].status == "fail" and rows["p1"].speedup is None
    assert rows["p2"].status == "no baseline" and rows["p2"].value == 10
    assert rows["p3"].speedup == 3.0  # 300 / 100
    # attempted 3, P = {p1, p3}, compared = {p3}; fast_1 = 1 / |P| = 1/2
    assert (ai.problems, ai.compared, ai.baselines, ai.fast_1) == (3, 1, 2, 0.5)
    assert ai.status_counts == {"fail": 1, "pass": 2}  # p2 passed; its baseline is what is missing
    assert ai.geomean == pytest.approx(3.0)
    # policy one: p1 counts 1.0 -> sqrt(3 * 1) = 1.7321
    assert arm_of(compare(records, Options(policy="one")), ("ai", None)).geomean == pytest.approx(math.sqrt(3))


def test_missing_cosim_is_not_attempted_and_undef_has_no_value() -> None:
    records = [
        cosim("p1", "x_benchmark", cycles=800),
        synth("p1", "ai", worst=10),
        csim("p1", "ai"),
        cosim("p2", "x_benchmark", cycles=900),
        cosim("p2", "ai", cycles=300),
        synth("p3", "x_benchmark", worst="undef"),
        synth("p3", "ai", worst=5),
    ]
    result = compare(records, Options(metric="cosim.cycles"))
    ai = arm_of(result, ("ai", None))
    assert [r.status for r in result.rows] == ["missing", "pass", "missing"]  # p1 and p3: synth only
    assert (ai.problems, ai.compared) == (1, 1) and ai.geomean == pytest.approx(3.0)  # 900 / 300
    assert ai.stages["sw_run"] == (1, 1, 3)  # one of its three candidates (p1, p2, p3) ran C simulation
    synth_view = compare(records, Options())
    assert synth_view.results["s", ("p3",)].baseline_measured.status == "no value"  # type: ignore[union-attr]
    assert arm_of(synth_view, ("ai", None)).baselines == 0


def test_figures_go_through_the_records_views_number_conversion() -> None:
    # "1_000" and "0x10" are no number in the records view (collectors/numbers.py), so none here
    records = [synth("p", "x_benchmark", worst=1000), synth("p", "a", worst="1_000"), synth("p", "b", worst="0x10")]
    result = compare(records, Options())
    assert [(r.status, r.value) for r in result.rows] == [("no value", None), ("no value", None)]


def test_two_arms_with_different_problems_and_common() -> None:
    records = [synth(p, "x_benchmark", worst=1200) for p in ("p1", "p2", "p3")]
    records += [synth("p1", "a", worst=600), synth("p2", "a", worst=400)]  # 2.0, 3.0
    records += [synth("p2", "b", worst=1200), synth("p3", "b", worst=100)]  # 1.0, 12.0
    plain = compare(records, Options())
    a, b = arm_of(plain, ("a", None)), arm_of(plain, ("b", None))
    assert a.geomean == pytest.approx(math.sqrt(6)) and b.geomean == pytest.approx(math.sqrt(12))
    assert (a.fast_1, b.fast_1) == (pytest.approx(2 / 3), pytest.approx(1 / 3))  # 1.0 is not > 1
    common = compare(records, Options(common=True))
    # only p2 has a passing answer from both arms: a 1200/400 = 3.0, b 1200/1200 = 1.0
    assert common.with_baseline == frozenset({("s", ("p2",))})
    assert arm_of(common, ("a", None)).geomean == pytest.approx(3.0)
    assert arm_of(common, ("b", None)).geomean == pytest.approx(1.0)
    assert arm_of(common, ("a", None)).fast_1 == 1.0


def test_resource_ratio_best_rule_and_pick_best() -> None:
    records = [
        synth("p", "x_benchmark", 0, worst=900, lut="800"),
        synth("p", "x_benchmark", 1, worst=300, lut="400"),
        synth("p", "x_benchmark", 2, worst=600, lut="200"),
        synth("p", "ai", 0, worst=100, lut="100"),
        synth("p", "ai", 1, worst=200, lut="1600"),
    ]
    lut = compare(records, Options(metric="lut"))
    # baseline x_benchmark #0 (800 LUT); ai's final #1: 1600 / 800 = 2.0 (twice as big)
    assert answer(lut, ("ai", None), "p").speedup == 2.0
    assert answer(lut, ("ai", None), "p").utilisation == 1.6
    best = compare(records, Options(baseline="best"))
    # the benchmark's best latency is #1 (300); its answer is #2 (final, other than the baseline): 300/600
    assert best.results["s", ("p",)].baseline.index == 1  # type: ignore[union-attr]
    assert answer(best, ("x_benchmark", None), "p").speedup == 0.5
    assert answer(best, ("ai", None), "p").speedup == 1.5  # 300 / 200
    picked = compare(records, Options(baseline="best", pick="best"))
    assert answer(picked, ("ai", None), "p").speedup == 3.0  # 300/100


def test_csynth_time_is_cycles_times_the_estimated_clock() -> None:
    records = [synth("p", "x_benchmark", worst=1000, clock="4.0"), synth("p", "ai", worst=1000, clock="2.0")]
    row = compare(records, Options(metric="csynth.time")).rows[0]
    assert (row.value, row.baseline_value, row.speedup) == (2000.0, 4000.0, 2.0)


def test_incremental_recomputes_only_the_changed_problem() -> None:
    comparer = Comparer(Options())
    comparer.add(
        [
            synth("p1", "x_benchmark", worst=100),
            synth("p1", "ai", worst=50),
            synth("p2", "x_benchmark", worst=100),
            synth("p2", "ai", worst=25),
        ]
    )
    first = comparer.result()
    comparer.discard(("s", ("p2",)))
    assert comparer.add([synth("p2", "x_benchmark", worst=100), synth("p2", "ai", worst=200)]) == {("s", ("p2",))}
    second = comparer.result()
    assert second.results["s", ("p1",)] is first.results["s", ("p1",)]  # untouched, not recomputed
    assert answer(second, ("ai", None), "p2").speedup == 0.5
    assert arm_of(second, ("ai", None)).geomean == pytest.approx(1.0)  # sqrt(2 * 0.5)


def test_canonical_hook_merges_aliased_problems() -> None:
    records = [synth("fdtd-2d", "x_benchmark", worst=100), synth("fdtd_2d", "ai", worst=50)]
    assert compare(records).arms[0].compared == 0  # two different problems as recorded

    def aliases(record: dict[str, Any]) -> tuple[tuple[str, tuple[str, ...]], str | None]:
        (suite, group), device = as_recorded(record)
        return (suite, tuple(g.replace("-", "_") for g in group)), device

    assert compare(records, Options(), canonical=aliases).arms[0].geomean == pytest.approx(2.0)


def test_unknown_metric_and_rule_list_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="valid metrics: csynth.worst, csynth.avg.*uram"):
        Options(metric="latency")
    with pytest.raises(ValueError, match=r"valid rules: benchmark, best, ORIGIN\[@VERSION\]\[#VARIANT\]"):
        Options(baseline="ai@")
    with pytest.raises(ValueError, match="valid: arm, origin, meta.KEY"):
        Options(by="meta.")


# ---- rendering ------------------------------------------------------------------------------


def test_ratio_text_uses_significant_digits() -> None:
    assert ratio_text(0.0045) == "0.0045×"
    assert ratio_text(224.0) == "224×"
    assert ratio_text(1200415 / 52627) == "22.8×"
    assert ratio_text(0.79971) == "0.8×"
    assert ratio_text(12345.6) == "12,346×"


def test_table_and_markdown_show_cells_summaries_and_escapes() -> None:
    records = [
        synth("p", "x_benchmark", worst=224),
        synth("p", "fast", worst=1),
        synth("p", "slow", worst=49778),
        synth("q\x1b[31m|", "x_benchmark", worst=1),
        synth("q\x1b[31m|", "fast", status="timeout"),
    ]
    result = compare(records, Options())
    table = render(result, "table")
    assert "224×" in table and "0.0045×" in table  # 224/1 and 224/49778 = 0.0044999
    assert "timeout" in table and "\x1b" not in table and "\\x1b[31m" in table
    assert "geomean [95% CI] (n/N)" in table and "224× [224-224] (1/2)" in table  # one value: no spread
    assert "metric csynth.worst" in table and "policy exclude" in table and "common off" in table
    md = render(result, "md")
    assert "| s/q\\\\x1b[31m\\| |" in md  # the backslash of the escape doubled, the pipe escaped
    assert visible("a\u202eb\x85") == "a\\u202eb\\x85"


def test_csv_and_json_rows() -> None:
    records = [synth("=cmd", "x_benchmark", worst=100), synth("=cmd", "-ai", worst=50)]
    result = compare(records, Options())
    lines = to_csv(result).splitlines()
    assert lines[1].startswith("s,'=cmd,'-ai,'-ai,,0,v,xcu280,True,pass,50,100,2.0")
    assert to_csv(result, raw=True).splitlines()[1].startswith("s,=cmd,-ai,")
    data = json.loads(render(result, "json", [{"path": "x", "sha256": "0"}]))
    assert data["rows"][0]["speedup"] == 2.0 and data["rows"][0]["variant"] == {"index": 0, "name": "v"}
    assert data["arms"][0]["status_counts"] == {"pass": 1} and data["arms"][0]["fast_1"] == 1.0
    assert {"metric", "baseline", "pick", "policy", "inputs", "rows", "arms"} <= set(data)
