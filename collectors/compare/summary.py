"""Each arm's summary over the problems of a comparison (pure): geomean, spread, statuses, stages."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from collectors.compare.model import (
    ORACLE,
    STAGES,
    ArmKey,
    Candidate,
    Options,
    ProblemKey,
    ProblemResult,
    Row,
    arm_label,
    payload_of,
)
from collectors.compare.stats import bootstrap_ci, bootstrap_cis, geomean, pass_at_k


@dataclass
class ArmSummary:
    arm: ArmKey
    label: str
    origin: str | None  # None when the arm's candidates have several (grouped by meta.KEY)
    origin_version: str | None
    problems: int  # attempted problems
    compared: int  # attempted problems in P whose answer passed
    baselines: int  # |P|
    geomean: float | None
    min: float | None
    median: float | None
    max: float | None
    status_counts: dict[str, int]
    fast_1: float | None  # share of P where the answer beats the baseline (ratio < 1 for resources)
    stages: dict[str, tuple[int, int, int]]  # report type -> candidates: with a passing record, with one, all
    values: list[float] = field(default_factory=list)  # what the geomean is over, in problem order
    fast_p: dict[str, float | None] = field(default_factory=dict)  # threshold as written -> share of P
    pass_at_k: dict[str, dict[str, float]] = field(default_factory=dict)  # stage -> k -> mean pass@k
    suites: dict[str, ArmSummary] = field(default_factory=dict)  # per suite, when there are several

    @cached_property
    def ci95(self) -> tuple[float, float] | None:
        """The geomean's 95 % bootstrap interval (collectors/compare/stats.py), computed when asked for."""
        return bootstrap_ci(self.values)


def fill_intervals(arms: Iterable[ArmSummary], stopped: Callable[[], bool] | None = None, suites: bool = False) -> None:
    """Every arm's `ci95` (and with `suites` its suites', which only the JSON output shows), those
    not known yet worked out together: the arms of as many problems share their resamples
    (stats.bootstrap_cis). `stopped`: see bootstrap_ci."""
    every = [summary for arm in arms for summary in (arm, *(arm.suites.values() if suites else ()))]
    wanted = [summary for summary in every if "ci95" not in summary.__dict__]
    for summary, interval in zip(wanted, bootstrap_cis([s.values for s in wanted], stopped)):
        summary.__dict__["ci95"] = interval  # (what the cached property then gives)


def summarize_arm(
    arm: ArmKey,
    results: dict[ProblemKey, ProblemResult],
    with_baseline: frozenset[ProblemKey],
    options: Options,
    candidates: list[Candidate],
) -> ArmSummary:
    """One arm's summary; `candidates` are the arm's candidates over every problem."""
    answers = {p: r.answers[arm] for p, r in results.items() if arm in r.answers}
    speedups = {p: row.speedup for p, row in sorted(answers.items()) if p in with_baseline and row.passed}
    values = [s for s in speedups.values() if s is not None]
    if options.policy == "one":  # every problem of P counts; one the arm did not win counts 1.0
        values = [speedups.get(p) or 1.0 for p in sorted(with_baseline)]
    shares = {p: _share(speedups, float(p), len(with_baseline), options.measure.sized) for p in options.fast_p}
    return ArmSummary(
        arm,
        arm_label(arm, options.by),
        _only({c.origin for c in candidates}),
        _only({c.origin_version for c in candidates}),
        len(answers),
        len(speedups),
        len(with_baseline),
        geomean(values),
        min(values, default=None),
        statistics.median(values) if values else None,
        max(values, default=None),
        dict(Counter(answer_status(row) for row in answers.values())),
        _share(speedups, 1.0, len(with_baseline), options.measure.sized),
        _stages(candidates),
        values,
        shares,
    )


def _share(speedups: dict[ProblemKey, float | None], p: float, of: int, sized: bool) -> float | None:
    """The share of P whose answer passed and is more than p times better (smaller, when sized)."""
    better = [s for s in speedups.values() if s is not None and (s * p < 1 if sized else s > p)]
    return len(better) / of if of else None


def answer_status(row: Row) -> str:
    """The answer's own status: a pass is a pass whether or not the problem has a baseline."""
    return "pass" if row.status == "no baseline" else row.status


def _only(values: set[Any]) -> Any:
    return next(iter(values)) if len(values) == 1 else None


