"""The json output of a comparison: every candidate (`rows`), every arm's summary (`arms`, with
its interval, fast_p, pass@k and per-suite summaries), the head-to-head `pairs`, the warnings."""

from __future__ import annotations

import json
from typing import Any

from collectors.compare.comparison import ArmSummary, Comparison, Row, arm_label
from collectors.compare.headtohead import Pair, pairs
from collectors.compare.model import ORACLE, Options


def row_json(row: Row, comparison: Comparison) -> dict[str, Any]:
    c = row.candidate
    suite, group = c.spelled or row.problem  # as this candidate's records write it
    data: dict[str, Any] = {
        "suite": suite,
        "group_path": list(group),
        "origin": c.origin,
        "origin_version": c.origin_version,
        "variant": {"index": c.index, "name": c.name},
        "status": row.status,
        "value": row.value,
        "baseline_value": row.baseline_value,
        "speedup": row.speedup,
        "arm": arm_label(row.arm, comparison.options.by),
        "answer": row.answer,
        "device": c.device,
    }
    if row.tied:  # the answer was taken among variants sharing the highest index
        data["tied"] = [
            {"origin": t.origin, "origin_version": t.origin_version, "index": t.index, "name": t.name} for t in row.tied
        ]
    if comparison.options.measure.is_resource:
        data["utilisation"] = row.utilisation
    return data


def arm_json(arm: ArmSummary, options: Options) -> dict[str, Any]:
    data: dict[str, Any] = {
        "origin": arm.origin,
        "origin_version": arm.origin_version,
        "arm": arm.label,
        "problems": arm.problems,
        "compared": arm.compared,
        "baselines": arm.baselines,
        "geomean": arm.geomean,
        "min": arm.min,
        "median": arm.median,
        "max": arm.max,
        "status_counts": arm.status_counts,
        "fast_1": arm.fast_1,
        "stages": {s: {"pass": p, "records": r, "candidates": n} for s, (p, r, n) in arm.stages.items()},
        "ci95": None if arm.ci95 is None else list(arm.ci95),
    }
    if options.fast_p:
        data["fast_p"] = arm.fast_p
    if options.samples:
        data["pass_at_k"] = arm.pass_at_k
    if arm.suites:
        data["suites"] = {name: arm_json(each, options) for name, each in arm.suites.items()}
    return data


def pair_json(pair: Pair) -> dict[str, Any]:
    return {
        "a": pair.a_label,
        "b": pair.b_label,
        "problems": pair.problems,
        "wins": pair.wins,
        "losses": pair.losses,
        "ties": pair.ties,
        "geomean_ratio": pair.geomean_ratio,
        "p_value": pair.p_value,
    }


def oracle_json(comparison: Comparison) -> list[dict[str, Any]]:
    """The virtual best's cells: which arm's answer each problem's is."""
    cells = []
    for problem in comparison.problems:
        row = comparison.answer(ORACLE, problem)
        if row is None or row.source is None:
            continue
        suite, group = comparison.spelled(problem)
        cells.append(
            {
                "suite": suite,
                "group_path": list(group),
                "arm": arm_label(row.source, comparison.options.by),
                "variant": {"index": row.candidate.index, "name": row.candidate.name},
                "value": row.value,
                "speedup": row.speedup,
            }
        )
    return cells


def to_json(comparison: Comparison, inputs: list[dict[str, Any]]) -> str:
    o = comparison.options
    data = {
        "metric": o.metric,
        "metric_label": o.measure.label,
        "baseline": o.baseline,
        "pick": o.pick,
        "policy": o.policy,
        "common": o.common,
        "by": o.by,
        "direction": o.measure.direction,
        "oracle": o.oracle,
        "fast_p": list(o.fast_p),
        "samples": o.samples,
        "inputs": inputs,
        "rows": [row_json(r, comparison) for r in comparison.rows],
        "arms": [arm_json(a, o) for a in comparison.arms],
        "pairs": [pair_json(p) for p in pairs(comparison)],
        "warnings": comparison.warnings(),
    }
    if o.oracle:
        data["oracle_cells"] = oracle_json(comparison)
    return json.dumps(data, indent=1) + "\n"  # ASCII only: C0 and C1 characters come out escaped
