"""Head to head (pure): every pair of arms shown, over the problems of P both answered with a pass.

For arms A and B and such a problem, r = A's speedup / B's speedup (for a sized metric, B's ratio
/ A's ratio), so r > 1 means A did better. A win is r > 1.01, a loss r < 0.99, anything else a
tie (within 1 %). `geomean_ratio` is the geomean of r; `p_value` the exact two-sided sign test
over the wins and losses (collectors/compare/stats.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from collectors.compare.comparison import Comparison
from collectors.compare.model import ORACLE, ArmKey, ProblemKey, arm_label
from collectors.compare.stats import geomean, outcome, sign_test


@dataclass(frozen=True)
class Pair:
    a: ArmKey
    b: ArmKey
    a_label: str
    b_label: str
    problems: int
    wins: int
    losses: int
    ties: int
    geomean_ratio: float | None
    p_value: float


def ratios(comparison: Comparison, a: ArmKey, b: ArmKey) -> dict[ProblemKey, float]:
    """r per problem of P that both arms answered with a pass (r > 1: A did better)."""
    sized = comparison.options.measure.sized
    found = {}
    for problem in sorted(comparison.with_baseline):
        left, right = comparison.answer(a, problem), comparison.answer(b, problem)
        if left is None or right is None or not left.passed or not right.passed:
            continue
        x, y = left.speedup, right.speedup
        assert x is not None and y is not None  # passed
        found[problem] = y / x if sized else x / y
    return found


def head_to_head(comparison: Comparison, a: ArmKey, b: ArmKey) -> Pair:
    found = list(ratios(comparison, a, b).values())
    outcomes = [outcome(r) for r in found]
    wins, losses = outcomes.count(1), outcomes.count(-1)
    by = comparison.options.by
    return Pair(
        a,
        b,
        arm_label(a, by),
        arm_label(b, by),
        len(found),
        wins,
        losses,
        outcomes.count(0),
        geomean(found),
        sign_test(wins, losses),
    )


def pairs(comparison: Comparison) -> list[Pair]:
    """Every unordered pair of the arms shown (the virtual best left out), in column order."""
    arms = [arm.arm for arm in comparison.arms if arm.arm != ORACLE]
    return [head_to_head(comparison, a, b) for n, a in enumerate(arms) for b in arms[n + 1 :]]
