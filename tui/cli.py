"""The `vitis-tui` command line. Headless commands never import Textual."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collectors.validate import FileReport

from collectors.text import visible
from tui import compare_cmd

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_IO = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
EXIT_CRASHED = 70  # the interface failed (sysexits' EX_SOFTWARE): Textual printed the traceback


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("vitis-tui")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    from collectors.watch import POLL_ENV

    parser = argparse.ArgumentParser(
        prog="vitis-tui",
        description=f"Collect Vitis / Vitis HLS build reports into schema-1.0 JSON Lines (version {version()}).",
    )
    parser.add_argument("--version", action="version", version=f"vitis-tui {version()}")
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
    _add_config_flag(browse)

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
    export.add_argument(
        "--list-columns", action="store_true", help="print the column names (those of FILE... included) and exit"
    )
    export.add_argument(
        "--raw", action="store_true", help="CSV/Markdown cells verbatim (no ' before =, +, -, @; no escaped controls)"
    )
    _add_config_flag(export)

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
    compare_cmd.add_parser(commands)
    return parser


def _add_config_flag(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--config",
        metavar="FILE",
        help="configuration with [aliases.*] tables (default: vitis-tui.toml or [tool.vitis-tui] "
        "in pyproject.toml, at or above the current directory)",
    )


def _add_identity_flags(command: argparse.ArgumentParser) -> None:
    command.add_argument("--suite", help="problem.suite for every record (default: from config or the path)")
    command.add_argument("--origin", help="implementation.origin (default: <suite>_benchmark)")
    command.add_argument("--origin-version", help="implementation.origin_version (default: null)")
    command.add_argument(
        "--suite-root",
        help="directory the group path is taken below (default: nearest 'Benchmarks' ancestor, else ROOT)",
    )
    command.add_argument(
        "--follow-outside",
        action="store_true",
        default=None,
        help="follow symbolic links that lead outside the ROOTs (default: each is reported and not followed)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # the output is replaced atomically: it is the old file or the new one, never half of one
        print("vitis-tui: interrupted (the output file was left whole)", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if args.command == "collect":
        return run_collect(args.roots, args.output, args, strict=args.strict, quiet=args.quiet)
    if args.command == "validate":
        return run_validate(args.files, quiet=args.quiet, strict=args.strict)
    if args.command == "watch":
        return run_watch(args.roots, args.output, args)
    if args.command == "demo":
        return run_demo(args)
    if args.command == "browse":
        return run_browse(args.files, args.config)
    if args.command == "export":
        return run_export(args)
    if args.command == "compare":
        return compare_cmd.run(args)
    parser.error(f"unknown command {args.command}")
    return EXIT_USAGE


def _overrides(args: argparse.Namespace) -> dict[str, str | None]:
    return {
        "suite": getattr(args, "suite", None),
        "origin": getattr(args, "origin", None),
        "origin_version": getattr(args, "origin_version", None),
        "suite_root": getattr(args, "suite_root", None),
        "follow_outside": getattr(args, "follow_outside", None),
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


def _prepare(roots: list[str], outputs: list[str], args: argparse.Namespace) -> dict | int:
    """Check roots, output and configuration before any long work: settings per root, or an exit code."""
    from collectors.config import ConfigError, load_settings
    from collectors.records.store import check_writable, remove_stale_temporaries

    missing = [root for root in roots if not os.path.isdir(root)]
    for root in missing:
        print(visible(f"{root}: no such directory"), file=sys.stderr)
    if missing:
        return EXIT_IO
    for path in outputs:
        why = check_writable(path)
        if why is not None:
            print(visible(f"{path or repr(path)}: output not writable: {why}"), file=sys.stderr)
            return EXIT_IO
        remove_stale_temporaries(path)  # what a killed run left beside it
    try:
        return {os.path.abspath(root): load_settings(Path(root), _overrides(args)) for root in roots}
    except ConfigError as exc:
        print(visible(f"configuration error: {exc}"), file=sys.stderr)
        return EXIT_USAGE


def run_watch(roots: list[str], output: str, args: argparse.Namespace, before_start=None) -> int:
    if not _has_terminal():
        return _no_terminal(args.command)
    settings = _prepare(roots, [output], args)
    if isinstance(settings, int):
        return settings
    from collectors.live import LiveSession

    # made before any other thread runs, the session forks its workers (ready at once); started
    # now, it scans while Textual is imported and draws its first screen
    session = LiveSession(
        roots,
        output,
        settings.__getitem__,
        poll=getattr(args, "poll", None),
        rescan_every=getattr(args, "rescan", 300.0),
    )
    if before_start is not None:
        before_start()
    session.start()
    from tui.app import Dashboard  # Textual is imported only here

    app = Dashboard(session)
    app.run()
    if app.return_code:
        return EXIT_CRASHED
    if app.stopped:
        print(f"watch: {app.trouble}", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_OK


def run_collect(
    roots: list[str], output: str, args: argparse.Namespace, strict: bool = False, quiet: bool = False
) -> int:
    from collectors.engine import Engine
    from collectors.records.model import REPORT_TYPES
    from collectors.records.store import extension_path

    err = sys.stderr
    ext_output = getattr(args, "ext_output", None) or (extension_path(output) if output else "")
    settings = _prepare(roots, [output, ext_output] if output else [output], args)
    if isinstance(settings, int):
        return settings

    started = time.perf_counter()
    engine = Engine(settings.__getitem__, excluded=[output, ext_output])
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
    if not quiet:
        for problem in problems:
            print(str(problem), file=err)
        kinds = Counter(key.report_type for key in written.records.keys())  # noqa: SIM118 (a RecordSet)
        by_type = ", ".join(f"{kinds[t]} {t}" for t in sorted(REPORT_TYPES)) or "none"
        runs = sum(len(r.runs) for r in collection.projects.values())
        extensions = len(written.extensions)
        extra = f" + {extensions} extension records -> {ext_output}" if extensions else ""
        summary = (
            f"{len(collection.projects)} projects, {runs} runs, {len(written.records)} records ({by_type}), "
            f"{len(problems)} problems, {elapsed:.2f} s -> {output}{extra}"
        )
        print(visible(summary), file=err)
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


def run_validate(files: list[str], quiet: bool = False, strict: bool = False) -> int:
    from collectors.validate import validate_stream

    all_ok = True
    for name in files:
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


def _record_settings(config: str | None):
    """Settings for browse and export (aliases), or an exit code after saying why not."""
    from collectors.config import ConfigError, settings_for_records

    try:
        return settings_for_records(config)
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def run_browse(files: list[str], config: str | None = None) -> int:
    if not _has_terminal():
        return _no_terminal("browse")
    missing = [f for f in files if not os.path.isfile(f)]
    for name in missing:
        print(visible(f"{name}: no such file"), file=sys.stderr)
    if missing:
        return EXIT_IO
    settings = _record_settings(config)
    if isinstance(settings, int):
        return settings
    from tui.browse import BrowseApp

    app = BrowseApp(files, aliases=settings.aliases)
    app.run()
    return EXIT_CRASHED if app.return_code else EXIT_OK


def run_export(args: argparse.Namespace) -> int:
    from collectors.records.loader import load_files, schema_problems
    from collectors.records.query import QueryError, parse
    from collectors.records.table import RecordTable, default_columns, label_of

    settings = _record_settings(args.config)
    if isinstance(settings, int):
        return settings
    try:
        node = parse(args.filter)
    except QueryError as exc:
        print(f"bad --filter:\n{exc.pointer(args.filter)}", file=sys.stderr)
        return EXIT_USAGE
    missing = [f for f in args.files if not os.path.isfile(f)]
    for name in missing:
        print(visible(f"{name}: no such file"), file=sys.stderr)
    if missing:
        return EXIT_IO
    table, _followed, problems, rows = load_files(args.files, RecordTable(settings.aliases), final=True)
    problems += schema_problems(table, rows)
    if args.list_columns:
        for key in table.column_keys():
            print(f"{key:24} {label_of(key)}{'  (number)' if table.is_numeric(key) else ''}")
        return EXIT_OK
    columns, shared = default_columns(table)
    if args.columns:
        columns, shared = [c.strip() for c in args.columns.split(",")], {}
    return _write_export(args, table, node, columns, shared, problems)


def _write_export(args, table, node, columns: list[str], shared: dict[str, str], problems: list) -> int:
    from collectors.records.fields import is_dynamic
    from collectors.records.store import write_atomic
    from collectors.records.table import export, exported_rows

    sort, _, order = (args.sort or "").partition(":")
    unknown = [c for c in [*columns, *([sort] if sort else [])] if not (table.has_column(c) or is_dynamic(c))]
    if unknown:
        print(f"unknown column(s): {', '.join(unknown)} (see --list-columns)", file=sys.stderr)
        return EXIT_USAGE
    for problem in problems:
        print(str(problem), file=sys.stderr)
    selected = table.view(node, sort or None, order == "desc")
    text = export(table, selected, columns, args.format, raw=args.raw, shared=shared)
    written = len(exported_rows(table, selected))
    left_out = len(selected) - written
    if args.output:
        try:
            write_atomic(args.output, text.encode("utf-8"))
        except OSError as exc:
            print(visible(f"{args.output or repr(args.output)}: cannot write: {exc.strerror or exc}"), file=sys.stderr)
            return EXIT_IO
    else:
        sys.stdout.write(text)
    refused = f" ({left_out} refused by the schema left out)" if left_out else ""
    print(visible(f"{written} of {len(table)} records{refused} -> {args.output or 'standard output'}"), file=sys.stderr)
    return EXIT_OK


def run_demo(args: argparse.Namespace) -> int:
    import tempfile
    import threading

    from collectors.demo import agent_root, build_agent_tree, build_demo_tree, play_builds

    directory = args.directory or tempfile.mkdtemp(prefix="vitis-tui-demo-")
    if args.headless:
        root = build_demo_tree(directory)
        agent = build_agent_tree(directory)
        print(visible(f"demo tree: {root}; AI arm: {agent}"), file=sys.stderr)
        return run_collect([root, agent], args.output, args)
    if not _has_terminal():
        return _no_terminal("demo")
    root = os.path.join(os.path.abspath(directory), "rodinia-hls", "Benchmarks")
    os.makedirs(root, exist_ok=True)
    agent = agent_root(directory)
    stop = threading.Event()
    player = threading.Thread(target=play_builds, args=(directory, stop, args.pace), daemon=True)
    try:
        return run_watch([root, agent], args.output, args, before_start=player.start)
    finally:
        stop.set()


if __name__ == "__main__":
    sys.exit(main())
