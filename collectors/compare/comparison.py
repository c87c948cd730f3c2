"""Compare implementations: speedups (latency) and ratios (resources) against a baseline per problem.

Pure: no Textual, no I/O. The words (problem, arm, candidate, baseline, P) are in
collectors/compare/model.py. An arm's answer for a problem is its final variant (or its best
passing one with pick `best`).

`Comparer` indexes records by problem once; a change to one problem recomputes only that problem's
rows (`Comparer.discard` then `Comparer.add`), the per-arm summary is then re-aggregated (cheap).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from collectors.compare.metrics import METRICS, Metric
from collectors.compare.model import (
    ORACLE,
    ArmKey,
    BaselineRule,
    Candidate,
    CandidateKey,
    Canonical,
    Options,
    ProblemKey,
    ProblemResult,
    Row,
    Spelling,
    arm_key,
    arm_label,
    as_recorded,
    as_spelled,
    describe,
    measure,
    variant_order,
)
from collectors.compare.summary import ArmSummary, summarize
from collectors.interpreter import collector_paused
from collectors.problems import Cancelled

__all__ = [
    "METRICS",
    "ArmKey",
    "ArmSummary",
    "Canonical",
    "Candidate",
    "Comparer",
    "Comparison",
    "Metric",
    "Options",
    "ProblemKey",
    "Row",
    "Spelling",
    "arm_key",
    "arm_label",
    "bulk",
    "compare",
    "measure",
    "summarize",
    "trajectory",
]


def _best(candidates: list[Candidate], metric: Metric) -> Candidate | None:
    """The passing candidate with the best value (the lowest; the highest for fmax), lowest variant first."""
    sign = -1 if metric.higher else 1
    scored = [
        (sign * m.value, variant_order(c), c)  # type: ignore[operator]
        for c in candidates
        if (m := measure(c, metric)).status == "pass"
    ]
    return min(scored, key=lambda s: (s[0], s[1]))[2] if scored else None


def choose_baseline(candidates: list[Candidate], rule: BaselineRule, metric: Metric) -> Candidate | None:
    if rule.kind == "explicit":
        chosen = [
            c
            for c in candidates
            if c.origin == rule.origin
            and (not rule.version_given or c.origin_version == rule.version)
            and (rule.variant is None or _variant_matches(c, rule.variant))
        ]
        return min(chosen, key=variant_order) if chosen else None
    benchmark = [c for c in candidates if c.origin.endswith("_benchmark")]
    lowest = min(benchmark, key=variant_order) if benchmark else None
    if rule.kind == "best":  # none passes: no baseline, and every benchmark variant stays a candidate
        return _best(benchmark, metric)
    return lowest


def _variant_matches(candidate: Candidate, variant: str) -> bool:
    return str(candidate.index) == variant if variant.isdigit() else candidate.name == variant


def pick(candidates: list[Candidate], how: str, metric: Metric) -> tuple[Candidate, list[Candidate]]:
    """An arm's answer, and the variants tied with it when the final one was taken: several
    variants at the highest index (the one read last is the final: see `variant_order`)."""
    best = _best(candidates, metric) if how == "best" else None
    if best is not None:
        return best, []
    final = max(candidates, key=variant_order)
    tied = [c for c in candidates if c.index == final.index]
    return final, tied if len(tied) > 1 else []


def compare_problem(problem: ProblemKey, candidates: list[Candidate], options: Options) -> ProblemResult:
    """Rows and arm answers of one problem: all that a change to this problem recomputes."""
    metric = options.measure
    baseline = choose_baseline(candidates, options.rule, metric)
    base = measure(baseline, metric) if baseline is not None else None
    base_value = base.value if base is not None and base.status == "pass" else None
    groups: dict[ArmKey, list[Candidate]] = {}
    for candidate in sorted(candidates, key=variant_order):
        if candidate is not baseline:  # the baseline is compared with nothing, itself included
            groups.setdefault(arm_key(candidate, options.by), []).append(candidate)
    rows: list[Row] = []
    answers: dict[ArmKey, Row] = {}
    for arm, group in groups.items():
        attempted = any(c.of(metric.kind, metric.target) for c in group)
        chosen, tied = pick(group, options.pick, metric) if attempted else (None, [])
        for candidate in group:
            row = _row(problem, arm, candidate, metric, base_value)
            row.answer = candidate is chosen
            rows.append(row)
            if row.answer:
                row.tied = tied
                answers[arm] = row
    if options.oracle:
        _add_oracle(problem, answers, metric, options.by)
    return ProblemResult(baseline, base, rows, answers, candidates)


def _add_oracle(problem: ProblemKey, answers: dict[ArmKey, Row], metric: Metric, by: str) -> None:
    """The virtual best: the best passing answer among the arms (ties: the first arm by label)."""
    passed = sorted((r for r in answers.values() if r.passed), key=lambda r: arm_label(r.arm, by))
    if not passed:
        return
    sign = 1 if metric.sized else -1  # the lowest ratio, or the highest speedup
    best = min(passed, key=lambda r: sign * r.speedup)  # type: ignore[operator]
    answers[ORACLE] = replace(best, arm=ORACLE, answer=True, tied=[], source=best.arm)


def _row(problem: ProblemKey, arm: ArmKey, candidate: Candidate, metric: Metric, base: float | None) -> Row:
    got = measure(candidate, metric)
    row = Row(problem, arm, candidate, got.status, got.value, base, utilisation=got.utilisation)
    if got.status == "pass" and got.value is not None:
        if base is None:
            row.status = "no baseline"
        else:  # speedup: higher is faster; resource ratio: lower is smaller
            row.speedup = metric.shown(got.value, base)
    return row


@dataclass
class Comparison:
    options: Options
    results: dict[ProblemKey, ProblemResult]
    arms: list[ArmSummary]
    with_baseline: frozenset[ProblemKey]  # P, after --common
    candidates: dict[ProblemKey, list[Candidate]]

    @property
    def problems(self) -> list[ProblemKey]:
        return sorted(self.results)

    @property
    def rows(self) -> list[Row]:
        return [
            row
            for p in self.problems
            for row in sorted(
                self.results[p].rows, key=lambda r: (arm_label(r.arm, self.options.by), variant_order(r.candidate))
            )
        ]

    def answer(self, arm: ArmKey, problem: ProblemKey) -> Row | None:
        return self.results[problem].answers.get(arm)

    def spelled(self, problem: ProblemKey) -> ProblemKey:
        """The problem as the records write it (see ProblemResult.spelled)."""
        result = self.results.get(problem)
        return (result.spelled if result is not None else None) or problem

    def ties(self) -> list[tuple[ProblemKey, Row]]:
        """(problem, answer) for each answer taken among variants that share the highest index."""
        return [
            (p, row)
            for p in self.problems
            for row in sorted(self.results[p].answers.values(), key=lambda r: arm_label(r.arm, self.options.by))
            if row.tied
        ]

    def warnings(self) -> list[str]:
        """One line each: a baseline rule that names nothing, arms that merge several setups (--by
        origin or meta.KEY), then ties for final."""
        return unmatched_rule(self) + merge_warnings(self) + [tie_warning(self, p, row) for p, row in self.ties()]


def unmatched_rule(comparison: Comparison) -> list[str]:
    """An explicit baseline rule that no variant of the records answers (a typo: every cell was
    'no baseline', and nothing said why)."""
    rule, metric = comparison.options.rule, comparison.options.measure
    if rule.kind != "explicit" or not comparison.candidates:
        return []
    if any(choose_baseline(found, rule, metric) is not None for found in comparison.candidates.values()):
        return []
    said = f"the baseline rule {comparison.options.baseline} names no variant of the records"
    return [f"{said}: no problem has a baseline"]


def tie_warning(comparison: Comparison, problem: ProblemKey, row: Row) -> str:
    """'s/p: arm A has 2 variants at index 0 (#0 a, #0 b): #0 b, read last, is its answer'."""
    several = comparison.options.by != "arm"
    suite, group = comparison.spelled(problem)
    return (
        f"{suite}/{'/'.join(group)}: arm {arm_label(row.arm, comparison.options.by)} has {len(row.tied)} variants "
        f"at index {row.candidate.index} ({', '.join(describe(c, several) for c in row.tied)}): "
        f"{describe(row.candidate, several)}, read last, is its answer"
    )


def merge_warnings(comparison: Comparison) -> list[str]:
    """An arm of `--by origin` or `--by meta.KEY` that holds several (origin, origin_version) setups."""
    by = comparison.options.by
    if by == "arm":
        return []
    setups: dict[ArmKey, set[tuple[str, str | None]]] = {}
    for candidates in comparison.candidates.values():
        for c in candidates:
            setups.setdefault(arm_key(c, by), set()).add((c.origin, c.origin_version))
    return [
        f"arm {arm_label(arm, by)} merges {len(found)} setups: "
        + ", ".join(o if v is None else f"{o}@{v}" for o, v in sorted(found, key=lambda s: (s[0], s[1] or "")))
        for arm, found in sorted(setups.items(), key=lambda a: arm_label(a[0], by))
        if len(found) > 1
    ]


class Comparer:
    """Records indexed by problem; only the problems touched since the last `result()` are recomputed."""

    def __init__(self, options: Options, canonical: Canonical | None = None, spelling: Spelling | None = None) -> None:
        self.options = options
        self.canonical: Canonical = canonical or as_recorded
        self.spelling: Spelling = spelling or as_spelled
        self.candidates: dict[ProblemKey, dict[CandidateKey, Candidate]] = {}
        self.results: dict[ProblemKey, ProblemResult] = {}
        self.dirty: set[ProblemKey] = set()
        self.skipped = 0  # records without the identity a comparison needs
        self._seq = 0

    def add(self, records: Iterable[dict[str, Any]]) -> set[ProblemKey]:
        """Index records; returns the problems they touched."""
        touched = {p for p in map(self._add, records) if p is not None}
        self.dirty |= touched
        return touched

    def reconfigure(self, options: Options) -> None:
        """Other options (metric, rule, pick, policy, common, by): every problem is recomputed on
        the next `result()`, from values the candidates keep (no record is read again)."""
        self.options = options
        self.dirty |= set(self.candidates)

    def discard(self, problem: ProblemKey) -> None:
        """Forget a problem's records (the live screen then adds what the problem holds now)."""
        self.candidates.pop(problem, None)
        self.results.pop(problem, None)
        self.dirty.add(problem)

    def _add(self, record: dict[str, Any]) -> ProblemKey | None:
        try:
            problem, device = self.canonical(record)
            implementation = record["implementation"]
            variant = implementation["variant"]
            version = implementation.get("origin_version")
            key = (
                str(implementation["origin"]),
                None if version is None else str(version),
                int(variant["index"]),
                str(variant["name"]),
            )
            if not isinstance(record.get("report_type"), str):
                raise TypeError("no report_type")
        except (KeyError, TypeError, ValueError, AttributeError):
            self.skipped += 1
            return None
        candidate = self.candidates.setdefault(problem, {}).get(key)
        if candidate is None:
            self._seq += 1
            candidate = Candidate(*key, seq=self._seq, device=device, spelled=self.spelling(record))
            self.candidates[problem][key] = candidate
        candidate.add(record)
        for name, value in (implementation.get("origin_meta") or {}).items():
            candidate.meta.setdefault(name, value)
        return problem

    def result(self, cancelled: Callable[[], bool] = lambda: False) -> Comparison:
        """The comparison with every problem touched since recomputed. `cancelled`: asked between
        two problems (a screen closed while it loads); Cancelled is raised when it says so, the
        problems not yet recomputed left dirty."""
        for problem in list(self.dirty):
            if cancelled():
                raise Cancelled
            if problem in self.candidates:
                self.results[problem] = compare_problem(problem, list(self.candidates[problem].values()), self.options)
            self.dirty.discard(problem)
        arms, with_baseline = summarize(self.results, self.options)
        candidates = {p: list(c.values()) for p, c in self.candidates.items()}
        return Comparison(self.options, dict(self.results), arms, with_baseline, candidates)


