"""The records table written out: JSONL (the original lines, byte for byte), CSV, Markdown (pure)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING

from collectors.records.columns import float_or_nan
from collectors.records.fields import field_of
from collectors.text import visible

if TYPE_CHECKING:
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
    return "".join(export_pieces(table, rows, columns, fmt, raw, shared))


def export_pieces(
    table: RecordTable,
    rows: list[int],
    columns: list[str],
    fmt: str,
    raw: bool = False,
    shared: dict[str, str] | None = None,
) -> Iterator[str]:
    """`export`'s text in pieces, to be written as they come: a JSONL export of a million
    records holds PIECE_ROWS lines at a time in file order, not 650 MB three times over (the
    lines, their join, its encoding). In another order the lines are read SORTED_WINDOW_ROWS at
    a time: the table's lines are compressed by blocks, and a window in a sorted order needs
    most blocks (each opened once a window: 4 passes over a million records' blocks)."""
    kept = exported_rows(table, rows)
    if fmt != "jsonl":
        yield _table_text(table, kept, columns, fmt, raw, shared or {})
        return
    in_file_order = all(a < b for a, b in zip(kept, kept[1:]))
    window = PIECE_ROWS if in_file_order else SORTED_WINDOW_ROWS
    for start in range(0, len(kept), window):
        lines = table.raw.many(kept[start : start + window])
        for at in range(0, len(lines), PIECE_ROWS):
            yield "".join(line + "\n" for line in lines[at : at + PIECE_ROWS])


def _table_text(
    table: RecordTable, kept: list[int], columns: list[str], fmt: str, raw: bool, shared: dict[str, str]
) -> str:
    numeric = {c: table.is_numeric(c) for c in columns}
    cells = [[table.column(c)[i] for c in columns] for i in kept]
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        labels = [label_of(c) for c in columns]
        writer.writerow(labels if raw else [safe_cell(label) for label in labels])
        for row in cells:
            writer.writerow(row if raw else [safe_cell(v, numeric[c]) for v, c in zip(row, columns)])
        return out.getvalue()
    if fmt == "md":
        return _markdown(columns, cells, numeric, shared)
    raise ValueError(f"unknown format {fmt!r} (jsonl, csv, md)")


def _markdown(columns: list[str], cells: list[list[str]], numeric: dict[str, bool], shared: dict[str, str]) -> str:
    def escape(value: str, is_number: bool = False) -> str:
        return safe_cell(value, is_number).replace("\\", "\\\\").replace("|", "\\|")

    lines = [" · ".join(f"{escape(label_of(k))}: {escape(v)}" for k, v in shared.items()), ""] if shared else []
    lines += [
        "| " + " | ".join(escape(label_of(c)) for c in columns) + " |",
        "|" + "|".join("---:" if numeric[c] else "---" for c in columns) + "|",
    ]
    lines += ["| " + " | ".join(escape(v, numeric[c]) for v, c in zip(row, columns)) + " |" for row in cells]
    return "\n".join(lines) + "\n"
