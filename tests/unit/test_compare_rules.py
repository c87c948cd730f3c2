"""The comparison's rules for what is easy to get silently wrong: ties for "final", spellings,
statuses, a baseline rule with nothing to choose, a zero. Every number is worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from collectors.aliases import Aliases
from collectors.compare.comparison import compare
from collectors.compare.model import Options, spelled_with
from collectors.compare.render import render, to_csv

from ..compare_records import cosim, synth

SONNET = Path(__file__).resolve().parents[1] / "fixtures" / "producers" / "c2hls__u280_sonnet_vs_gold__first35.jsonl"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_six_variants_at_index_0_take_the_one_read_last_and_say_so() -> None:
    records = [synth("p", "x_benchmark", worst=1200)]
    records += [synth("p", "ai", 0, worst=100 * (n + 1), name=f"step{n}") for n in range(6)]
    result = compare(records, Options())
    [answer] = [r for r in result.rows if r.answer]
    assert (answer.candidate.name, answer.speedup) == ("step5", 2.0)  # 1200 / 600
    assert [c.name for c in answer.tied] == [f"step{n}" for n in range(6)]
    assert result.warnings() == [
        "s/p: arm ai has 6 variants at index 0 (#0 step0, #0 step1, #0 step2, #0 step3, #0 step4, #0 step5): "
        "#0 step5, read last, is its answer"
    ]
    assert "2× (tie)" in render(result, "md")
    data = json.loads(render(result, "json"))
    assert data["warnings"] == result.warnings()
    tied = next(r for r in data["rows"] if r["answer"])["tied"]
    assert [t["name"] for t in tied] == [f"step{n}" for n in range(6)]
    # a higher index is no tie: the final is step 9 alone
    later = compare([*records, synth("p", "ai", 9, worst=400, name="step9")], Options())
    assert later.warnings() == [] and next(r for r in later.rows if r.answer).speedup == 3.0


def test_pick_best_has_no_tie_to_report() -> None:
    records = [synth("p", "x_benchmark", worst=1200), synth("p", "ai", 0, worst=300, name="a")]
    records.append(synth("p", "ai", 0, worst=600, name="b"))
    best = compare(records, Options(pick="best"))
    assert best.warnings() == [] and best.rows[0].speedup == 4.0  # 1200 / 300


def test_by_meta_model_says_it_merges_two_setups_and_ties_each_problem() -> None:
    result = compare(load(SONNET), Options(by="meta.model"))
    warnings = result.warnings()
    assert warnings[0] == (
        "arm model=claude-sonnet-4-6 merges 2 setups: c2hls_orchestrator@630ce11__sonnet__flash__base_skills, "
        "c2hls_orchestrator@630ce11__sonnet__flash__no_skills"
    )
    # each of the four problems: no_skills and base_skills both at index 0; base_skills is read last
    assert len(warnings) == 5 and warnings[2].startswith("hlsfactory_polybench_float_small/3mm: arm model=")
    assert "(c2hls_orchestrator@630ce11__sonnet__flash__no_skills #0 final, " in warnings[2]
    three = next(r for r in result.rows if r.answer and r.problem[1] == ("3mm",))
    assert three.speedup == pytest.approx(2310407 / 2889043)  # 0.7997, base_skills' answer
    assert compare(load(SONNET), Options()).warnings() == []  # by arm: nothing merged, nothing tied


def test_no_baseline_is_a_passing_answer_in_status_counts() -> None:
    records = [synth("p1", "x_benchmark", status="timeout"), synth("p1", "ai", worst=10)]
    records += [synth("p2", "x_benchmark", worst=30), synth("p2", "ai", worst=10)]
    result = compare(records, Options())
    arm = next(a for a in result.arms if a.arm == ("ai", None))
    assert arm.status_counts == {"pass": 2}
    assert [r.status for r in result.rows] == ["no baseline", "pass"]  # the row still says why no ratio


def test_best_rule_without_a_passing_benchmark_variant_keeps_variant_0() -> None:
    records = [
        synth("p", "x_benchmark", 0, status="fail"),
        synth("p", "x_benchmark", 1, status="timeout"),
        synth("p", "ai", 0, worst=50),
    ]
    result = compare(records, Options(baseline="best"))
    assert result.results["s", ("p",)].baseline is None
    assert sorted((r.candidate.origin, r.candidate.index, r.status) for r in result.rows) == [
        ("ai", 0, "no baseline"),
        ("x_benchmark", 0, "fail"),
        ("x_benchmark", 1, "timeout"),
    ]
    assert "| s/p | none |" in render(result, "md")


def test_a_zero_cycle_pass_shows_its_number() -> None:
    records = [cosim("p", "x_benchmark", cycles=500), cosim("p", "ai", cycles=0)]
    result = compare(records, Options(metric="cosim.cycles"))
    assert result.rows[0].value == 0 and result.rows[0].speedup is None  # 500 / 0 has no value
    assert "| s/p | x_benchmark#0 v: 500 | 0 (no ratio) |" in render(result, "md")


def test_outputs_spell_problems_as_the_records_do() -> None:
    records = [synth("fdtd-2d", "x_benchmark", worst=100), synth("fdtd_2d", "ai", worst=50)]
    loose = Aliases()  # `-` and `_` alike when pairing
    result = compare(records, Options(), loose.problem_and_device, spelled_with(loose))
    assert result.problems == [("s", ("fdtd_2d",))]  # one problem: paired
    assert result.rows[0].speedup == 2.0
    assert to_csv(result).splitlines()[1].startswith("s,fdtd_2d,ai,")  # the AI record's own spelling
    assert "| s/fdtd-2d | x_benchmark#0 v: 100 | 2× |" in render(result, "md")  # the baseline's spelling
    assert "fdtd_2d" not in render(result, "md")
    aliased = Aliases(suites={"s": "suite"}, groups={"fdtd-2d": "stencils/fdtd2d"})
    result = compare(records, Options(), aliased.problem_and_device, spelled_with(aliased))
    row = json.loads(render(result, "json"))["rows"][0]
    assert (row["suite"], row["group_path"], row["speedup"]) == ("suite", ["stencils", "fdtd2d"], 2.0)


def test_more_metrics_each_in_its_own_direction() -> None:
    records = load(SONNET)
    rows = {m: compare(records, Options(metric=m)).rows for m in ("fmax", "ii", "adp")}
    no_skills = {m: next(r for r in rs if r.candidate.origin_version.endswith("no_skills")) for m, rs in rows.items()}
    # 2mm: the AI's clock 2.494 ns -> 400.96 MHz, the ground truth's 2.656 ns -> 376.51 MHz: 1.065 (higher is better)
    fmax = no_skills["fmax"]
    assert (fmax.value, fmax.baseline_value) == (pytest.approx(1000 / 2.494), pytest.approx(1000 / 2.656))
    assert fmax.speedup == pytest.approx(2.656 / 2.494)
    # Interval-max 1200416 against 52628: 22.81 (lower is better: baseline / candidate)
    assert no_skills["ii"].speedup == pytest.approx(1200416 / 52628)
    # 172485 LUT x 52627 cycles x 2.494 ns = 2.2639e10; ratio candidate / baseline (< 1 is better)
    adp = no_skills["adp"]
    assert adp.value == pytest.approx(172485 * 52627 * 2.494)
    assert adp.speedup == pytest.approx(adp.value / adp.baseline_value) and adp.speedup < 1
    header = render(compare(records, Options(metric="fmax")), "md").splitlines()[0]
    assert "fmax (MHz, 1000 / EstimatedClockPeriod; higher is better: ratio = candidate / baseline)" in header
    assert "lower is better: ratio = candidate / baseline" in render(compare(records, Options(metric="adp")), "md")
    best = compare(records, Options(metric="fmax", baseline="best"))  # the best is the highest Fmax
    assert best.results["hlsfactory_polybench_float_small", ("2mm",)].baseline is not None


def test_hwemu_cycles_of_the_rodinia_references() -> None:
    hw = Path(__file__).resolve().parents[1] / "fixtures" / "producers" / "c2hls__references__hw_emu_u280.jsonl"
    result = compare(load(hw), Options(metric="hwemu.cycles", baseline="rodinia_hls_benchmark#0"))
    knn = result.answer(("rodinia_hls_benchmark", "2023_port"), ("rodinia_hls", ("knn",)))
    assert knn is not None and (knn.value, knn.baseline_value) == (502008, 1049027)  # 2.0897
    [arm] = result.arms
    assert (arm.compared, arm.baselines) == (6, 11)
