"""`vitis-tui compare`: speedups and resource ratios of implementations against a baseline, headless.

Inputs are JSONL files or build trees (a directory is collected first, as `collect` would).
Format: `table` when standard output is a terminal, `md` otherwise; with `-o OUT` and no `--format`,
the ending of OUT picks it (.json, .csv, .md, .tex, .html; anything else: the table as plain text).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import sys
from typing import Any

from collectors.text import visible

from .common import (
    EXIT_IO,
    EXIT_OK,
    EXIT_USAGE,
    output_or_stdout,
    parse_filter,
    record_settings,
    root_settings,
    unreadable_files,
    write_output,
)

ENDINGS = {".json": "json", ".csv": "csv", ".md": "md", ".tex": "latex", ".html": "html", ".htm": "html"}


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    compare = subparsers.add_parser(
        "compare",
        help="compare implementations: speedups against a baseline per problem",
        description="Set each implementation (arm) against a baseline per problem: speedups for latency "
        "metrics, ratios for resources, with a per-arm summary (geomean, min, median, max, "
        "statuses, pass rates). A ROOT directory is collected first.",
    )
    compare.add_argument("inputs", nargs="+", metavar="FILE.jsonl|ROOT|-")
    compare.add_argument(
        "--metric",
        default="csynth.worst",
        help="csynth.worst (default), csynth.avg, csynth.best, csynth.time, cosim.cycles, hwemu.us, "
        "hwemu.cycles, fmax (higher is better), ii, adp, lut, ff, dsp, bram, uram",
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
    compare.add_argument(
        "--filter",
        default="",
        metavar="QUERY",
        help="only the records the query matches (the records view's language, e.g. 'suite:rodinia* -type:sw_run')",
    )
    _add_summary_flags(compare)
    _add_output_flags(compare)
    return compare


def _add_summary_flags(compare: argparse.ArgumentParser) -> None:
    """The flags that add to the summary: the virtual best, fast_p, pass@k, --common."""
    compare.add_argument(
        "--oracle", action="store_true", help="a virtual-best column: per problem, the best passing answer of the arms"
    )
    compare.add_argument(
        "--fast-p",
        default="",
        metavar="P,P,...",
        help="fast_p for each threshold: the share of problems whose answer passed and is more than p times better",
    )
    compare.add_argument(
        "--samples",
        action="store_true",
        help="variants of a problem are independent attempts: pass@1, @5, @10 per stage",
    )
    compare.add_argument("--common", action="store_true", help="only problems where every arm has a passing answer")


def _add_output_flags(compare: argparse.ArgumentParser) -> None:
    """What makes an arm, and what is written where."""
    compare.add_argument(
        "--by",
        default="arm",
        metavar="arm|origin|meta.KEY",
        help="what makes an arm: (origin, origin_version) (default), origin, or a key of implementation.origin_meta",
    )
    compare.add_argument(
        "--format",
        choices=("table", "csv", "md", "json", "latex", "html"),
        help="default: table on a terminal, md otherwise (or from the ending of -o)",
    )
    compare.add_argument("--raw", action="store_true", help="csv: no quote before cells that start like a formula")
    compare.add_argument("-o", "--output", type=output_or_stdout, help="output file ('-' or none: standard output)")
    compare.add_argument(
        "--config", metavar="FILE", help="a vitis-tui.toml whose [aliases] pair names spelled differently"
    )


def run(args: argparse.Namespace) -> int:
    from collectors.compare.comparison import Comparer, bulk
    from collectors.compare.inputs import Judged, apply_filter
    from collectors.compare.model import spelled_with
    from collectors.compare.render import render

    prepared = _prepare(args)
    if isinstance(prepared, int):
        return prepared
    options, node, settings = prepared
    comparer = Comparer(options, settings.aliases.problem_and_device, spelled_with(settings.aliases))
    inputs: list[dict[str, Any]] = []
    judged = Judged()
    with bulk():
        status = _read_all(args, judged, inputs)
        if status != EXIT_OK:
            return status
        apply_filter(judged, node, settings.aliases)
        for problem in judged.problems:
            print(str(problem), file=sys.stderr)
        print(visible(judged.summary()), file=sys.stderr)
        comparer.add(judged.records)
        comparison = comparer.result()
    for warning in comparison.warnings():
        print(visible(f"warning: {warning}"), file=sys.stderr)
    fmt = args.format or _default_format(args.output)
    text = render(
        comparison, fmt, inputs, raw=args.raw, color=fmt == "table" and not args.output and sys.stdout.isatty()
    )
    return write_output([text], args.output)


def _prepare(args: argparse.Namespace) -> tuple[Any, Any, Any] | int:
    """Options, the parsed filter and the settings, or an exit code after saying why not."""
    from collectors.compare.model import Options

    try:
        thresholds = tuple(p.strip() for p in args.fast_p.split(",") if p.strip())
        options = Options(
            args.metric,
            args.baseline,
            args.pick,
            args.policy,
            args.common,
            args.by,
            oracle=args.oracle,
            fast_p=thresholds,
            samples=args.samples,
        )
    except ValueError as exc:
        print(f"vitis-tui compare: {exc}", file=sys.stderr)
        return EXIT_USAGE
    node = parse_filter(args.filter)
    if isinstance(node, int):
        return node
    if unreadable_files([p for p in args.inputs if p != "-"], pipes=True, trees=True):
        return EXIT_IO
    settings = record_settings(args.config)
    if isinstance(settings, int):
        return settings
    return options, node, settings


def _read_all(args: argparse.Namespace, judged: Any, inputs: list[dict[str, Any]]) -> int:
    """Every input's lines judged into `judged`; the path and sha256 of each into `inputs`."""
    from collectors.collect.config import ConfigError
    from collectors.compare.inputs import judge_lines

    for path in args.inputs:
        try:
            lines, digest = collect_root(path, args) if os.path.isdir(path) else read_lines(path)
        except ConfigError as exc:
            print(f"configuration error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except OSError as exc:
            print(visible(f"{path}: cannot read: {exc.strerror or exc}"), file=sys.stderr)
            return EXIT_IO
        judge_lines("<stdin>" if path == "-" else path, lines, judged)
        inputs.append({"path": path, "sha256": digest})
    return EXIT_OK


def _default_format(output: str | None) -> str:
    if output:
        return ENDINGS.get(os.path.splitext(output)[1].lower(), "table")
    return "table" if sys.stdout.isatty() else "md"


def read_lines(path: str) -> tuple[list[tuple[int, Any]], str]:
    """The numbered lines of a file ('-': standard input), split as `validate` splits them, and
    the sha256 of its bytes."""
    from collectors.records.jsonl import iter_lines

    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            data = handle.read()  # (once: the lines and the digest are of the same bytes)
    return list(iter_lines(io.BytesIO(data))), hashlib.sha256(data).hexdigest()


def collect_root(root: str, args: argparse.Namespace) -> tuple[list[tuple[int, bytes]], str]:
    """Collect a build tree with the engine `collect` uses; the sha256 is that of what `collect` would write."""
    from collectors.collect.engine import Engine
    from collectors.interpreter import usable_cores

    settings = root_settings([root], args)
    collection = Engine(settings.__getitem__, processes=usable_cores(), cache=False, accounts=False).scan([root])
    output = collection.output("", "")
    for problem in collection.problems() + output.clashes():
        print(str(problem), file=sys.stderr)
    data = output.records.render()
    return list(enumerate(data.splitlines(), 1)), hashlib.sha256(data).hexdigest()
