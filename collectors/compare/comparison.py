"""Compare implementations: speedups (latency) and ratios (resources) against a baseline per problem.

Pure: no Textual, no I/O. Words used here (issue 10):
- problem: (suite, group_path) after aliases; arm: one producer setup, (origin, origin_version) by
  default; candidate: (arm, variant) for a problem.
- The baseline of a problem is chosen by a rule (`benchmark`, `best` or `ORIGIN[@VERSION][#VARIANT]`);
  P is the set of problems whose baseline passed with a value.
- An arm's answer for a problem is its final variant (or its best passing one with pick `best`).

`Comparer` indexes records by problem once; a change to one problem recomputes only that problem's
rows (`Comparer.discard` then `Comparer.add`), the per-arm summary is then re-aggregated (cheap).
"""

from __future__ import annotations

import gc
import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

ProblemKey = tuple[str, tuple[str, ...]]
ArmKey = tuple[Any, ...]
CandidateKey = tuple[str, "str | None", int, str]
# The single seam for aliases: a record -> (problem key, device). The default keeps the values as they are.
Canonical = Callable[[dict[str, Any]], tuple[ProblemKey, "str | None"]]

STAGES = ("sw_run", "hls_synth", "rtl_sim")  # C simulation, synthesis, co-simulation / hw_emu
PICKS = ("final", "best")
POLICIES = ("exclude", "one")
RULES = ("benchmark", "best", "ORIGIN[@VERSION][#VARIANT]")
BYS = ("arm", "origin", "meta.KEY")


def to_number(text: Any) -> float | None:
    """A csynth string ('52627', '2.494') or a JSON number; 'undef', null, NaN and bools are no value."""
    if isinstance(text, bool) or text is None:
        return None
    if isinstance(text, (int, float)):
        value = text
    else:
        try:
            value = int(str(text).strip())
        except ValueError:
            try:
                value = float(str(text).strip())
            except ValueError:
                return None
    return value if math.isfinite(value) else None


def _section(payload: dict[str, Any], *path: str) -> dict[str, Any]:
    for name in path:
        payload = payload.get(name) if isinstance(payload, dict) else None  # type: ignore[assignment]
    return payload if isinstance(payload, dict) else {}


def _latency(which: str) -> Callable[[dict[str, Any]], float | None]:
    return lambda p: to_number(_section(p, "PerformanceEstimates", "SummaryOfOverallLatency").get(which))


def _time_ns(payload: dict[str, Any]) -> float | None:
    cycles = _latency("Worst-caseLatency")(payload)
    period = to_number(_section(payload, "PerformanceEstimates", "SummaryOfTimingAnalysis").get("EstimatedClockPeriod"))
    return None if cycles is None or period is None else cycles * period


def _resource(name: str, section: str = "Resources") -> Callable[[dict[str, Any]], float | None]:
    return lambda p: to_number(_section(p, "AreaEstimates", section).get(name))


def _field(name: str) -> Callable[[dict[str, Any]], float | None]:
    return lambda p: to_number(p.get(name))


@dataclass(frozen=True)
class Metric:
    name: str
    kind: str  # the report_type whose records hold it
    target: str | None  # run.target the record must have; None: any
    label: str
    read: Callable[[dict[str, Any]], float | None]
    resource: str | None = None  # the AreaEstimates name: ratio, not speedup, and a utilisation

    @property
    def is_resource(self) -> bool:
        return self.resource is not None


def _resource_metric(name: str, xml: str) -> Metric:
    return Metric(name, "hls_synth", None, f"{xml} (AreaEstimates.Resources)", _resource(xml), xml)


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("csynth.worst", "hls_synth", None, "worst-case latency, cycles", _latency("Worst-caseLatency")),
        Metric("csynth.avg", "hls_synth", None, "average-case latency, cycles", _latency("Average-caseLatency")),
        Metric("csynth.best", "hls_synth", None, "best-case latency, cycles", _latency("Best-caseLatency")),
        Metric("csynth.time", "hls_synth", None, "worst-case latency in ns at the estimated clock", _time_ns),
        Metric("cosim.cycles", "rtl_sim", "vitis.cosim", "co-simulation cycles", _field("kernel_runtime_cycles")),
        Metric("hwemu.us", "rtl_sim", "vitis.hw_emu", "hw_emu kernel time, µs", _field("kernel_runtime_us")),
        _resource_metric("lut", "LUT"),
        _resource_metric("ff", "FF"),
        _resource_metric("dsp", "DSP"),
        _resource_metric("bram", "BRAM_18K"),
        _resource_metric("uram", "URAM"),
    )
}


