"""Suites, head to head, the virtual best, intervals, fast_p and pass@k: each number by hand."""

from __future__ import annotations

import json
import math
import random
import statistics
from typing import Any

import pytest

from collectors.compare import stats
from collectors.compare.comparison import compare
from collectors.compare.headtohead import pairs
from collectors.compare.model import ORACLE, Options
from collectors.compare.render import render
from collectors.compare.stats import RESAMPLES, SEED, bootstrap_ci, bootstrap_cis, pass_at_k, sign_test
from collectors.compare.summary import fill_intervals
from collectors.problems import Cancelled

from ..compare_records import csim, synth

# x_benchmark: 1200 cycles everywhere. a: 2.0, 3.0, 1.0, 0.5 on suite s, 4.0 on suite t;
# b: 1.0, 12.0, 1.0, fail on s, 2.0 on t.
A = {"p1": 600, "p2": 400, "p3": 1200, "p4": 2400, "p5": 300}
B = {"p1": 1200, "p2": 100, "p3": 1200, "p4": None, "p5": 600}


def records() -> list[dict[str, Any]]:
    found = []
    for group in A:
        suite = "t" if group == "p5" else "s"
        for origin, worst in (("x_benchmark", 1200), ("a", A[group]), ("b", B[group])):
            record = synth(group, origin, worst=worst) if worst else synth(group, origin, status="fail")
            record["problem"]["suite"] = suite
            found.append(record)
    return found


def arm(result: Any, key: tuple) -> Any:
    return next(a for a in result.arms if a.arm == key)


def test_per_suite_summaries_beside_the_overall_one() -> None:
    result = compare(records(), Options())
    a, b = arm(result, ("a", None)), arm(result, ("b", None))
    assert a.geomean == pytest.approx(12 ** (1 / 5))  # (2 * 3 * 1 * 0.5 * 4) ** (1/5) = 1.6438
    assert b.geomean == pytest.approx(24 ** (1 / 4)) and (b.compared, b.baselines) == (4, 5)  # 2.2134
    assert a.suites["s"].geomean == pytest.approx(3 ** (1 / 4)) and a.suites["t"].geomean == pytest.approx(4.0)
    assert b.suites["s"].geomean == pytest.approx(12 ** (1 / 3)) and (
        b.suites["s"].compared,
        b.suites["s"].baselines,
    ) == (3, 4)
    data = json.loads(render(result, "json"))
    assert data["arms"][0]["suites"]["t"]["geomean"] == 4.0
    one_suite = compare([r for r in records() if r["problem"]["suite"] == "s"], Options())
    assert "suites" not in json.loads(render(one_suite, "json"))["arms"][0]


def test_head_to_head_wins_losses_ties_and_sign_test() -> None:
    result = compare(records(), Options())
    [pair] = pairs(result)
    # both passed on p1, p2, p3, p5: a/b = 2 (win), 0.25 (loss), 1 (tie), 2 (win)
    assert (pair.a_label, pair.b_label, pair.problems, pair.wins, pair.losses, pair.ties) == ("a", "b", 4, 2, 1, 1)
    assert pair.geomean_ratio == pytest.approx(1.0)  # (2 * 0.25 * 1 * 2) ** (1/4)
    assert pair.p_value == 1.0  # n = 3, k = 1: 2 * (C(3,0) + C(3,1)) / 2^3 = 1
    data = json.loads(render(result, "json"))
    assert data["pairs"] == [
        {"a": "a", "b": "b", "problems": 4, "wins": 2, "losses": 1, "ties": 1, "geomean_ratio": 1.0, "p_value": 1.0}
    ]
    lut = pairs(compare(records(), Options(metric="lut")))[0]  # every LUT is 100: ties (b failed p4)
    assert (lut.wins, lut.losses, lut.ties, lut.p_value) == (0, 0, 4, 1.0)


def test_sign_test_exact_values() -> None:
    assert sign_test(9, 1) == 22 / 1024  # 2 * (1 + 10) / 2^10 = 0.0215
    assert sign_test(5, 0) == 0.0625  # 2 / 32
    assert sign_test(0, 0) == 1.0 and sign_test(3, 3) == 1.0
    assert sign_test(1, 9) == sign_test(9, 1)


def test_virtual_best_takes_the_best_passing_answer_and_names_its_arm() -> None:
    result = compare(records(), Options(oracle=True))
    oracle = arm(result, ORACLE)
    assert result.arms[-1] is oracle and oracle.label == "virtual best"
    # p1 a 2.0, p2 b 12.0, p3 a and b 1.0 (the first arm by label), p4 a 0.5, p5 a 4.0
    assert oracle.geomean == pytest.approx(48 ** (1 / 5))  # 2.1689
    cells = json.loads(render(result, "json"))["oracle_cells"]
    assert [(c["group_path"][0], c["arm"], c["speedup"]) for c in cells] == [
        ("p1", "a", 2.0),
        ("p2", "b", 12.0),
        ("p3", "a", 1.0),
        ("p4", "a", 0.5),
        ("p5", "a", 4.0),
    ]
    assert "| s/p2 | x_benchmark#0 v: 1200 | 3× | 12× | 12× b |" in render(result, "md")
    assert len(pairs(result)) == 1  # the virtual best is no arm of the head to head