@contextmanager
def bulk() -> Iterator[None]:
    """No cyclic garbage collection while many records are read and indexed: records hold no
    cycles, and with 100,000 of them alive each collection walks them all (a 3x slowdown)."""
    with collector_paused():
        yield


def compare(
    records: Iterable[dict[str, Any]],
    options: Options | None = None,
    canonical: Canonical | None = None,
    spelling: Spelling | None = None,
) -> Comparison:
    comparer = Comparer(options or Options(), canonical, spelling)
    comparer.add(records)
    return comparer.result()


@dataclass
class Step:
    index: int
    name: str
    status: str
    value: float | None
    best_so_far: float | None  # the lowest passing value up to this step
    failed: bool  # no value at this step (fail, timeout, missing, no value)


def trajectory(comparison: Comparison, arm: ArmKey, problem: ProblemKey) -> list[Step]:
    """An arm's variants of one problem in index order (the baseline included): value and best so far."""
    metric, by = comparison.options.measure, comparison.options.by
    chosen = sorted((c for c in comparison.candidates.get(problem, []) if arm_key(c, by) == arm), key=variant_order)
    steps: list[Step] = []
    best: float | None = None
    for candidate in chosen:
        got = measure(candidate, metric)
        if got.status == "pass" and got.value is not None:
            best = got.value if best is None else min(best, got.value)
        steps.append(Step(candidate.index, candidate.name, got.status, got.value, best, got.status != "pass"))
    return steps
