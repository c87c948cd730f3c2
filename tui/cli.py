"""The `vitis-tui` command line. Headless commands never import Textual."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_IO = 0, 1, 2, 3


def _parser() -> argparse.ArgumentParser:
    from collectors.watch import POLL_ENV

    parser = argparse.ArgumentParser(
        prog="vitis-tui",
        description="Collect Vitis / Vitis HLS build reports into schema-1.0 JSON Lines.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    collect = commands.add_parser(
        "collect",
        help="scan build trees and write schema-1.0 JSONL",
        description="Walk each ROOT, find every project and run, parse their reports and write one "
        "schema-1.0 record per line, sorted, replacing the output file atomically.",
    )
    collect.add_argument("roots", nargs="+", metavar="ROOT", help="build tree to scan")
    _add_identity_flags(collect)
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
    collect.add_argument("--strict", action="store_true", help="exit with status 1 when any problem was found")
    collect.add_argument("--quiet", action="store_true", help="print neither problems nor the summary line")

    validate = commands.add_parser(
        "validate",
        help="check JSONL files against the schema-1.0 contract",
        description="Check every line of each FILE against the shipped schema-1.0 JSON Schema. "
        "'-' reads standard input. Exit 0 when all lines are valid, 1 otherwise.",
    )
    validate.add_argument("files", nargs="+", metavar="FILE")
    validate.add_argument("--quiet", action="store_true", help="print only the summary lines")

    watch = commands.add_parser(
        "watch",
        help="live dashboard of a build tree (needs a terminal)",
        description="Scan each ROOT in the background, then watch it: reports that appear, change or "
        "go away update the tables and the JSONL output (kept equal to what 'collect' would "
        "write). Uses inotify on local filesystems and polling on network filesystems "
        "(NFS, CIFS, sshfs, Lustre, GPFS, ...) or when inotify watches run out. Keys: q quit, "
        "? help, tab next panel, r rescan, enter details, ctrl+p command palette. "
        "For scripts and CI use 'vitis-tui collect'.",
    )
    watch.add_argument("roots", nargs="+", metavar="ROOT", help="build tree to watch")
    _add_identity_flags(watch)
    watch.add_argument(
        "-o",
        "--output",
        default="results.jsonl",
        help="JSONL file kept current (default: results.jsonl in the current directory)",
    )
    watch.add_argument(
        "--poll",
        type=float,
        metavar="SECONDS",
        help=f"poll every SECONDS instead of using inotify (also: ${POLL_ENV}=SECONDS)",
    )
    watch.add_argument(
        "--rescan",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="full rescan period that catches missed events (default: 300)",
    )

    browse = commands.add_parser(
        "browse",
        help="browse, filter, mark and export JSONL records (needs a terminal)",
        description="Open schema-1.0 JSONL files from any producer without watching a tree. Invalid lines "
        "are listed with their line numbers; files that grow (or are replaced) are followed. "
        "Keys: / filter, s sort, space mark, a mark shown, u clear marks, e export, y copy, "
        "enter details, ? help, q quit.",
    )
    browse.add_argument("files", nargs="+", metavar="FILE")

    export = commands.add_parser(
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
    export.add_argument("--sort", metavar="COLUMN[:desc]", help="sort by a column")
    export.add_argument("-o", "--output", help="output file (default: standard output)")
    export.add_argument("--list-columns", action="store_true", help="print the column names and exit")

    demo = commands.add_parser(
        "demo",
        help="watch a simulated build tree: builds play for about a minute (no Vitis needed)",
        description="Create a temporary Rodinia-like tree and play realistic builds into it while the "
        "dashboard watches it: projects appear, reports are written in pieces and rewritten, "
        "one synthesis fails and one run times out. With --headless, build a finished demo "
        "tree and run 'collect' on it instead.",
    )
    demo.add_argument("directory", nargs="?", help="where to create the tree (default: a temporary directory)")
    demo.add_argument("-o", "--output", default="results.jsonl", help="output JSONL file")
    demo.add_argument("--headless", action="store_true", help="no dashboard: build the tree and collect it")
    demo.add_argument("--pace", type=float, default=1.0, help="stretch (>1) or squeeze (<1) the build timeline")
    return parser


def _add_identity_flags(command: argparse.ArgumentParser) -> None:
    command.add_argument("--suite", help="problem.suite for every record (default: from config or the path)")
    command.add_argument("--origin", help="implementation.origin (default: <suite>_benchmark)")
    command.add_argument("--origin-version", help="implementation.origin_version (default: null)")
    command.add_argument(
        "--suite-root",
        help="directory the group path is taken below (default: nearest 'Benchmarks' ancestor, else ROOT)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if args.command == "collect":
        return run_collect(args.roots, args.output, args, strict=args.strict, quiet=args.quiet)
    if args.command == "validate":
        return run_validate(args.files, quiet=args.quiet)
    if args.command == "watch":
        return run_watch(args.roots, args.output, args)
    if args.command == "demo":
        return run_demo(args)
    if args.command == "browse":
        return run_browse(args.files)
    if args.command == "export":
        return run_export(args)
    parser.error(f"unknown command {args.command}")
    return EXIT_USAGE


def _overrides(args: argparse.Namespace) -> dict[str, str | None]:
    return {
        "suite": getattr(args, "suite", None),
        "origin": getattr(args, "origin", None),
        "origin_version": getattr(args, "origin_version", None),
        "suite_root": getattr(args, "suite_root", None),
    }


def _has_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _no_terminal(command: str) -> int:
    print(
        f"vitis-tui {command}: needs an interactive terminal (stdin and stdout must be a TTY); "
        "for scripts and CI use 'vitis-tui collect ROOT -o FILE'",
        file=sys.stderr,
    )
    return EXIT_USAGE


def _prepare(roots: list[str], output: str, args: argparse.Namespace) -> dict | int:
    """Check roots, output and configuration before any long work: settings per root, or an exit code."""
    from collectors.config import ConfigError, load_settings
    from collectors.records.store import check_writable

    missing = [root for root in roots if not os.path.isdir(root)]
    for root in missing:
        print(f"{root}: no such directory", file=sys.stderr)
    if missing:
        return EXIT_IO
    why = check_writable(output)
    if why is not None:
        print(f"{output}: output not writable: {why}", file=sys.stderr)
        return EXIT_IO
    try:
        return {os.path.abspath(root): load_settings(Path(root), _overrides(args)) for root in roots}
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def run_watch(roots: list[str], output: str, args: argparse.Namespace, before_start=None) -> int:
    if not _has_terminal():
        return _no_terminal(args.command)
    settings = _prepare(roots, output, args)
    if isinstance(settings, int):
        return settings
    from tui.app import Dashboard  # Textual is imported only here

    Dashboard(
        roots,
        output,
        settings.__getitem__,
        poll=getattr(args, "poll", None),
        rescan_every=getattr(args, "rescan", 300.0),
        before_start=before_start,
    ).run()
    return EXIT_OK


def run_collect(
    roots: list[str], output: str, args: argparse.Namespace, strict: bool = False, quiet: bool = False
) -> int:
    from collectors.engine import Engine
    from collectors.extensions import extension_key
    from collectors.records.model import REPORT_TYPES
    from collectors.records.store import extension_path, render, write_atomic

    err = sys.stderr
    settings = _prepare(roots, output, args)
    if isinstance(settings, int):
        return settings

    started = time.perf_counter()
    ext_output = getattr(args, "ext_output", None) or extension_path(output)
    engine = Engine(settings.__getitem__, excluded=[output, ext_output])
    with _Progress(enabled=err.isatty() and not quiet) as progress:
        collection = engine.scan(roots, progress=progress.update)
    records, clashes = collection.records()
    problems = collection.problems() + clashes
    extension = collection.extension_records()
    try:
        write_atomic(output, render(records))
        if extension or os.path.exists(ext_output):  # an old file with stale records is emptied
            write_atomic(ext_output, render(extension, key=extension_key))
    except OSError as exc:
        print(f"{exc.filename or output}: cannot write: {exc.strerror or exc}", file=err)
        return EXIT_IO
    elapsed = time.perf_counter() - started
    if not quiet:
        for problem in problems:
            print(str(problem), file=err)
        kinds = Counter(record["report_type"] for record in records)
        by_type = ", ".join(f"{kinds[t]} {t}" for t in sorted(REPORT_TYPES)) or "none"
        runs = sum(len(r.runs) for r in collection.projects.values())
        extra = f" + {len(extension)} extension records -> {ext_output}" if extension else ""
        print(
            f"{len(collection.projects)} projects, {runs} runs, {len(records)} records ({by_type}), "
            f"{len(problems)} problems, {elapsed:.2f} s -> {output}{extra}",
            file=err,
        )
    return EXIT_PROBLEMS if strict and problems else EXIT_OK


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


def run_validate(files: list[str], quiet: bool = False) -> int:
    from collectors.validate import validate_stream

    all_ok = True
    for name in files:
        try:
            if name == "-":
                report = validate_stream("<stdin>", sys.stdin)
            else:
                with open(name, encoding="utf-8", errors="replace", newline="") as stream:
                    report = validate_stream(name, stream)
        except OSError as exc:
            print(f"{name}: cannot read: {exc.strerror or exc}", file=sys.stderr)
            all_ok = False
            continue
        if not quiet:
            for line, message in report.errors:
                print(f"{report.name}:{line}: {message}")
        bad = len({line for line, _ in report.errors})
        print(f"{report.name}: {report.lines} lines, {report.valid} valid, {bad} invalid")
        all_ok = all_ok and report.ok
    return EXIT_OK if all_ok else EXIT_PROBLEMS


def run_browse(files: list[str]) -> int:
    if not _has_terminal():
        return _no_terminal("browse")
    missing = [f for f in files if not os.path.isfile(f)]
    for name in missing:
        print(f"{name}: no such file", file=sys.stderr)
    if missing:
        return EXIT_IO
    from tui.browse import BrowseApp

    BrowseApp(files).run()
    return EXIT_OK


def run_export(args: argparse.Namespace) -> int:
    from collectors.records.store import write_atomic
    from tui.loader import load_files, schema_problems
    from tui.query import QueryError, parse
    from tui.recordtable import BY_KEY, DEFAULT_VISIBLE, export

    if args.list_columns:
        for key, column in BY_KEY.items():
            print(f"{key:16} {column.label}{'  (number)' if column.numeric else ''}")
        return EXIT_OK
    try:
        node = parse(args.filter)
    except QueryError as exc:
        print(f"bad --filter:\n{exc.pointer(args.filter)}", file=sys.stderr)
        return EXIT_USAGE
    columns = [c.strip() for c in args.columns.split(",")] if args.columns else list(DEFAULT_VISIBLE)
    unknown = [c for c in columns if c not in BY_KEY]
    sort, _, order = (args.sort or "").partition(":")
    if sort and sort not in BY_KEY:
        unknown.append(sort)
    if unknown:
        print(f"unknown column(s): {', '.join(unknown)} (see --list-columns)", file=sys.stderr)
        return EXIT_USAGE
    missing = [f for f in args.files if f != "-" and not os.path.isfile(f)]
    for name in missing:
        print(f"{name}: no such file", file=sys.stderr)
    if missing:
        return EXIT_IO
    table, _followed, problems, rows = load_files(args.files)
    problems += schema_problems(table, rows)
    for problem in problems:
        print(str(problem), file=sys.stderr)
    selected = table.view(node, sort or None, order == "desc")
    text = export(table, selected, columns, args.format)
    if args.output:
        try:
            write_atomic(args.output, text.encode("utf-8"))
        except OSError as exc:
            print(f"{args.output}: cannot write: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_IO
        print(f"{len(selected)} of {len(table)} records -> {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def run_demo(args: argparse.Namespace) -> int:
    import tempfile
    import threading

    from collectors.demo import build_demo_tree, play_builds

    directory = args.directory or tempfile.mkdtemp(prefix="vitis-tui-demo-")
    if args.headless:
        root = build_demo_tree(directory)
        print(f"demo tree: {root}", file=sys.stderr)
        return run_collect([root], args.output, args)
    if not _has_terminal():
        return _no_terminal("demo")
    root = os.path.join(os.path.abspath(directory), "rodinia-hls", "Benchmarks")
    os.makedirs(root, exist_ok=True)
    stop = threading.Event()
    player = threading.Thread(target=play_builds, args=(directory, stop, args.pace), daemon=True)
    try:
        return run_watch([root], args.output, args, before_start=player.start)
    finally:
        stop.set()


if __name__ == "__main__":
    sys.exit(main())
