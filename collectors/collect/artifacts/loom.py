"""LOOM CGRA mapper outputs (the LOOM mapper's own writer): `<dfg>.<adg>.map.json`, `.config.json`, `mapper-snapshots/`.

The writer prints doubles with `%.6e` and can emit bare `nan`/`inf` tokens, which JSON does not
allow; ids may carry the sentinels 4294967295 or -1 for "none". Both are read as null.
"""

from __future__ import annotations

import re
from typing import Any

from collectors.files import decode_text, load_json
from collectors.numbers import number_or_none as _number_or_none
from collectors.problems import ArtifactError, NotThisKind
from collectors.records.model import as_dict

SENTINELS = (4294967295, -1)
_BARE = re.compile(r'("(?:\\.|[^"\\])*")|(?<![\w.])(-?(?:nan|NaN|NAN|inf|INF|Inf|Infinity|infinity))(?![\w.])')
# <mixed>.snapshot-<seq>.<trigger>.mapper-<ordinal>.map.json; a trigger may hold dots, and a
# snapshot without trigger and ordinal is still a snapshot of <mixed>
_SNAPSHOT = re.compile(
    r"^(?P<mixed>.+?)\.snapshot-(?P<seq>\d+)(?:\.(?P<trigger>.+)\.mapper-(?P<ordinal>\d+))?"
    r"\.(?:map|config)(?:\.[^.]+)?$"  # .map.json, .config.json, .map.txt, .config.bin, ...
)
TIMING_FIGURES = {  # the writer's key -> the payload's (unitless surrogates)
    "estimated_critical_path_delay": "critical_path_delay",
    "estimated_clock_period": "clock_period",
    "estimated_initiation_interval": "initiation_interval",
    "estimated_throughput_cost": "throughput_cost",
    "recurrence_pressure": "recurrence_pressure",
}
TIMING_COUNTS = ("fifo_buffer_count", "forced_buffered_fifo_count", "mapper_selected_buffered_fifo_count")
TIMING_ID_LISTS = (
    "critical_path_edges",
    "forced_buffered_fifo_nodes",
    "forced_buffered_fifo_depths",
    "mapper_selected_buffered_fifo_nodes",
    "mapper_selected_buffered_fifo_depths",
    "bufferized_edges",
)
CYCLE_LISTS = ("sw_nodes", "sw_edges")
EDGE_KINDS = ("routed", "unrouted", "intra_fu", "temporal_reg")


def load_loom_json(data: bytes) -> Any:
    """JSON with the writer's bare nan/inf tokens read as null (strings are left alone)."""
    return load_json(_BARE.sub(lambda m: m.group(1) or "null", decode_text(data)))


def _id(value: Any) -> Any:
    return None if value in SENTINELS or isinstance(value, bool) else value


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
    ordinal = match.group("ordinal")
    return {
        "sequence": int(match.group("seq")),
        "trigger": match.group("trigger"),
        "ordinal": int(ordinal) if ordinal is not None else None,
    }


def _ids(value: Any) -> list | None:
    """A list of ids or depths (sentinels and non-numbers left out); None when not exported."""
    if not isinstance(value, list):
        return None
    return [v for v in value if _number_or_none(v) is not None and _id(v) is not None]


def parse_timing(timing: dict) -> dict[str, Any] | None:
    """Every figure of the writer's timing summary (None where it exports none), or None when it
    says no timing is available."""
    if not timing.get("available"):
        return None
    out: dict[str, Any] = {name: _number_or_none(timing.get(key)) for key, name in TIMING_FIGURES.items()}
    out.update({key: _number_or_none(timing.get(key)) for key in TIMING_COUNTS})
    out.update({key: _ids(timing.get(key)) for key in TIMING_ID_LISTS})
    cycles = timing.get("recurrence_cycles")
    out["recurrence_cycles"] = [_cycle(as_dict(c)) for c in cycles] if isinstance(cycles, list) else None
    return out


def _cycle(cycle: dict) -> dict[str, Any]:
    """One recurrence cycle: its node and edge ids, and its numeric figures."""
    out: dict[str, Any] = {key: _ids(cycle.get(key)) for key in CYCLE_LISTS}
    out.update(
        {
            str(k): _number_or_none(v)
            for k, v in cycle.items()
            if k not in CYCLE_LISTS and _number_or_none(v) is not None
        }
    )
    return out


def parse_map(data: bytes) -> dict[str, Any]:
    mapping = load_loom_json(data)
    if not isinstance(mapping, dict):
        raise ArtifactError("map.json: not a JSON object")
    if "node_mappings" not in mapping and "techmap" not in mapping:
        raise ArtifactError("map.json: neither node_mappings nor techmap (not a LOOM mapping)")
    nodes = [as_dict(n) for n in _list(mapping.get("node_mappings"))]
    edges = [as_dict(e) for e in _list(mapping.get("edge_routings"))]
    timing, techmap, search = (
        as_dict(mapping.get("timing")),
        as_dict(mapping.get("techmap")),
        as_dict(mapping.get("search")),
    )
    kinds = {kind: 0 for kind in EDGE_KINDS}
    for edge in edges:
        kind = str(edge.get("kind"))
        kinds[kind] = kinds.get(kind, 0) + 1
    mapped = sum(1 for n in nodes if _id(n.get("hw_node")) is not None)
    return {
        "mapped_nodes": mapped,
        "unmapped_nodes": len(nodes) - mapped,
        "edges": kinds,
        "timing": parse_timing(timing),
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
        "memory_regions": sum(len(_list(as_dict(m).get("regions"))) for m in _list(mapping.get("memory_regions"))),
    }


CONFIG_KEYS = ("words", "slices", "word_count", "complete")


def parse_config(data: bytes) -> dict[str, Any]:
    """A LOOM configuration's words and slices. A JSON object with none of its keys is another
    tool's file named alike (the AI Engine compiler's `aie.control.config.json`): no problem."""
    config = load_loom_json(data)
    if isinstance(config, dict) and not any(key in config for key in CONFIG_KEYS):
        raise NotThisKind("no key of a LOOM configuration: another tool's config.json")
    if not isinstance(config, dict) or "words" not in config and "slices" not in config:
        raise ArtifactError("config.json: no words or slices (not a LOOM configuration)")
    slices = [as_dict(s) for s in _list(config.get("slices"))]
    words = _list(config.get("words"))
    return {
        "word_count": _number_or_none(config.get("word_count")) if "word_count" in config else len(words),
        "words_present": len(words),
        "slices": len(slices),
        "incomplete_slices": sum(1 for s in slices if s.get("complete") is False),
        "complete": config.get("complete") if isinstance(config.get("complete"), bool) else None,
    }
