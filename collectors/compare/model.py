"""The words of a comparison (pure): options, candidates and what one measures, rows, arms.

- problem: (suite, group_path) after aliases; arm: one producer setup, (origin, origin_version) by
  default; candidate: (arm, variant) for a problem.
- The baseline of a problem is chosen by a rule (`benchmark`, `best` or `ORIGIN[@VERSION][#VARIANT]`);
  P is the set of problems whose baseline passed with a value.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from collectors.aliases import Aliases
from collectors.compare.metrics import METRICS, Metric, resource_reader, to_number

ProblemKey = tuple[str, tuple[str, ...]]
ArmKey = tuple[Any, ...]
CandidateKey = tuple[str, "str | None", int, str]
# The single seam for aliases: a record -> (problem key, device). The default keeps the values as they are.
Canonical = Callable[[dict[str, Any]], tuple[ProblemKey, "str | None"]]
# How a record's problem is written: as the record spells it, or an alias's target; never loosened
# (pairing may take `fdtd-2d` and `fdtd_2d` as one problem, but each is written as recorded).
Spelling = Callable[[dict[str, Any]], ProblemKey]

STAGES = ("sw_run", "hls_synth", "rtl_sim")  # C simulation, synthesis, co-simulation / hw_emu
PICKS = ("final", "best")
POLICIES = ("exclude", "one")
RULES = ("benchmark", "best", "ORIGIN[@VERSION][#VARIANT]")
BYS = ("arm", "origin", "meta.KEY")


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
    oracle: bool = False  # a virtual-best column: per problem, the best passing answer of the arms
    fast_p: tuple[str, ...] = ()  # thresholds p of fast_p, as written ("1", "1.5")
    samples: bool = False  # an arm's variants of a problem are independent attempts: pass@k

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise ValueError(f"unknown metric {self.metric!r}; valid metrics: {', '.join(METRICS)}")
        parse_baseline(self.baseline)
        for name, value, valid in (("pick", self.pick, PICKS), ("policy", self.policy, POLICIES)):
            if value not in valid:
                raise ValueError(f"unknown {name} {value!r}; valid: {', '.join(valid)}")
        if self.by not in ("arm", "origin") and not (self.by.startswith("meta.") and len(self.by) > 5):
            raise ValueError(f"unknown grouping {self.by!r}; valid: {', '.join(BYS)}")
        for p in self.fast_p:
            number = to_number(p) if p.isascii() else None  # (float() reads "१" as 1: no threshold's spelling)
            if number is None or number <= 0:
                raise ValueError(f"fast_p threshold {p!r} is not a positive number")

    @property
    def rule(self) -> BaselineRule:
        return parse_baseline(self.baseline)

    @property
    def measure(self) -> Metric:
        return METRICS[self.metric]


def as_spelled(record: dict[str, Any]) -> ProblemKey:
    """The default `Spelling`: the record's own suite and group path."""
    problem = record["problem"]
    return str(problem["suite"]), tuple(str(p) for p in problem["group_path"])


def spelled_with(aliases: Aliases) -> Spelling:
    """A record's problem as written with `aliases`: an alias's target where one maps the
    spelling, the record's own spelling otherwise (`-`/`_` looseness only pairs, never rewrites)."""

    def spelled(record: dict[str, Any]) -> ProblemKey:
        suite, group = as_spelled(record)
        return aliases.suite(suite), aliases.group(group)

    return spelled


def as_recorded(record: dict[str, Any]) -> tuple[ProblemKey, str | None]:
    """The default `canonical`: suite, group path and device exactly as the record has them."""
    return as_spelled(record), (record.get("run") or {}).get("device")