@dataclass(frozen=True)
class BaselineRule:
    kind: str  # "benchmark", "best" or "explicit"
    origin: str | None = None
    version: str | None = None
    version_given: bool = False
    variant: str | None = None  # an index (digits) or a name


def parse_baseline(text: str) -> BaselineRule:
    """`benchmark`, `best`, or `ORIGIN[@VERSION][#VARIANT]` (VARIANT: an index or a name)."""
    if text in ("benchmark", "best"):
        return BaselineRule(text)
    rest, hash_sign, variant = text.rpartition("#") if "#" in text else (text, "", "")
    origin, at_sign, version = rest.partition("@")
    if not origin.strip() or (hash_sign and not variant) or (at_sign and not version):
        raise ValueError(f"unknown baseline rule {text!r}; valid rules: {', '.join(RULES)}")
    return BaselineRule("explicit", origin, version or None, bool(at_sign), variant or None)


@dataclass(frozen=True)
class Options:
    metric: str = "csynth.worst"
    baseline: str = "benchmark"
    pick: str = "final"
    policy: str = "exclude"
    common: bool = False
    by: str = "arm"

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise ValueError(f"unknown metric {self.metric!r}; valid metrics: {', '.join(METRICS)}")
        parse_baseline(self.baseline)
        for name, value, valid in (("pick", self.pick, PICKS), ("policy", self.policy, POLICIES)):
            if value not in valid:
                raise ValueError(f"unknown {name} {value!r}; valid: {', '.join(valid)}")
        if self.by not in ("arm", "origin") and not (self.by.startswith("meta.") and len(self.by) > 5):
            raise ValueError(f"unknown grouping {self.by!r}; valid: {', '.join(BYS)}")

    @property
    def rule(self) -> BaselineRule:
        return parse_baseline(self.baseline)

    @property
    def measure(self) -> Metric:
        return METRICS[self.metric]


def as_recorded(record: dict[str, Any]) -> tuple[ProblemKey, str | None]:
    """The default `canonical`: suite, group path and device exactly as the record has them."""
    problem = record["problem"]
    device = (record.get("run") or {}).get("device")
    return (str(problem["suite"]), tuple(str(p) for p in problem["group_path"])), device


@dataclass
class Candidate:
    """One (origin, origin_version, variant) of one problem and its records, in input order."""

    origin: str
    origin_version: str | None
    index: int
    name: str
    seq: int  # when it was first seen: breaks ties between equal variant indexes
    device: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)  # origin_meta of its records, first value wins
    records: list[dict[str, Any]] = field(default_factory=list)
    # what its records give, per (kind, target) and per metric: a switch of metric, rule, pick or
    # policy then costs no record reading; `add` forgets it
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def key(self) -> CandidateKey:
        return (self.origin, self.origin_version, self.index, self.name)

    def add(self, record: dict[str, Any]) -> None:
        self.records.append(record)
        self.cache.clear()

    def of(self, kind: str, target: str | None = None) -> list[dict[str, Any]]:
        found = self.cache.get((kind, target))
        if found is None:
            found = self.cache[(kind, target)] = [
                r
                for r in self.records
                if r.get("report_type") == kind and (target is None or (r.get("run") or {}).get("target") == target)
            ]
        return found


@dataclass(frozen=True)
class Measured:
    status: str  # pass, fail, timeout (from the payload), missing, no value (a pass without the value)
    value: float | None = None
    utilisation: float | None = None