def test_fast_p_thresholds() -> None:
    result = compare(records(), Options(fast_p=("1", "1.5", "2")))
    # a: 2, 3, 1, 0.5, 4 of |P| = 5; b: 1, 12, 1, 2 (p4 failed)
    assert arm(result, ("a", None)).fast_p == {"1": 0.6, "1.5": 0.6, "2": 0.4}
    assert arm(result, ("b", None)).fast_p == {"1": 0.4, "1.5": 0.4, "2": 0.2}
    assert "fast_1.5" in render(result, "md")
    for odd in ("0", "\u0967"):  # (a fuzz: float() read the Devanagari one as 1)
        with pytest.raises(ValueError, match="not a positive number"):
            Options(fast_p=(odd,))


def test_bootstrap_interval_reproduces_its_documented_algorithm() -> None:
    values = [2.0, 3.0, 1.0, 0.5, 4.0]
    rng = random.Random(SEED)
    logs = [math.log(v) for v in values]
    means = []
    for _ in range(RESAMPLES):
        draw = rng.choices(range(5), k=5)
        means.append(sum(logs[i] for i in draw) / 5)
    ordered = sorted(means)
    position = 0.025 * (RESAMPLES - 1)  # 249.975: between the 250th and 251st smallest
    low = ordered[249] + (ordered[250] - ordered[249]) * (position - 249)
    position = 0.975 * (RESAMPLES - 1)  # 9749.025
    high = ordered[9749] + (ordered[9750] - ordered[9749]) * (position - 9749)
    ci = bootstrap_ci(values)
    assert ci == (pytest.approx(math.exp(low), rel=1e-12), pytest.approx(math.exp(high), rel=1e-12))
    assert ci[0] < statistics.geometric_mean(values) < ci[1]
    result = compare(records(), Options())
    assert arm(result, ("a", None)).ci95 == ci  # a's five speedups, in problem order
    assert json.loads(render(result, "json"))["arms"][0]["ci95"] == list(ci)
    assert bootstrap_ci([4.0]) == (pytest.approx(4.0), pytest.approx(4.0)) and bootstrap_ci([]) is None


def test_an_interval_stops_when_asked_and_keeps_what_it_found() -> None:
    asked: list[int] = []

    def stop_at_third() -> bool:
        asked.append(1)
        return len(asked) == 3

    with pytest.raises(Cancelled):
        bootstrap_ci([2.0, 3.0, 1.0], stop_at_third)
    assert len(asked) == 3  # asked at resamples 0, STOP_STEP and 2 * STOP_STEP
    result = compare(records(), Options())
    fill_intervals(result.arms, lambda: False)
    assert arm(result, ("a", None)).__dict__["ci95"] == bootstrap_ci([2.0, 3.0, 1.0, 0.5, 4.0])
    fill_intervals(result.arms, lambda: True)  # (kept: not asked again)


def test_the_intervals_of_lists_of_one_length_are_each_lists_own() -> None:
    """bootstrap_cis makes the draws once for the lists of one length: each interval is still the
    one bootstrap_ci gives that list alone."""
    lists = [[2.0, 3.0, 1.0], [0.5, 4.0, 8.0], [1.5, 2.5], []]
    assert bootstrap_cis(lists) == [bootstrap_ci(values) for values in lists]


def test_pass_at_k_of_independent_attempts() -> None:
    assert pass_at_k(6, 2, 1) == pytest.approx(1 / 3)  # 1 - C(4,1)/C(6,1)
    assert pass_at_k(10, 1, 5) == pytest.approx(0.5)  # 1 - 126/252
    assert pass_at_k(6, 2, 5) == 1.0  # n - c < k
    found = [synth("p1", "x_benchmark", worst=100), synth("p2", "x_benchmark", worst=100)]
    for n in range(6):  # p1: six attempts, two synthesised
        found += [
            synth("p1", "c", n, worst=90) if n in (1, 4) else synth("p1", "c", n, status="fail"),
            csim("p1", "c", n),
        ]
    for n in range(10):  # p2: ten attempts, one synthesised
        attempt = synth("p2", "c", n, worst=90) if n == 7 else synth("p2", "c", n, status="fail")
        found += [attempt, csim("p2", "c", n)]
    result = compare(found, Options(samples=True))
    c = arm(result, ("c", None))
    # synthesis: pass@1 (1/3 + 1/10) / 2, pass@5 (1 + 0.5) / 2, pass@10 only p2 (n >= 10): 1 - 0 = 1
    assert c.pass_at_k["hls_synth"] == {"1": pytest.approx(13 / 60), "5": 0.75, "10": 1.0}
    assert c.pass_at_k["sw_run"] == {"1": 1.0, "5": 1.0, "10": 1.0}
    assert "rtl_sim" not in c.pass_at_k  # no record of that stage
    data = json.loads(render(result, "json"))
    assert data["arms"][0]["pass_at_k"]["hls_synth"]["5"] == 0.75
    assert "synth pass@1" in render(result, "md")


