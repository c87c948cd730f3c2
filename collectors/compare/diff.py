"""Two records field by field: every leaf under a dotted path, side by side, with Δ and % (pure).

Used by the compare screen (a candidate against its baseline) and by the diff of two marked
records. Numbers are read the way the comparison reads them (csynth strings such as '52627').
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from collectors.numbers import number_or_none as to_number


@dataclass(frozen=True)
class FieldRow:
    field: str
    left: Any  # the value in the first record (the candidate); None where absent
    right: Any  # the value in the second (the baseline)
    delta: float | None  # left - right, when both are numbers
    percent: float | None  # delta / right * 100, when right is a non-zero number

    @property
    def differs(self) -> bool:
        return self.left != self.right


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Leaves by dotted path (`hls_synth.AreaEstimates.Resources.LUT`, `problem.group_path[0]`);
    an empty object or list is a leaf of its own, so that it still shows."""
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for name, item in value.items():
            out.update(flatten(item, f"{prefix}.{name}" if prefix else str(name)))
        return out
    if isinstance(value, list) and value:
        out = {}
        for n, item in enumerate(value):
            out.update(flatten(item, f"{prefix}[{n}]"))
        return out
    return {prefix: value}


def field_rows(left: dict[str, Any] | None, right: dict[str, Any] | None) -> list[FieldRow]:
    """Every field of either record, in the first record's order then the second's."""
    a, b = flatten(left or {}), flatten(right or {})
    rows = []
    for name in [*a, *(n for n in b if n not in a)]:
        x, y = a.get(name), b.get(name)
        nx, ny = _numeric(x), _numeric(y)
        delta = nx - ny if nx is not None and ny is not None else None
        percent = delta / ny * 100 if delta is not None and ny else None
        rows.append(FieldRow(name, x, y, delta, percent))
    return rows


def _numeric(value: Any) -> float | None:
    """A number or a string that is one; versions such as '2023.2' count too (Δ is then shown, harmless)."""
    return None if isinstance(value, bool) else to_number(value)


def pair_records(left: list[dict[str, Any]], right: list[dict[str, Any]]) -> list[tuple[str, dict | None, dict | None]]:
    """Records of two candidates paired by (report type, target): one (label, left, right) each."""

    def kind(record: dict[str, Any]) -> tuple[str, str]:
        run = record.get("run") if isinstance(record.get("run"), dict) else {}
        return (str(record.get("report_type")), str(run.get("target")))  # type: ignore[union-attr]

    by_left = {kind(r): r for r in left}
    by_right = {kind(r): r for r in right}
    order = [*by_left, *(k for k in by_right if k not in by_left)]
    return [(f"{k[0]} · {k[1]}", by_left.get(k), by_right.get(k)) for k in order]