def measure(candidate: Candidate, metric: Metric) -> Measured:
    """The candidate's value: from a passing record that holds it if any, else from its last record."""
    found = candidate.cache.get(metric.name)
    if found is None:
        found = candidate.cache[metric.name] = _measure(candidate, metric)
    return found


def _measure(candidate: Candidate, metric: Metric) -> Measured:
    records = candidate.of(metric.kind, metric.target)
    if not records:
        return Measured("missing")
    payloads: list[dict[str, Any]] = [_payload(r, metric.kind) for r in records]
    for payload in reversed(payloads):
        value = metric.read(payload)
        if payload.get("status") == "pass" and value is not None:
            return Measured("pass", value, _utilisation(payload, metric, value))
    status = payloads[-1].get("status")
    if status == "pass":
        return Measured("no value")
    return Measured(status if isinstance(status, str) else "fail")


def _payload(record: dict[str, Any], kind: str) -> dict[str, Any]:
    payload = record.get(kind)
    return payload if isinstance(payload, dict) else {}


def _utilisation(payload: dict[str, Any], metric: Metric, value: float) -> float | None:
    if metric.resource is None:
        return None
    available = _resource(metric.resource, "AvailableResources")(payload)
    return value / available if available else None


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator; 0/0 is 1.0 (both use none), anything else with a zero is undefined."""
    if numerator == 0 and denominator == 0:
        return 1.0
    if numerator == 0 or denominator == 0:
        return None
    return numerator / denominator


@dataclass
class Row:
    """One candidate of one problem, measured and set against the problem's baseline."""

    problem: ProblemKey
    arm: ArmKey
    candidate: Candidate
    status: str  # pass, fail, timeout, missing, no value, or no baseline (a pass without a baseline)
    value: float | None = None
    baseline_value: float | None = None
    speedup: float | None = None  # the ratio candidate / baseline for resource metrics
    utilisation: float | None = None
    answer: bool = False  # the candidate its arm's pick chose for this problem

    @property
    def passed(self) -> bool:
        return self.status == "pass" and self.speedup is not None


@dataclass
class ProblemResult:
    baseline: Candidate | None
    baseline_measured: Measured | None
    rows: list[Row]
    answers: dict[ArmKey, Row]  # attempted arms only

    @property
    def has_baseline(self) -> bool:
        return self.baseline_measured is not None and self.baseline_measured.status == "pass"


def arm_key(candidate: Candidate, by: str) -> ArmKey:
    if by == "arm":
        return (candidate.origin, candidate.origin_version)
    if by == "origin":
        return (candidate.origin,)
    value = candidate.meta.get(by[len("meta.") :])
    return (value if value is None or isinstance(value, (str, int, float)) else repr(value),)


def arm_label(arm: ArmKey, by: str) -> str:
    if by == "arm":
        return arm[0] if arm[1] is None else f"{arm[0]}@{arm[1]}"
    if by == "origin":
        return str(arm[0])
    return f"{by[len('meta.') :]}={'(none)' if arm[0] is None else arm[0]}"


def _order(candidate: Candidate) -> tuple[int, int]:
    return (candidate.index, candidate.seq)


def _best(candidates: list[Candidate], metric: Metric) -> Candidate | None:
    """The passing candidate with the lowest value (lower is better for every metric)."""
    scored = [(m.value, _order(c), c) for c in candidates if (m := measure(c, metric)).status == "pass"]
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
        return min(chosen, key=_order) if chosen else None
    benchmark = [c for c in candidates if c.origin.endswith("_benchmark")]
    lowest = min(benchmark, key=_order) if benchmark else None
    if rule.kind == "best":
        return _best(benchmark, metric) or lowest  # none passes: the lowest variant, shown as no baseline
    return lowest


def _variant_matches(candidate: Candidate, variant: str) -> bool:
    return str(candidate.index) == variant if variant.isdigit() else candidate.name == variant


def pick(candidates: list[Candidate], how: str, metric: Metric) -> Candidate:
    final = max(candidates, key=_order)  # ties at the highest index: the one seen last
    return (_best(candidates, metric) or final) if how == "best" else final


