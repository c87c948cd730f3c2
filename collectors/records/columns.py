"""Column extraction: the one reader of a record's figures for the records table, the runs
table (tui/widgets/figures.py) and every export. Each column's value is found by its key (see
fields.py for the list), so that no list of values is ever matched by position.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any

from collectors.numbers import NO_BOUND, number_or_none
from collectors.records.fields import BY_KEY, FIELDS, META_PREFIX
from collectors.records.model import EXTENSION_TYPES, FIELD_PATHS, as_dict, fields_reader
from collectors.records.validate import extra_fields

NAN = float("nan")


def _msps(value: Any) -> str:
    return f"{value / 1e6:.1f} Msps" if isinstance(value, (int, float)) else "?"


def extension_summary(record: dict[str, Any]) -> str:
    """One line that sums up an extension record (AIE port, XRT recipe, LOOM mapping)."""
    kind = record.get("report_type")
    payload = record.get(kind) if isinstance(kind, str) else None
    if not isinstance(payload, dict):
        return ""
    if kind == "aie_sim":
        if payload.get("values_per_sample") is None:
            rate = "sample type unknown"
        elif payload.get("first_time_s") is None:
            rate = "no timestamps"
        else:
            frame = payload.get("frame_throughput_sps")
            rate = (f"{_msps(frame)} per frame, " if frame else "") + f"raw {_msps(payload.get('raw_throughput_sps'))}"
        return f"{payload.get('data_lines')} lines, {payload.get('frames')} frames, {rate}"
    if kind == "xrt_recipe":
        errors, warnings = payload.get("errors") or [], payload.get("schema_warnings") or []
        verdict = "valid" if payload.get("valid") else f"{len(errors)} errors"
        return (
            f"{verdict}, {len(warnings)} schema warnings, {payload.get('runs')} runs in "
            f"{payload.get('cpu_runlists')} cpu + {payload.get('npu_runlists')} npu runlists"
        )
    if kind == "cgra_map":
        edges = payload.get("edges") or {}
        timing = payload.get("timing") or {}
        config = payload.get("config") or {}
        snapshots = payload.get("snapshots") or []
        parts = [
            f"{payload.get('state')}: {payload.get('mapped_nodes')} nodes mapped",
            f"edges {edges.get('routed', 0)} routed / {edges.get('unrouted', 0)} unrouted",
        ]
        if timing:
            parts.append(f"II {timing.get('initiation_interval')}")
        if config:
            complete = "" if config.get("complete") else " (incomplete)"
            parts.append(f"{config.get('word_count')} config words{complete}")
        if snapshots:
            parts.append(f"snapshot #{snapshots[-1]['sequence']} {snapshots[-1]['trigger']}")
        return ", ".join(parts)
    return ""


COLUMNS = FIELDS  # the columns, in the order `extract` gives their values
KEYS = tuple(column.key for column in COLUMNS)


def note(record: dict, extras: list[tuple[str, Any]]) -> str | None:
    """What a producer wrote in its payload beyond the contract, as text (a failed build's `error`)."""
    kind = record.get("report_type")
    texts = [value for path, value in extras if path.startswith(f"{kind}.") and isinstance(value, str) and value]
    return "; ".join(texts) if texts else None


def section(payload: Any, path: tuple[str, ...]) -> dict[str, Any]:
    """The dict at `path` inside a payload; empty where any step is missing or not a dict (a
    record from another producer may lack any part)."""
    for name in path:
        payload = as_dict(payload).get(name)
    return as_dict(payload)


SYNTH_FIGURES = ("latency", "interval", "clock", "lut", "ff", "dsp", "bram", "uram")
RTL_FIGURES = ("cycles", "us", "mhz")
_SYNTH = fields_reader(SYNTH_FIGURES)
_RTL = fields_reader(RTL_FIGURES)


def synth_figures(record: dict) -> dict[str, Any]:
    """An hls_synth record's worst-case latency, maximum interval, estimated clock, LUT, FF, DSP,
    BRAM_18K and URAM (None where missing), by column key; also the runs table's figures."""
    return dict(zip(SYNTH_FIGURES, _SYNTH(record)))


def rtl_figures(record: dict) -> dict[str, Any]:
    """An rtl_sim record's kernel runtime in cycles and in microseconds and its clock, by column key."""
    return dict(zip(RTL_FIGURES, _RTL(record)))


# The fields a row is made of (model.FIELD_PATHS): the columns found as they are, and those
# made from them (group, variant).
ROW_FIELDS = tuple(FIELD_PATHS)
_SLOT = {name: n for n, name in enumerate(ROW_FIELDS)}
_ROW_FIELDS = fields_reader(ROW_FIELDS)
_AS_FOUND = itemgetter(*(_SLOT.get(key, _SLOT["type"]) for key in KEYS))  # (the made ones: a stand-in)
_GROUP, _INDEX, _NAME = _SLOT["group_path"], _SLOT["index"], _SLOT["variant_name"]
POSITION = {key: n for n, key in enumerate(KEYS)}
_GROUP_AT, _VARIANT_AT, _STATUS_AT = POSITION["group"], POSITION["variant"], POSITION["status"]
_SUMMARY_AT, _NOTE_AT = POSITION["summary"], POSITION["note"]


def row_of(fields: Any, status: Any, summary: str | None = None, note_text: str | None = None) -> list[Any]:
    """The value of every column, in COLUMNS order, from a record's ROW_FIELDS (in that order)
    and what depends on its report type: its payload's status, an extension's summary, the note."""
    row = list(_AS_FOUND(fields))
    row[_GROUP_AT] = _group_text(fields[_GROUP])
    row[_VARIANT_AT] = _variant(fields[_INDEX], fields[_NAME])
    row[_STATUS_AT] = status
    row[_SUMMARY_AT] = summary
    row[_NOTE_AT] = note_text
    return row


def columns_of(by_field: Sequence[Sequence[Any]], statuses: list[Any]) -> list[Sequence[Any]]:
    """row_of over many records at once, column by column (none of them an extension record):
    each column's values, in COLUMNS order, from the records' ROW_FIELDS as columns (each a value
    per record, in ROW_FIELDS order) and each record's payload status."""
    columns = list(_AS_FOUND(by_field))
    columns[_GROUP_AT] = list(map(_group_text, by_field[_GROUP]))
    columns[_VARIANT_AT] = list(map(_variant, by_field[_INDEX], by_field[_NAME]))
    columns[_STATUS_AT] = statuses
    columns[_SUMMARY_AT] = [None] * len(statuses)
    columns[_NOTE_AT] = [None] * len(statuses)
    return columns


def _group_text(group: Any) -> Any:
    return "/".join(map(str, group)) if isinstance(group, list) else group


_variant = "{}_{}".format  # a variant's column: its index and name (a bound method: called at C speed by map)


def extract(record: dict, extras: list[tuple[str, Any]] | None = None) -> list[Any]:
    """The value of every column, in COLUMNS order, each found by its column key (never by its
    place in a list). Records from other producers may lack any part, so every step tolerates a
    missing or odd-typed object. `extras`: the record's fields the schema does not name, when the
    caller has them already."""
    kind = record.get("report_type")
    payload = as_dict(record.get(kind)) if isinstance(kind, str) else {}
    return row_of(
        _ROW_FIELDS(record),
        payload.get("status"),
        extension_summary(record) if kind in EXTENSION_TYPES else None,
        note(record, extra_fields(record) if extras is None else extras),
    )


def cells(values: Iterable[Any]) -> list[str]:
    """The text of each value, as the table holds it."""
    return ["" if v is None else v if type(v) is str else cell_text(v) for v in values]


def dynamic_values(record: dict, extras: list[tuple[str, Any]]) -> dict[str, str]:
    """`meta.KEY` for each origin_meta key, and each field the schema does not name by its path."""
    values = meta_values(as_dict(record.get("implementation")).get("origin_meta"))
    values.update((path, _cell(value)) for path, value in extras)
    return values


def meta_values(meta: Any) -> dict[str, str]:
    """`meta.KEY` for each key of an origin_meta (none when it is not an object)."""
    return {f"{META_PREFIX}{key}": _cell(value) for key, value in as_dict(meta).items()}


def _cell(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, bool):
        return "true" if value else "false"
    return cell_text(value)


# repeated values share one string (numbers too: a report's figures repeat across variants)
INTERNED = frozenset(n for n, column in enumerate(COLUMNS) if column.key not in ("summary", "note"))
ALIASED = {"suite": POSITION["suite"], "group": POSITION["group"], "device": POSITION["device"]}


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value) if not value.is_integer() else f"{value:.1f}"
    return str(value)


def float_or_nan(value: Any) -> float:
    if type(value) is str and value.isascii() and value.isdigit():
        return float(value)  # the common cell (cycles, LUT), at C speed
    found = number_or_none(value)
    return NAN if found is None else float(found)  # "undef", "" and the like: no number


def _cycles_or_nan(value: Any) -> float:
    return NAN if value == NO_BOUND else float_or_nan(value)


def number_reader(key: str) -> Callable[[Any], float]:
    """How a column's cells read as numbers for filters and sorting (NaN: none): the tool's -1
    of a count of cycles is none (fields.Field.cycles)."""
    field = BY_KEY.get(key)
    return _cycles_or_nan if field is not None and field.cycles else float_or_nan