def _stages(candidates: list[Candidate]) -> dict[str, tuple[int, int, int]]:
    flags = [_stage_flags(c) for c in candidates]
    return {
        stage: (sum(f[stage][0] for f in flags), sum(f[stage][1] for f in flags), len(candidates)) for stage in STAGES
    }


def _stage_flags(candidate: Candidate) -> dict[str, tuple[bool, bool]]:
    """Per stage: has a passing record, has a record (kept in the candidate's cache)."""
    found = candidate.cache.get("stages")
    if found is None:
        found = candidate.cache["stages"] = {
            stage: (
                any(payload_of(r, stage).get("status") == "pass" for r in candidate.of(stage)),
                bool(candidate.of(stage)),
            )
            for stage in STAGES
        }
    return found


PASS_AT = (1, 5, 10)


def samples_pass_at_k(attempts: dict[ProblemKey, list[Candidate]]) -> dict[str, dict[str, float]]:
    """Per stage, per k: the mean over problems with n >= k attempts of the unbiased pass@k
    (n = the arm's variants of the problem, c = those with a passing record of the stage). A
    stage no record of the arm reports has no entry."""
    flags = {p: [_stage_flags(c) for c in cs] for p, cs in attempts.items()}
    found: dict[str, dict[str, float]] = {}
    for stage in STAGES:
        if not any(f[stage][1] for fs in flags.values() for f in fs):
            continue
        per_k: dict[str, float] = {}
        for k in PASS_AT:
            scores = [pass_at_k(len(fs), sum(f[stage][0] for f in fs), k) for fs in flags.values() if len(fs) >= k]
            if scores:
                per_k[str(k)] = sum(scores) / len(scores)
        found[stage] = per_k
    return found


def _arm_candidates(results: dict[ProblemKey, ProblemResult]) -> dict[ArmKey, dict[ProblemKey, list[Candidate]]]:
    by_arm: dict[ArmKey, dict[ProblemKey, list[Candidate]]] = {}
    for problem, result in results.items():
        for each in result.rows:
            by_arm.setdefault(each.arm, {}).setdefault(problem, []).append(each.candidate)
        oracle = result.answers.get(ORACLE)
        if oracle is not None:
            by_arm.setdefault(ORACLE, {})[problem] = [oracle.candidate]
    return by_arm


def common_problems(results: dict[ProblemKey, ProblemResult], arms: list[ArmKey], options: Options) -> frozenset:
    """P: the problems with a baseline; with --common, only those every arm shown passed."""
    with_baseline = {p for p, r in results.items() if r.has_baseline}
    if options.common:
        with_baseline = {
            p
            for p in with_baseline
            if all((row := results[p].answers.get(a)) is not None and row.passed for a in arms if a != ORACLE)
        }
    return frozenset(with_baseline)


def summarize(results: dict[ProblemKey, ProblemResult], options: Options) -> tuple[list[ArmSummary], frozenset]:
    by_arm = _arm_candidates(results)
    arms = sorted((a for a in by_arm if a != ORACLE), key=lambda a: arm_label(a, options.by))
    arms += [ORACLE] * (ORACLE in by_arm)  # the virtual best: the last column
    frozen = common_problems(results, arms, options)
    suites = sorted({p[0] for p in results})
    summaries = []
    for arm in arms:
        attempts = by_arm[arm]
        summary = summarize_arm(arm, results, frozen, options, [c for cs in attempts.values() for c in cs])
        if options.samples:
            summary.pass_at_k = samples_pass_at_k(attempts)
        if len(suites) > 1:
            summary.suites = {s: _suite_summary(arm, s, results, frozen, options, attempts) for s in suites}
        summaries.append(summary)
    return summaries, frozen


def _suite_summary(
    arm: ArmKey,
    suite: str,
    results: dict[ProblemKey, ProblemResult],
    with_baseline: frozenset,
    options: Options,
    attempts: dict[ProblemKey, list[Candidate]],
) -> ArmSummary:
    """The arm's summary over one suite's problems only."""
    inside = {p: r for p, r in results.items() if p[0] == suite}
    chosen = {p: cs for p, cs in attempts.items() if p[0] == suite}
    summary = summarize_arm(
        arm,
        inside,
        frozenset(p for p in with_baseline if p[0] == suite),
        options,
        [c for cs in chosen.values() for c in cs],
    )
    if options.samples:
        summary.pass_at_k = samples_pass_at_k(chosen)
    return summary