@dataclass
class Candidate:
    """One (origin, origin_version, variant) of one problem and its records, in input order."""

    origin: str
    origin_version: str | None
    index: int
    name: str
    seq: int  # when it was first seen: breaks ties between equal variant indexes
    device: str | None = None
    spelled: ProblemKey | None = None  # the problem as its first record writes it (see Spelling)
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
    payloads: list[dict[str, Any]] = [payload_of(r, metric.kind) for r in records]
    for payload in reversed(payloads):
        value = metric.read(payload)
        if value is not None and not (math.isfinite(value) and value >= 0):
            # a product or quotient of figures the contract admits out of range (1e308 x 10 ns), or a
            # negative one (a "-1" some producer writes for "unknown"): no value, nor the best one
            value = None
        if payload.get("status") == "pass" and value is not None:
            return Measured("pass", value, _utilisation(payload, metric, value))
    status = payloads[-1].get("status")
    if status == "pass":
        return Measured("no value")
    return Measured(status if isinstance(status, str) else "fail")


def payload_of(record: dict[str, Any], kind: str) -> dict[str, Any]:
    payload = record.get(kind)
    return payload if isinstance(payload, dict) else {}


def _utilisation(payload: dict[str, Any], metric: Metric, value: float) -> float | None:
    if metric.resource is None:
        return None
    available = resource_reader(metric.resource, "AvailableResources")(payload)
    return value / available if available else None


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
    tied: list[Candidate] = field(default_factory=list)  # an answer's variants that share its highest index
    source: ArmKey | None = None  # the virtual best's cell: the arm whose answer it is

    @property
    def passed(self) -> bool:
        return self.status == "pass" and self.speedup is not None


@dataclass
class ProblemResult:
    baseline: Candidate | None
    baseline_measured: Measured | None
    rows: list[Row]
    answers: dict[ArmKey, Row]  # attempted arms only
    candidates: list[Candidate] = field(default_factory=list)

    @property
    def spelled(self) -> ProblemKey | None:
        """How the problem is written: as its baseline's records write it, else the first spelling
        in sort order among its candidates' (None without candidates)."""
        if self.baseline is not None and self.baseline.spelled is not None:
            return self.baseline.spelled
        return min((c.spelled for c in self.candidates if c.spelled is not None), default=None)

    @property
    def has_baseline(self) -> bool:
        return self.baseline_measured is not None and self.baseline_measured.status == "pass"


def arm_key(candidate: Candidate, by: str) -> ArmKey:
    if by == "arm":
        return (candidate.origin, candidate.origin_version)
    if by == "origin":
        return (candidate.origin,)
    value = candidate.meta.get(by[len("meta.") :])
    # a string as it is, any other JSON value as its JSON text: 1, 1.0 and true are three setups
    # (as Python values they are equal, and were one arm), a list is written as JSON, not repr
    if value is None or isinstance(value, str):
        return (value,)
    return (_JSON_VALUE, json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")))


_JSON_VALUE = "json"  # (a key of two parts: never equal to a string's key of one)


ORACLE: ArmKey = ("\x00virtual best",)  # the --oracle column's key: no record can hold it


def arm_label(arm: ArmKey, by: str) -> str:
    if arm == ORACLE:
        return "virtual best"
    if by == "arm":
        return arm[0] if arm[1] is None else f"{arm[0]}@{arm[1]}"
    if by == "origin":
        return str(arm[0])
    return f"{by[len('meta.') :]}={'(none)' if arm[0] is None else _meta_text(arm)}"


def _meta_text(arm: ArmKey) -> str:
    """A JSON value as its JSON text; a string as it is, unless it reads as another JSON value
    (the string "true" beside true, "1" beside 1: then quoted, two arms, two labels)."""
    if len(arm) == 2:
        return str(arm[1])
    try:
        other = not isinstance(json.loads(arm[0]), str)
    except ValueError:
        other = False
    return json.dumps(arm[0], ensure_ascii=False) if other else str(arm[0])


def variant_order(candidate: Candidate) -> tuple[int, int]:
    """Variants by index; at one index, in the order their first records were read (the rule
    for ties: of the variants sharing the highest index, the one read last is the final)."""
    return (candidate.index, candidate.seq)


def describe(candidate: Candidate, with_arm: bool = False) -> str:
    """'#0 generated', or 'origin@version #0 generated' where an arm holds several setups."""
    version = "" if candidate.origin_version is None else f"@{candidate.origin_version}"
    return (
        f"{candidate.origin}{version} #{candidate.index} {candidate.name}"
        if with_arm
        else (f"#{candidate.index} {candidate.name}")
    )
