"""`vitis-tui export FILE...`: the records view's filter and writers, headless."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from collectors.text import visible

from .common import (
    EXIT_IO,
    EXIT_OK,
    EXIT_USAGE,
    add_config_flag,
    output_or_stdout,
    parse_filter,
    record_settings,
    unreadable_files,
    write_output,
)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    export = subparsers.add_parser(
        "export",
        help="filter JSONL records and write them as JSONL, CSV or Markdown",
        description="The records view's query engine and writers, headless. JSONL keeps the original "
        "lines byte for byte; CSV and Markdown hold the chosen columns.",
    )
    export.add_argument("files", nargs="+", metavar="FILE")
    export.add_argument(
        "--filter", default="", metavar="QUERY", help="e.g. 'type:rtl_sim cycles>1e6' (the language is in the README)"
    )
    export.add_argument("--format", choices=("jsonl", "csv", "md"), default="jsonl")
    export.add_argument(
        "--columns",
        metavar="A,B,...",
        help="columns for csv/md (default: the view's default columns); see --list-columns",
    )
    export.add_argument("--sort", metavar="COLUMN[:desc]", help="sort by a column (:desc from the largest)")
    export.add_argument("-o", "--output", type=output_or_stdout, help="output file ('-' or none: standard output)")
    export.add_argument(
        "--list-columns", action="store_true", help="print the column names (those of FILE... included) and exit"
    )
    export.add_argument(
        "--raw", action="store_true", help="CSV/Markdown cells verbatim (no ' before =, +, -, @; no escaped controls)"
    )
    add_config_flag(export)
    return export


def run(args: argparse.Namespace) -> int:
    from collectors.records.loader import load_files, schema_problems
    from collectors.records.table import RecordTable, default_columns, label_of

    settings = record_settings(args.config)
    if isinstance(settings, int):
        return settings
    node = parse_filter(args.filter)
    if isinstance(node, int):
        return node
    if unreadable_files(args.files):
        return EXIT_IO
    table, _followed, problems, rows = load_files(args.files, RecordTable(settings.aliases), final=True)
    problems += schema_problems(table, rows)
    if args.list_columns:
        for key in table.column_keys():
            # (a producer's meta.KEY or field name may hold any character)
            print(visible(f"{key:24} {label_of(key)}{'  (number)' if table.is_numeric(key) else ''}"))
        return EXIT_OK
    columns, shared = default_columns(table)
    if args.columns:
        columns, shared = [c.strip() for c in args.columns.split(",")], {}
    return _write_export(args, table, node, columns, shared, problems)


def _write_export(args, table, node, columns: list[str], shared: dict[str, str], problems: list) -> int:
    from collectors.records.fields import is_dynamic
    from collectors.records.table import exported_rows, plan_export, plan_pieces

    sort, _, order = (args.sort or "").partition(":")
    if order not in ("", "asc", "desc"):  # (`lut:sideways` sorted up, silently)
        print(visible(f"--sort {args.sort}: the order after ':' is desc or asc"), file=sys.stderr)
        return EXIT_USAGE
    unknown = [c for c in [*columns, *([sort] if sort else [])] if not (table.has_column(c) or is_dynamic(c))]
    if unknown:  # (as typed, control characters made visible)
        print(visible(f"unknown column(s): {', '.join(unknown)} (see --list-columns)"), file=sys.stderr)
        return EXIT_USAGE
    for problem in problems:
        print(str(problem), file=sys.stderr)
    selected = table.view(node, sort or None, order == "desc")
    pieces = plan_pieces(plan_export(table, selected, columns, args.format, raw=args.raw, shared=shared))
    written = len(exported_rows(table, selected))
    left_out = len(selected) - written
    status = write_output(pieces, args.output)
    if status != EXIT_OK:
        return status
    refused = f" ({left_out} refused by the schema left out)" if left_out else ""
    print(visible(f"{written} of {len(table)} records{refused} -> {args.output or 'standard output'}"), file=sys.stderr)
    return EXIT_OK
