"""Pareto fronts of a comparison (pure): one point per arm, the non-dominated ones marked.

- One problem: each arm's answer (and the baseline) on two metrics, each in its own direction
  (latency against LUT by default, both lower-is-better; fmax is higher-is-better).
- The whole suite: each arm's geometric-mean speedup (higher is better) against its geometric
  mean LUT ratio (lower is better), both over its compared problems.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from collectors.compare.comparison import (
    METRICS,
    Comparison,
    Options,
    ProblemKey,
    arm_label,
    compare_problem,
    measure,
    summarize,
)


@dataclass(frozen=True)
class Point:
    label: str
    x: float
    y: float
    dominated: bool = False
    baseline: bool = False


@dataclass(frozen=True)
class Front:
    x_label: str
    y_label: str
    points: list[Point]  # the front first (by x), then the dominated
    left_out: list[str]  # "label: why" for arms without both values
    x_lower: bool = True  # lower x is better
    y_lower: bool = True


def mark_dominated(points: list[Point], x_lower: bool = True, y_lower: bool = True) -> list[Point]:
    """Points with `dominated` set: another point is at least as good on both axes and better on one."""
    sx, sy = (1 if x_lower else -1), (1 if y_lower else -1)

    def beats(a: Point, b: Point) -> bool:
        ax, ay, bx, by = sx * a.x, sy * a.y, sx * b.x, sy * b.y
        return ax <= bx and ay <= by and (ax < bx or ay < by)

    marked = [replace(p, dominated=any(beats(q, p) for q in points if q is not p)) for p in points]
    return sorted(marked, key=lambda p: (p.dominated, p.x, p.y, p.label))


def problem_front(comparison: Comparison, problem: ProblemKey, x_metric: str, y_metric: str) -> Front:
    """Each arm's answer for `problem` (the pick of the comparison's options) and the baseline."""
    options = comparison.options
    x, y = METRICS[x_metric], METRICS[y_metric]
    result = comparison.results.get(problem)
    points, left_out = [], []
    chosen = [] if result is None else [(arm_label(a, options.by), row.candidate) for a, row in result.answers.items()]
    if result is not None and result.baseline is not None:
        b = result.baseline
        chosen.insert(0, (f"baseline {b.origin}#{b.index}", b))
    for n, (label, candidate) in enumerate(chosen):
        gx, gy = measure(candidate, x), measure(candidate, y)
        if gx.value is None or gy.value is None or gx.status != "pass" or gy.status != "pass":
            left_out.append(f"{label}: {x_metric} {gx.status}, {y_metric} {gy.status}")
        elif gx.value <= 0 or gy.value <= 0:
            left_out.append(f"{label}: zero on a log axis")
        else:
            points.append(Point(label, gx.value, gy.value, baseline=n == 0 and label.startswith("baseline ")))
    marked = mark_dominated(points, x_lower=not x.higher, y_lower=not y.higher)  # fmax: higher is better
    return Front(x.label, y.label, marked, left_out, x_lower=not x.higher, y_lower=not y.higher)


def suite_front(comparison: Comparison) -> Front:
    """Per arm: geomean speedup (the comparison's latency metric, csynth.worst for a resource one)
    against geomean LUT ratio, each over the problems compared on that metric."""
    options = comparison.options
    latency = options.metric if not options.measure.sized else "csynth.worst"
    speed = _summaries(comparison, replace(options, metric=latency))
    area = _summaries(comparison, replace(options, metric="lut"))
    points, left_out = [], []
    for label, s in speed.items():
        a = area.get(label)
        if s is None or a is None:
            left_out.append(f"{label}: no compared problem on {'LUT' if s is not None else latency}")
        else:
            points.append(Point(label, a, s))
    return Front(
        "LUT ratio (geomean, lower is smaller)",
        f"{'ratio' if METRICS[latency].higher else 'speedup'} on {latency} (geomean, higher is better)",
        mark_dominated(points, x_lower=True, y_lower=False),
        left_out,
        y_lower=False,
    )


def _summaries(comparison: Comparison, options: Options) -> dict[str, float | None]:
    results = {p: compare_problem(p, c, options) for p, c in comparison.candidates.items()}
    arms, _ = summarize(results, options)
    return {a.label: a.geomean for a in arms}
