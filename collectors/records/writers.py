"""The records table written out: JSONL (the original lines, byte for byte), CSV, Markdown (pure)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from collectors.records.columns import float_or_nan
from collectors.records.fields import field_of
from collectors.text import visible

if TYPE_CHECKING:
    from collectors.records.rawlines import RawLines
    from collectors.records.table import RecordTable


def label_of(key: str) -> str:
    return field_of(key).label


FORMATS = ("jsonl", "csv", "md")
PIECE_ROWS = 4096  # lines of a JSONL export handed on at a time
SORTED_WINDOW_ROWS = 1 << 18  # lines of a JSONL export in another order than the file's read at a time
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what spreadsheets read as a formula (OWASP)


def exported_rows(table: RecordTable, rows: list[int]) -> list[int]:
    """The rows an export holds, in every format: those the contract accepts."""
    return [i for i in rows if i not in table.invalid]


def safe_cell(text: str, numeric: bool = False) -> str:
    """A cell a spreadsheet shows as text: formula starts get a leading `'` (a number stays a number)."""
    if text.startswith(FORMULA_STARTS) and not (numeric and float_or_nan(text) == float_or_nan(text)):
        text = "'" + text
    return visible(text)


def export(
    table: RecordTable,
    rows: list[int],
    columns: list[str],
    fmt: str,
    raw: bool = False,
    shared: dict[str, str] | None = None,
) -> str:
    """The rows the contract accepts as JSONL (original lines, byte for byte), CSV or a Markdown
    table of `columns`. CSV and Markdown cells are neutralised (formula starts, control
    characters) unless `raw`; Markdown puts `shared` values in a line above the table."""
    return "".join(plan_pieces(plan_export(table, rows, columns, fmt, raw, shared)))


@dataclass(frozen=True)
class ExportPlan:
    """What an export writes, taken from the table on the thread that owns it: the rows the
    contract accepts and, for CSV and Markdown, each column's values and whether it holds
    numbers (reading them fills the table's caches). Its pieces are then made on any thread: the
    lines are read through the table's locked store of them. The columns are the table's own
    (no copy of a million rows): a record a follow replaces meanwhile is written as it is then."""

    fmt: str
    kept: list[int]
    columns: list[str]
    values: dict[str, list[str]]
    numeric: dict[str, bool]
    lines: RawLines
    raw: bool = False
    shared: dict[str, str] = field(default_factory=dict)


def plan_export(
    table: RecordTable,
    rows: list[int],
    columns: list[str],
    fmt: str,
    raw: bool = False,
    shared: dict[str, str] | None = None,
) -> ExportPlan:
    """`export`'s plan: its text in pieces, to be written as they come, is `plan_pieces(plan)`."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (jsonl, csv, md)")
    kept = exported_rows(table, rows)
    table_format = fmt != "jsonl"
    values = {c: table.column(c) for c in columns} if table_format else {}
    numeric = {c: table.is_numeric(c) for c in columns} if table_format else {}
    return ExportPlan(fmt, kept, columns, values, numeric, table.raw, raw, shared or {})


def plan_pieces(plan: ExportPlan) -> Iterator[str]:
    """The export's text in pieces of PIECE_ROWS rows: a JSONL export of a million records holds
    PIECE_ROWS lines at a time in file order, not 650 MB three times over (the lines, their
    join, its encoding). In another order the lines are read SORTED_WINDOW_ROWS at a time: the
    table's lines are compressed by blocks, and a window in a sorted order needs most blocks
    (each opened once a window: 4 passes over a million records' blocks)."""
    if plan.fmt != "jsonl":
        yield from _table_pieces(plan)
        return
    kept = plan.kept
    in_file_order = all(a < b for a, b in zip(kept, kept[1:]))
    window = PIECE_ROWS if in_file_order else SORTED_WINDOW_ROWS
    for start in range(0, len(kept), window):
        lines = plan.lines.many(kept[start : start + window])
        for at in range(0, len(lines), PIECE_ROWS):
            yield "".join(line + "\n" for line in lines[at : at + PIECE_ROWS])


def _table_pieces(plan: ExportPlan) -> Iterator[str]:
    """A CSV or Markdown table of the plan's columns, its header first, then PIECE_ROWS rows at a
    time. CSV and Markdown cells are neutralised (formula starts, control characters) unless
    `raw`; Markdown puts `shared` values in a line above the table."""
    columns, numeric = plan.columns, plan.numeric
    labels = [label_of(c) for c in columns]
    if plan.fmt == "csv":
        yield _csv_rows([labels if plan.raw else [safe_cell(label) for label in labels]])
    else:
        yield _markdown_head(columns, numeric, plan.shared)
    # each column's cells made once per distinct value (a column repeats a few values a million times)
    made = [_Cells(_escape if plan.fmt == "md" else _same if plan.raw else safe_cell, numeric[c]) for c in columns]
    values = [plan.values[c] for c in columns]
    for start in range(0, len(plan.kept), PIECE_ROWS):
        rows = [[cell[column[i]] for cell, column in zip(made, values)] for i in plan.kept[start : start + PIECE_ROWS]]
        if plan.fmt == "csv":
            yield _csv_rows(rows)
        else:
            yield "".join("| " + " | ".join(row) + " |\n" for row in rows)
        for cell in made:
            cell.trim()


class _Cells(dict[str, str]):
    """A column's cells as written, by value, each made when first asked for."""

    KEPT = 1 << 16  # distinct values remembered (a column of unique ones is not held whole)

    def __init__(self, make: Callable[[str, bool], str], is_number: bool) -> None:
        super().__init__()
        self.make, self.is_number = make, is_number

    def __missing__(self, value: str) -> str:
        cell = self[value] = self.make(value, self.is_number)
        return cell

    def trim(self) -> None:
        if len(self) > self.KEPT:
            self.clear()


def _same(value: str, is_number: bool = False) -> str:
    return value


def _csv_rows(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def _escape(value: str, is_number: bool = False) -> str:
    return safe_cell(value, is_number).replace("\\", "\\\\").replace("|", "\\|")


def _markdown_head(columns: list[str], numeric: dict[str, bool], shared: dict[str, str]) -> str:
    lines = [" · ".join(f"{_escape(label_of(k))}: {_escape(v)}" for k, v in shared.items()), ""] if shared else []
    lines += [
        "| " + " | ".join(_escape(label_of(c)) for c in columns) + " |",
        "|" + "|".join("---:" if numeric[c] else "---" for c in columns) + "|",
    ]
    return "\n".join(lines) + "\n"