def compare_problem(problem: ProblemKey, candidates: list[Candidate], options: Options) -> ProblemResult:
    """Rows and arm answers of one problem: all that a change to this problem recomputes."""
    metric = options.measure
    baseline = choose_baseline(candidates, options.rule, metric)
    base = measure(baseline, metric) if baseline is not None else None
    base_value = base.value if base is not None and base.status == "pass" else None
    groups: dict[ArmKey, list[Candidate]] = {}
    for candidate in sorted(candidates, key=_order):
        if candidate is not baseline:  # the baseline is compared with nothing, itself included
            groups.setdefault(arm_key(candidate, options.by), []).append(candidate)
    rows: list[Row] = []
    answers: dict[ArmKey, Row] = {}
    for arm, group in groups.items():
        attempted = any(c.of(metric.kind, metric.target) for c in group)
        chosen = pick(group, options.pick, metric) if attempted else None
        for candidate in group:
            row = _row(problem, arm, candidate, metric, base_value)
            row.answer = candidate is chosen
            rows.append(row)
            if row.answer:
                answers[arm] = row
    return ProblemResult(baseline, base, rows, answers)


def _row(problem: ProblemKey, arm: ArmKey, candidate: Candidate, metric: Metric, base: float | None) -> Row:
    got = measure(candidate, metric)
    row = Row(problem, arm, candidate, got.status, got.value, base, utilisation=got.utilisation)
    if got.status == "pass" and got.value is not None:
        if base is None:
            row.status = "no baseline"
        else:  # speedup: higher is faster; resource ratio: lower is smaller
            row.speedup = ratio(got.value, base) if metric.is_resource else ratio(base, got.value)
    return row


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
    resource = options.measure.is_resource
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
        dict(Counter(row.status for row in answers.values())),
        len(better) / len(with_baseline) if with_baseline else None,
        _stages(candidates),
    )


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
                any(_payload(r, stage).get("status") == "pass" for r in candidate.of(stage)),
                bool(candidate.of(stage)),
            )
            for stage in STAGES
        }
    return found


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
                self.results[p].rows, key=lambda r: (arm_label(r.arm, self.options.by), _order(r.candidate))
            )
        ]

    def answer(self, arm: ArmKey, problem: ProblemKey) -> Row | None:
        return self.results[problem].answers.get(arm)


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


class Comparer:
    """Records indexed by problem; only the problems touched since the last `result()` are recomputed."""

    def __init__(self, options: Options, canonical: Canonical | None = None) -> None:
        self.options = options
        self.canonical: Canonical = canonical or as_recorded
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
            candidate = Candidate(*key, seq=self._seq, device=device)
            self.candidates[problem][key] = candidate
        candidate.add(record)
        for name, value in (implementation.get("origin_meta") or {}).items():
            candidate.meta.setdefault(name, value)
        return problem

    def result(self) -> Comparison:
        for problem in self.dirty:
            if problem in self.candidates:
                self.results[problem] = compare_problem(problem, list(self.candidates[problem].values()), self.options)
        self.dirty.clear()
        arms, with_baseline = summarize(self.results, self.options)
        candidates = {p: list(c.values()) for p, c in self.candidates.items()}
        return Comparison(self.options, dict(self.results), arms, with_baseline, candidates)


@contextmanager
def bulk() -> Iterator[None]:
    """No cyclic garbage collection while many records are read and indexed: records hold no
    cycles, and with 100,000 of them alive each collection walks them all (a 3x slowdown)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def compare(
    records: Iterable[dict[str, Any]], options: Options | None = None, canonical: Canonical | None = None
) -> Comparison:
    comparer = Comparer(options or Options(), canonical)
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
    chosen = sorted((c for c in comparison.candidates.get(problem, []) if arm_key(c, by) == arm), key=_order)
    steps: list[Step] = []
    best: float | None = None
    for candidate in chosen:
        got = measure(candidate, metric)
        if got.status == "pass" and got.value is not None:
            best = got.value if best is None else min(best, got.value)
        steps.append(Step(candidate.index, candidate.name, got.status, got.value, best, got.status != "pass"))
    return steps