@pytest.mark.parametrize(
    ("benchmark", "candidate", "metric"),
    [
        ("5e-324", "1e308", "csynth.worst"),  # 5e-324 / 1e308 is 0.0: its log raised (every format)
        ("1e308", "5e-324", "csynth.worst"),  # 1e308 / 5e-324 is inf: "speedup": Infinity, not JSON
        ("1e308", "1e308", "csynth.time"),  # cycles x clock overflows on both: inf / inf, NaN
        ("1e308", "2", "adp"),  # LUT x cycles x clock: inf
    ],
)
def test_figures_whose_ratio_is_no_finite_number_give_none(benchmark: str, candidate: str, metric: str) -> None:
    """A fuzz of records the contract admits (the hls_synth figures are free strings): a ratio or a
    product out of range crashed `vitis-tui compare` or printed inf and NaN; it is no ratio."""
    records = [synth("p", "x_benchmark", worst=benchmark), synth("p", "a", worst=candidate)]
    result = compare(records, Options(metric=metric))
    (row,) = [r for r in result.results[("s", ("p",))].rows if r.arm == ("a", None)]
    assert row.speedup is None
    summary = arm(result, ("a", None))
    assert (summary.geomean, summary.ci95) == (None, None)
    assert "Infinity" not in render(result, "json") and "NaN" not in render(result, "json")


def test_meta_arms_keep_json_values_apart() -> None:
    """A fuzz: `--by meta.model` made one arm of 1, true and 1.0 (equal as Python values), and
    labelled a list with Python's repr."""
    records = [synth("p", "x_benchmark", worst=100)]
    for n, model in enumerate([1, True, 1.0, "1", [1, "x"], "true"]):
        records.append(synth("p", f"a{n}", worst=50, meta={"model": model}))
    result = compare(records, Options(by="meta.model"))
    labels = sorted(a.label for a in result.arms)
    # (the strings "1" and "true" quoted: they read as other JSON values)
    assert labels == ['model="1"', 'model="true"', "model=1", "model=1.0", 'model=[1,"x"]', "model=true"]


def test_a_baseline_rule_that_names_nothing_is_a_warning() -> None:
    """A fuzz: `--baseline demo_agent#99999` (a typo) left every cell 'no baseline', exit 0, and
    nothing said why."""
    records = [synth("p", "x_benchmark", worst=100), synth("p", "a", worst=50)]
    assert compare(records, Options(baseline="a#7")).warnings() == [
        "the baseline rule a#7 names no variant of the records: no problem has a baseline"
    ]
    assert compare(records, Options(baseline="a#0")).warnings() == []


def test_a_negative_figure_is_neither_the_best_answer_nor_the_best_baseline() -> None:
    """A review: "-1" (a producer's "unknown") had no ratio, but `pick best` still took it for an
    arm's answer and `baseline best` for the baseline (every cell 'no ratio')."""
    records = [
        synth("p", "x_benchmark", 0, worst=1200),
        synth("p", "x_benchmark", 1, worst="-1", name="u"),
        synth("p", "a", 0, worst=600),
        synth("p", "a", 1, worst="-1", name="u"),
    ]
    result = compare(records, Options(pick="best", baseline="best"))
    (row,) = [r for r in result.results[("s", ("p",))].rows if r.arm == ("a", None) and r.answer]
    assert (row.value, row.baseline_value, row.speedup) == (600, 1200, 2.0)


def test_only_the_json_output_works_out_the_suites_intervals() -> None:
    """A review: every format but CSV worked out each suite's interval, which only JSON shows."""
    result = compare(records(), Options())
    render(result, "md")
    assert all("ci95" in a.__dict__ and "ci95" not in s.__dict__ for a in result.arms for s in a.suites.values())
    render(result, "json")
    assert all("ci95" in s.__dict__ for a in result.arms for s in a.suites.values())


def test_draws_cut_short_are_not_kept() -> None:
    """The draws of up to 256 values are kept for the next list of that length; made as they are
    asked for, a stopped interval stops making them (they were all made first: 0.2 s at 256
    values with no look at `stopped`), and keeps none of them."""
    values = [1.5, 2.0, 0.5, 3.0, 1.0, 4.0, 2.5]
    stats._KEPT.pop(len(values), None)
    asked: list[int] = []
    with pytest.raises(Cancelled):
        bootstrap_ci(values, lambda: len(asked) > 1 or bool(asked.append(1)))
    assert len(values) not in stats._KEPT
    whole = bootstrap_ci(values)
    assert len(stats._KEPT[len(values)]) == RESAMPLES and bootstrap_ci(values) == whole
