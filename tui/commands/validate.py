"""`vitis-tui validate FILE...`: check JSONL files against the schema-1.0 contract."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from collectors.text import visible

from .common import EXIT_OK, EXIT_PROBLEMS, unreadable_files

if TYPE_CHECKING:
    from collectors.records.validate import FileReport


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    validate = subparsers.add_parser(
        "validate",
        help="check JSONL files against the schema-1.0 contract",
        description="Check every line of each FILE against the schema-1.0 contract: required keys, types, "
        "enums, payload rules, report_type/target pairs. Fields the contract does not name and "
        "repeated record keys are warnings (errors with --strict). '-' reads standard input. "
        "Exit 0 when all lines are valid (warnings allowed), 1 otherwise, 2 on a usage error.",
    )
    validate.add_argument("files", nargs="+", metavar="FILE")
    validate.add_argument("--quiet", action="store_true", help="print only the summary lines")
    validate.add_argument(
        "--strict",
        action="store_true",
        help="the shipped closed schema: a field the contract does not name, or a repeated record key, is an error",
    )
    return validate


def run(args: argparse.Namespace) -> int:
    return validate(args.files, quiet=args.quiet, strict=args.strict)


def validate(files: list[str], quiet: bool = False, strict: bool = False) -> int:
    from collectors.records.validate import validate_stream

    all_ok = True
    for name in files:
        if name != "-" and unreadable_files([name], pipes=True):
            all_ok = False
            continue
        try:
            if name == "-":
                report = validate_stream("<stdin>", sys.stdin.buffer, strict)
            else:
                with open(name, "rb") as stream:
                    report = validate_stream(name, stream, strict)
        except OSError as exc:
            print(visible(f"{name}: cannot read: {exc.strerror or exc}"), file=sys.stderr)
            all_ok = False
            continue
        if not quiet:
            for line, message in report.errors:
                print(visible(f"{report.name}:{line}: {message}"))  # messages quote the line's values
            for number, message in report.warnings():
                print(visible(f"{report.name}{'' if number is None else f':{number}'}: warning: {message}"))
        print(visible(_validate_summary(report)))
        all_ok = all_ok and report.ok
    return EXIT_OK if all_ok else EXIT_PROBLEMS


def _validate_summary(report: FileReport) -> str:
    """'FILE: 18 lines, 18 valid, 0 invalid, 4 warnings (schema 1.0 contract)': how strict it was."""
    bad = len({line for line, _ in report.errors})
    warnings = len(report.warnings())
    counted = f", {warnings} warning{'s' * (warnings != 1)}" if warnings else ""
    how = "schema 1.0, strict" if report.strict else "schema 1.0 contract"
    return f"{report.name}: {report.lines} lines, {report.valid} valid, {bad} invalid{counted} ({how})"
