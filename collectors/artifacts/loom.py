"""LOOM CGRA mapper outputs (seed 001): `<dfg>.<adg>.map.json`, `.config.json`, `mapper-snapshots/`.

The writer prints doubles with `%.6e` and can emit bare `nan`/`inf` tokens, which JSON does not
allow; ids may carry the sentinels 4294967295 or -1 for "none". Both are read as null.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..files import decode_text
from ..numbers import number_or_none as _number_or_none
from ..problems import ArtifactError

SENTINELS = (4294967295, -1)
_BARE = re.compile(r'("(?:\\.|[^"\\])*")|(?<![\w.])(-?(?:nan|NaN|NAN|inf|INF|Inf|Infinity|infinity))(?![\w.])')
_SNAPSHOT = re.compile(
    r"^(?P<mixed>.+)\.snapshot-(?P<seq>\d+)\.(?P<trigger>[^.]+)\.mapper-(?P<ordinal>\d+)\.map\.json$"
)
EDGE_KINDS = ("routed", "unrouted", "intra_fu", "temporal_reg")


def load_loom_json(data: bytes) -> Any:
    """JSON with the writer's bare nan/inf tokens read as null (strings are left alone)."""
    text = _BARE.sub(lambda m: m.group(1) or "null", decode_text(data))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ArtifactError(f"JSON syntax error at line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def _id(value: Any) -> Any:
    return None if value in SENTINELS or isinstance(value, bool) else value


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def split_name(name: str) -> tuple[str, str] | None:
    """(dfg, adg) from `<dfg>.<adg>.map.json` (snapshots: `<dfg>.<adg>.snapshot-...`)."""
    snapshot = _SNAPSHOT.match(name)
    stem = snapshot.group("mixed") if snapshot else name.removesuffix(".map.json").removesuffix(".config.json")
    if "." not in stem:
        return None
    dfg, _, adg = stem.rpartition(".")
    return dfg, adg


def snapshot_of(name: str) -> dict[str, Any] | None:
    match = _SNAPSHOT.match(name)
    if match is None:
        return None
    return {
        "sequence": int(match.group("seq")),
        "trigger": match.group("trigger"),
        "ordinal": int(match.group("ordinal")),
    }


def parse_map(data: bytes) -> dict[str, Any]:
    mapping = load_loom_json(data)
    if not isinstance(mapping, dict):
        raise ArtifactError("map.json: not a JSON object")
    if "node_mappings" not in mapping and "techmap" not in mapping:
        raise ArtifactError("map.json: neither node_mappings nor techmap (not a LOOM mapping)")
    nodes = [_dict(n) for n in _list(mapping.get("node_mappings"))]
    edges = [_dict(e) for e in _list(mapping.get("edge_routings"))]
    timing, techmap, search = _dict(mapping.get("timing")), _dict(mapping.get("techmap")), _dict(mapping.get("search"))
    kinds = {kind: 0 for kind in EDGE_KINDS}
    for edge in edges:
        kind = str(edge.get("kind"))
        kinds[kind] = kinds.get(kind, 0) + 1
    mapped = sum(1 for n in nodes if _id(n.get("hw_node")) is not None)
    return {
        "mapped_nodes": mapped,
        "unmapped_nodes": len(nodes) - mapped,
        "edges": kinds,
        "timing": None
        if not timing.get("available")
        else {
            "critical_path_delay": _number_or_none(timing.get("estimated_critical_path_delay")),
            "clock_period": _number_or_none(timing.get("estimated_clock_period")),
            "initiation_interval": _number_or_none(timing.get("estimated_initiation_interval")),
            "throughput_cost": _number_or_none(timing.get("estimated_throughput_cost")),
        },
        "techmap": None
        if not techmap
        else {
            "coverage_score": _number_or_none(techmap.get("coverage_score")),
            "selected_candidates": _number_or_none(techmap.get("selected_candidate_count")),
            "conservative_fallbacks": _number_or_none(techmap.get("conservative_fallback_count")),
            "handoff_status": techmap.get("layer2_handoff_status"),
            "handoff_blockers": [str(b) for b in _list(techmap.get("layer2_handoff_blockers"))],
        },
        "search": None
        if not search.get("available")
        else {key: value for key, value in search.items() if key != "available" and _number_or_none(value) is not None},
        "memory_regions": sum(len(_list(_dict(m).get("regions"))) for m in _list(mapping.get("memory_regions"))),
    }


def parse_config(data: bytes) -> dict[str, Any]:
    config = load_loom_json(data)
    if not isinstance(config, dict) or "words" not in config and "slices" not in config:
        raise ArtifactError("config.json: no words or slices (not a LOOM configuration)")
    slices = [_dict(s) for s in _list(config.get("slices"))]
    words = _list(config.get("words"))
    return {
        "word_count": _number_or_none(config.get("word_count")) if "word_count" in config else len(words),
        "words_present": len(words),
        "slices": len(slices),
        "incomplete_slices": sum(1 for s in slices if s.get("complete") is False),
        "complete": config.get("complete") if isinstance(config.get("complete"), bool) else None,
    }
