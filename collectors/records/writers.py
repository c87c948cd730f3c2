"""The records table written out: JSONL (the original lines, byte for byte), CSV, Markdown (pure)."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

from collectors.records.columns import float_or_nan
from collectors.records.fields import field_of
from collectors.text import visible

if TYPE_CHECKING:
    from collectors.records.table import RecordTable


def label_of(key: str) -> str:
    return field_of(key).label


FORMATS = ("jsonl", "csv", "md")
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
    kept = exported_rows(table, rows)
    if fmt == "jsonl":
        return "".join(line + "\n" for line in table.raw.many(kept))
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
        return _markdown(columns, cells, numeric, shared or {})
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
