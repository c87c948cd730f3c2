"""`vitis-tui compare`: speedups and resource ratios of implementations against a baseline, headless.

Inputs are JSONL files or build trees (a directory is collected first, as `collect` would).
Format: `table` when standard output is a terminal, `md` otherwise; with `-o OUT` and no `--format`,
the ending of OUT picks it (.json, .csv, .md; anything else: the table as plain text).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from .common import EXIT_IO, EXIT_OK, EXIT_USAGE, overrides, record_settings

ENDINGS = {".json": "json", ".csv": "csv", ".md": "md"}


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    compare = subparsers.add_parser(
        "compare",
        help="compare implementations: speedups against a baseline per problem",
        description="Set each implementation (arm) against a baseline per problem: speedups for latency "
        "metrics, ratios for resources, with a per-arm summary (geomean, min, median, max, "
        "statuses, pass rates). A ROOT directory is collected first.",
    )
    compare.add_argument("inputs", nargs="+", metavar="FILE.jsonl|ROOT")
    compare.add_argument(
        "--metric",
        default="csynth.worst",
        help="csynth.worst (default), csynth.avg, csynth.best, csynth.time, cosim.cycles, "
        "hwemu.us, lut, ff, dsp, bram, uram",
    )
    compare.add_argument(
        "--baseline",
        default="benchmark",
        metavar="RULE",
        help="benchmark (default), best, or ORIGIN[@VERSION][#VARIANT]",
    )
    compare.add_argument(
        "--pick",
        choices=("final", "best"),
        default="final",
        help="an arm's answer: its final variant (default) or its best passing one",
    )
    compare.add_argument(
        "--policy",
        choices=("exclude", "one"),
        default="exclude",
        help="problems without a passing answer: left out (default) or counted as 1.0",
    )
    compare.add_argument("--common", action="store_true", help="only problems where every arm has a passing answer")
    compare.add_argument(
        "--by",
        default="arm",
        metavar="arm|origin|meta.KEY",
        help="what makes an arm: (origin, origin_version) (default), origin, or a key of implementation.origin_meta",
    )
    compare.add_argument(
        "--format",
        choices=("table", "csv", "md", "json"),
        help="default: table on a terminal, md otherwise (or from the ending of -o)",
    )
    compare.add_argument("--raw", action="store_true", help="csv: no quote before cells that start like a formula")
    compare.add_argument("-o", "--output", help="output file (default: standard output)")
    compare.add_argument(
        "--config", metavar="FILE", help="a vitis-tui.toml whose [aliases] pair names spelled differently"
    )
    return compare


def run(args: argparse.Namespace) -> int:
    from collectors.compare.comparison import Comparer, Options, bulk
    from collectors.compare.render import render

    try:
        options = Options(args.metric, args.baseline, args.pick, args.policy, args.common, args.by)
    except ValueError as exc:
        print(f"vitis-tui compare: {exc}", file=sys.stderr)
        return EXIT_USAGE
    missing = [p for p in args.inputs if not os.path.exists(p)]
    for name in missing:
        print(f"{name}: no such file or directory", file=sys.stderr)
    if missing:
        return EXIT_IO
    settings = record_settings(args.config)
    if isinstance(settings, int):
        return settings
    comparer = Comparer(options, settings.aliases.problem_and_device)
    inputs: list[dict[str, Any]] = []
    with bulk():
        status = _read_all(args, comparer, inputs)
        if status != EXIT_OK:
            return status
        comparison = comparer.result()
    if comparer.skipped:
        print(f"{comparer.skipped} records without suite, group path, origin or variant were skipped", file=sys.stderr)
    fmt = args.format or _default_format(args.output)
    text = render(
        comparison, fmt, inputs, raw=args.raw, color=fmt == "table" and not args.output and sys.stdout.isatty()
    )
    return _write(text, args.output)


def _read_all(args: argparse.Namespace, comparer: Any, inputs: list[dict[str, Any]]) -> int:
    """Every input into the comparer; the path and sha256 of each into `inputs`."""
    from collectors.collect.config import ConfigError

    for path in args.inputs:
        try:
            records, digest = collect_root(path, args) if os.path.isdir(path) else read_jsonl(path)
        except ConfigError as exc:
            print(f"configuration error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_IO
        comparer.add(records)
        inputs.append({"path": path, "sha256": digest})
    return EXIT_OK


def _default_format(output: str | None) -> str:
    if output:
        return ENDINGS.get(os.path.splitext(output)[1].lower(), "table")
    return "table" if sys.stdout.isatty() else "md"


def _write(text: str, output: str | None) -> int:
    if not output:
        sys.stdout.write(text)
        return EXIT_OK
    from collectors.records.store import write_atomic

    try:
        write_atomic(output, text.encode("utf-8"))
    except OSError as exc:
        print(f"{output}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_IO
    return EXIT_OK


def read_jsonl(path: str) -> tuple[list[dict[str, Any]], str]:
    """The file's records, read as `validate` reads them (strict JSON, one object per line), and its
    sha256; a line that is not a record is skipped with one line on standard error."""
    from collectors.records.jsonl import LineError, read_object
    from collectors.records.loader import Followed, read_new_lines
    from collectors.text import visible

    with open(path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    lines, _ = read_new_lines(Followed(os.path.abspath(path)), final=True)
    records = []
    for number, line in lines:
        try:
            records.append(read_object(line)[1])
        except LineError as exc:
            print(visible(f"{path}:{number}: skipped: {exc}"), file=sys.stderr)
    return records, digest


def collect_root(root: str, args: argparse.Namespace) -> tuple[list[dict[str, Any]], str]:
    """Collect a build tree with the engine `collect` uses; the sha256 is that of what `collect` would write."""
    from collectors.collect.config import load_settings
    from collectors.collect.engine import Engine

    settings = {os.path.abspath(root): load_settings(Path(root), overrides(args))}
    collection = Engine(settings.__getitem__).scan([root])
    output = collection.output("", "")
    for problem in collection.problems() + output.clashes():
        print(str(problem), file=sys.stderr)
    data = output.records.render()
    return [json.loads(line) for line in data.splitlines()], hashlib.sha256(data).hexdigest()
