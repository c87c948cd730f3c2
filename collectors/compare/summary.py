"""Each arm's summary over the problems of a comparison (pure): geomean, spread, statuses, stages."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from collectors.compare.model import (
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


def geomean(values: list[float]) -> float | None:
    return math.exp(math.fsum(math.log(v) for v in values) / len(values)) if values else None


def summarize_arm(
    arm: ArmKey,
    results: dict[ProblemKey, ProblemResult],
    with_baseline: frozenset[ProblemKey],
    options: Options,
    candidates: list[Candidate],
) -> ArmSummary:
    """One arm's summary; `candidates` are the arm's candidates over every problem."""
    answers = {p: r.answers[arm] for p, r in results.items() if arm in r.answers}
    speedups = {p: row.speedup for p, row in answers.items() if p in with_baseline and row.passed}
    values = [s for s in speedups.values() if s is not None]
    if options.policy == "one":  # every problem of P counts; one the arm did not win counts 1.0
        values = [speedups.get(p) or 1.0 for p in sorted(with_baseline)]
    resource = options.measure.sized
    better = [s for s in speedups.values() if s is not None and (s < 1 if resource else s > 1)]
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
        len(better) / len(with_baseline) if with_baseline else None,
        _stages(candidates),
    )


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


def summarize(results: dict[ProblemKey, ProblemResult], options: Options) -> tuple[list[ArmSummary], frozenset]:
    by_arm: dict[ArmKey, list[Candidate]] = {}
    for result in results.values():
        for each in result.rows:
            by_arm.setdefault(each.arm, []).append(each.candidate)
    arms = sorted(by_arm, key=lambda a: arm_label(a, options.by))
    with_baseline = {p for p, r in results.items() if r.has_baseline}
    if options.common:  # only problems where every arm shown has a passing answer
        with_baseline = {
            p for p in with_baseline if all((row := results[p].answers.get(a)) is not None and row.passed for a in arms)
        }
    frozen = frozenset(with_baseline)
    return [summarize_arm(a, results, frozen, options, by_arm[a]) for a in arms], frozen
