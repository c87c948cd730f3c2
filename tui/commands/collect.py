"""`vitis-tui collect ROOT...`: scan build trees and write schema-1.0 JSONL, headless."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Any

from collectors.text import visible

from .common import EXIT_IO, EXIT_OK, EXIT_PROBLEMS, add_identity_flags, given_roots, prepare


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    collect = subparsers.add_parser(
        "collect",
        help="scan build trees and write schema-1.0 JSONL",
        description="Walk each ROOT, find every project and run, parse their reports and write one "
        "schema-1.0 record per line, sorted, replacing the output file atomically.",
    )
    collect.add_argument("roots", nargs="+", metavar="ROOT", help="build tree to scan")
    add_identity_flags(collect)
    collect.add_argument(
        "-o",
        "--output",
        default="results.jsonl",
        help="output JSONL file (default: results.jsonl in the current directory)",
    )
    collect.add_argument(
        "--ext-output",
        metavar="FILE",
        help="extension records (AI Engine, XRT recipes, LOOM) go here "
        "(default: FILE.ext.jsonl beside the output; written when there are any)",
    )
    collect.add_argument(
        "--explain",
        nargs="*",
        metavar="PATH",
        help="print, for every report file found (or those at or below each PATH), which record it fed "
        "or why it fed none: one line each on standard output, 'FILE: VERDICT: detail', VERDICT one of "
        "record, copy, facts, problem, skipped, unused",
    )
    collect.add_argument("--strict", action="store_true", help="exit with status 1 when any problem was found")
    collect.add_argument("--quiet", action="store_true", help="print neither problems nor the summary line")
    return collect


def run(args: argparse.Namespace) -> int:
    return collect(given_roots(args.roots), args.output, args, strict=args.strict, quiet=args.quiet)


def collect(roots: list[str], output: str, args: argparse.Namespace, strict: bool = False, quiet: bool = False) -> int:
    from collectors.collect.engine import Engine
    from collectors.interpreter import usable_cores
    from collectors.records.model import REPORT_TYPES
    from collectors.records.store import extension_path

    err = sys.stderr
    ext_output = getattr(args, "ext_output", None) or (extension_path(output) if output else "")
    settings = prepare(roots, [output, ext_output] if output else [output], args)
    if isinstance(settings, int):
        return settings

    started = time.perf_counter()
    explain = getattr(args, "explain", None)
    engine = Engine(
        settings.__getitem__,
        excluded=[output, ext_output],
        processes=usable_cores(),
        cache=False,
        accounts=explain is not None,
    )
    with _Progress(enabled=err.isatty() and not quiet) as progress:
        collection = engine.scan(roots, progress=progress.update)
    written = collection.output(output, ext_output)
    problems = collection.problems() + written.clashes()
    try:
        written.write()
    except OSError as exc:
        print(visible(f"{exc.filename or output}: cannot write: {exc.strerror or exc}"), file=err)
        return EXIT_IO
    elapsed = time.perf_counter() - started
    if explain is not None:
        _explain(collection, explain, written.lost())
    if not quiet:
        for problem in problems:
            print(str(problem), file=err)
        kinds = Counter(key.report_type for key in written.records.keys())  # noqa: SIM118 (a RecordSet)
        by_type = ", ".join(f"{kinds[t]} {t}" for t in sorted(REPORT_TYPES)) or "none"
        runs = sum(r.run_count for r in collection.projects.values())
        extensions = len(written.extensions)
        extra = f" + {extensions} extension records -> {ext_output}" if extensions else ""
        # a project counts when it could yield records: it holds a run (or extension output)
        built = sum(1 for result in collection.projects.values() if result.run_count or result.extension_records)
        unbuilt = f" (and {len(collection.projects) - built} not built)" if built < len(collection.projects) else ""
        summary = (
            f"{counted(built, 'project')}{unbuilt}, {counted(runs, 'run')}, "
            f"{counted(len(written.records), 'record')} ({by_type}), "
            f"{counted(len(problems), 'problem')}, {collection.skipped} build-output folders skipped, "
            f"{elapsed:.2f} s -> {output}{extra}"
        )
        print(visible(summary), file=err)
    return EXIT_PROBLEMS if strict and problems else EXIT_OK


def _explain(collection: Any, wanted: list[str], lost: list[Any]) -> None:
    from collectors.collect.accounting import explain_lines, tree_accounts

    accounts = tree_accounts({p: r.accounts for p, r in collection.projects.items()}, collection.walk_problems, lost)
    for line in explain_lines(accounts, wanted):
        print(visible(line))


class _Progress:
    """A rich progress bar on stderr while scanning, only when stderr is a terminal."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._progress: Any = None  # a rich Progress while on a terminal
        self._task = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task("walking", total=None)
        return self

    def update(self, phase: str, count: int, total: int | None) -> None:
        """Walking has no known end (the bar pulses); collecting counts projects against the total."""
        if self._progress is not None:
            description = f"walking: {count} directories" if phase == "walk" else "collecting projects"
            self._progress.update(self._task, description=description, completed=count, total=total)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(None, None, None)


def counted(number: int, noun: str) -> str:
    """'1 project', '6 projects'."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
