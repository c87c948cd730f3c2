"""The one list of record fields: the table's columns and the filter language's fields.

Besides these, every `origin_meta` key is a field `meta.KEY`, and every field the schema does not
name is a field by its dotted path (`run.clock_ns`, `rtl_sim.error`): such *dynamic* fields hold
text and numbers alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    key: str
    label: str
    numeric: bool = False
    also: tuple[str, ...] = ()  # other names the filter accepts
    # a count of cycles from a synthesis report, where the tool writes -1 for a bound it could
    # not compute (a dataflow interval): no number (numbers.NO_BOUND, as compare reads it)
    cycles: bool = False


FIELDS: tuple[Field, ...] = (
    Field("type", "type"),
    Field("suite", "suite"),
    Field("group", "group"),
    Field("variant", "variant"),
    Field("origin", "origin"),
    Field("origin_version", "origin version"),
    Field("target", "target"),
    Field("device", "device"),
    Field("vitis", "vitis", also=("version",)),
    Field("status", "status"),
    Field("runtime", "runtime s", True),
    Field("latency", "latency", True, cycles=True),
    Field("interval", "interval", True, cycles=True),
    Field("clock", "clock ns", True),
    Field("lut", "LUT", True),
    Field("ff", "FF", True),
    Field("dsp", "DSP", True),
    Field("bram", "BRAM", True),
    Field("uram", "URAM", True),
    Field("cycles", "cycles", True),
    Field("us", "us", True),
    Field("mhz", "MHz", True),
    Field("part", "part"),
    Field("top", "top"),
    Field("index", "index", True),
    Field("summary", "summary"),
    Field("note", "note"),
)
BY_KEY = {f.key: f for f in FIELDS}
NAMES = {name: f.key for f in FIELDS for name in (f.key, *f.also)}
TEXT_FIELDS = tuple(f.key for f in FIELDS if not f.numeric)
NUMBER_FIELDS = tuple(f.key for f in FIELDS if f.numeric)
META_PREFIX = "meta."
# a dynamic field: meta.KEY, or the dotted path of a field the schema does not name
DYNAMIC = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\.[^\s:<>=!()\"]+")


def is_dynamic(key: str) -> bool:
    return DYNAMIC.fullmatch(key) is not None


def field_of(key: str) -> Field:
    """The field for a column key; dynamic fields get one made up on the spot."""
    return BY_KEY.get(key) or Field(key, key)
