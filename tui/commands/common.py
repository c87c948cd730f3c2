"""What the commands share: exit codes, the version, the flags several take, the checks before long work."""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from collectors.text import visible

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_IO = 0, 1, 2, 3
EXIT_CRASHED = 70  # the interface failed (sysexits' EX_SOFTWARE): Textual printed the traceback
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("vitis-tui")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


QUERY_FLAGS = ("--filter",)  # flags whose value is a query, which may start with `-` (a negation)


def glue_query_values(argv: list[str]) -> list[str]:
    """`--filter -status:pass` as `--filter=-status:pass`: argparse takes any word that starts
    with `-` after a flag for another flag, so a query that starts with a negation is joined to
    its flag before parsing (in every command that takes one)."""
    glued: list[str] = []
    words = iter(argv)
    for word in words:
        if word == "--":  # what follows is file names only
            return [*glued, word, *words]
        if word in QUERY_FLAGS and (value := next(words, None)) is not None:
            glued.append(f"{word}={value}" if value.startswith("-") else word)
            if not value.startswith("-"):
                glued.append(value)
            continue
        glued.append(word)
    return glued


# durations a user may give (seconds): positive and bounded, so an idle watch never spins a core
POLL_RANGE = (0.1, 3600.0)
RESCAN_RANGE = (1.0, 86400.0)


def seconds_between(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from `low` to `high` (nan, inf, 0 and negatives refused)."""
    return number_between(low, high, "seconds")


def number_between(low: float, high: float, what: str) -> Callable[[str], float]:
    """An argparse type: a finite number from `low` to `high`, `what` naming it in messages."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {what}") from None
        if not low <= value <= high:  # (nan compares false both ways)
            raise argparse.ArgumentTypeError(f"{text} is out of range: give {what} from {low:g} to {high:g}")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


def add_config_flag(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--config",
        metavar="FILE",
        help="configuration with [aliases.*] tables (default: vitis-tui.toml or [tool.vitis-tui] "
        "in pyproject.toml, at or above the current directory)",
    )


def add_identity_flags(command: argparse.ArgumentParser) -> None:
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


def overrides(args: argparse.Namespace) -> dict[str, str | None]:
    return {
        "suite": getattr(args, "suite", None),
        "origin": getattr(args, "origin", None),
        "origin_version": getattr(args, "origin_version", None),
        "suite_root": getattr(args, "suite_root", None),
        "follow_outside": getattr(args, "follow_outside", None),
    }


def given_roots(roots: list[str]) -> list[str]:
    """Relative roots made absolute along the shell's working directory ($PWD, as the user sees it)
    rather than the resolved one: `cd project/builds && vitis-tui collect .` with builds a link
    then finds the configuration beside the link, as `collect project/builds` does. A root that
    climbs (`..`) is left to the filesystem, whose `..` is the target's parent."""
    pwd = os.environ.get("PWD", "")
    try:
        usable = os.path.isabs(pwd) and os.path.samefile(pwd, ".")
    except OSError:
        usable = False
    return [
        os.path.normpath(os.path.join(pwd, root))
        if usable and root and not os.path.isabs(root) and ".." not in Path(root).parts
        else root
        for root in roots
    ]


def has_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def no_terminal(command: str) -> int:
    print(
        f"vitis-tui {command}: needs an interactive terminal (stdin and stdout must be a TTY); "
        "for scripts and CI use 'vitis-tui collect ROOT -o FILE'",
        file=sys.stderr,
    )
    return EXIT_USAGE


def prepare(roots: list[str], outputs: list[str], args: argparse.Namespace) -> dict | int:
    """Check roots, output and configuration before any long work, then take each output's lock
    (released by `release_outputs`, or by the kernel however the process ends): settings per
    root, or an exit code."""
    from collectors.collect.config import ConfigError
    from collectors.files import not_a_directory

    if "-" in outputs:  # (a file named '-' is never what was meant)
        print(
            "-o -: the records go to a file, sorted, replaced whole and locked while written; "
            "to print them: vitis-tui export FILE",
            file=sys.stderr,
        )
        return EXIT_USAGE
    missing = [(root, why) for root in roots if (why := not_a_directory(root)) is not None]
    for root, why in missing:
        print(visible(f"{root}: {why}"), file=sys.stderr)
    if missing:
        return EXIT_IO
    if not outputs_writable(outputs):
        return EXIT_IO
    try:
        settings = root_settings(roots, args)
    except ConfigError as exc:
        print(visible(f"configuration error: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    warn(*(line for found in settings.values() for line in found.warnings))
    sources = [str(found.source) for found in settings.values() if found.source is not None]
    if not outputs_distinct(outputs, sources):
        return EXIT_IO
    return settings if lock_outputs(outputs) else EXIT_IO


def outputs_distinct(outputs: list[str], configurations: list[str]) -> bool:
    """Whether the outputs are different files, none of them a configuration read (`-o
    vitis-tui.toml` would replace it); each clash said on stderr."""
    seen = {os.path.realpath(path): f"the configuration {path}" for path in configurations}
    for path in outputs:
        same = seen.get(os.path.realpath(path)) if path else None
        if same is not None:
            print(visible(f"{path}: output not writable: the same file as {same}; refused"), file=sys.stderr)
            return False
        seen[os.path.realpath(path)] = f"the output {path}"
    return True


def outputs_writable(outputs: list[str]) -> bool:
    """Whether every output can be written, each that cannot said on stderr."""
    from collectors.records.store import check_writable, remove_stale_temporaries

    for path in outputs:
        why = check_writable(path)
        if why is not None:
            print(visible(f"{path or repr(path)}: output not writable: {why}"), file=sys.stderr)
            return False
        remove_stale_temporaries(path)  # what a killed run left beside it
    return True


_LOCKS: list = []  # the output locks this command holds (collectors.records.lock.OutputLock)


def lock_outputs(outputs: list[str]) -> bool:
    """Take the lock of each output: a second `collect` or `watch` writing the same file is
    refused, naming the first. False (said on stderr, the locks taken released) when one is held."""
    from collectors.records.lock import UNSUPPORTED, OutputLock, OutputLocked

    for path in outputs:
        try:
            _LOCKS.append(OutputLock.acquire(path))
        except OutputLocked as exc:
            print(visible(f"{path}: output {exc}"), file=sys.stderr)
        except OSError as exc:
            if exc.errno in UNSUPPORTED:  # (some FUSE and old NFS mounts): write, but say so
                warn(f"{path}: no lock taken ({exc.strerror}): a second writer of this output would not be refused")
                continue
            print(visible(f"{path}: output not writable: cannot lock {exc.filename}: {exc.strerror}"), file=sys.stderr)
        else:
            continue
        release_outputs()
        return False
    return True


def release_outputs() -> None:
    """Give back the locks `prepare` took (the command line calls it however a command ends)."""
    while _LOCKS:
        _LOCKS.pop().release()


_WARNED: list[str] = []  # every warning printed (an interface tells them again: take_warnings())


def warn(*lines: str) -> None:
    """Each warning once, one line each (two roots under one configuration share its warnings)."""
    for line in dict.fromkeys(lines):
        print(visible(line), file=sys.stderr)
        if line not in _WARNED:
            _WARNED.append(line)


def take_warnings() -> tuple[str, ...]:
    """The warnings printed so far (and no longer kept): an interface opened after them covers them."""
    taken = tuple(_WARNED)
    _WARNED.clear()
    return taken


def record_settings(config: str | None):
    """Settings for browse and export (aliases), or an exit code after saying why not."""
    from collectors.collect.config import ConfigError, settings_for_records

    try:
        settings = settings_for_records(config)
    except ConfigError as exc:
        print(visible(f"configuration error: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    warn(*settings.warnings)
    return settings


def unreadable_files(files: list[str], pipes: bool = False, trees: bool = False) -> bool:
    """Whether any of `files` is no regular file, each said on stderr in one line: missing, a
    directory (unless `trees`: a build tree to collect), a device (/dev/zero never ends), a
    socket; a FIFO too unless `pipes` (a command that reads a stream once takes
    `<(zcat f.jsonl.gz)`; one that follows or reads back a file cannot)."""
    from collectors.files import not_a_file

    def taken(mode: int) -> bool:
        return (pipes and stat.S_ISFIFO(mode)) or (trees and stat.S_ISDIR(mode))

    reasons = [(name, not_a_file(name, taken)) for name in files]
    for name, reason in reasons:
        if reason is not None:
            print(visible(f"{name}: {reason}"), file=sys.stderr)
    return any(reason is not None for _name, reason in reasons)


def run_interface(app: Any) -> int | None:
    """Run a Textual app with the terminal guarded (tui/signals.py): the exit status where a
    signal (128 + N, the terminal put back) or a failure of the interface ended it; None where
    it ended as the user asked."""
    from tui.signals import before_the_app, exit_status

    before_the_app()
    app.run()
    signalled = exit_status(app)
    if signalled is not None:
        return signalled
    return EXIT_CRASHED if app.return_code else None


def root_settings(roots: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """Each root's settings (by its absolute path): the flags over its configuration files.
    Raises ConfigError, one line naming the file and the key."""
    from collectors.collect.config import load_settings

    return {os.path.abspath(root): load_settings(Path(root), overrides(args)) for root in roots}


def parse_filter(text: str) -> Any:
    """The query of a `--filter` (the filter language), or EXIT_USAGE after saying where it is wrong."""
    from collectors.records.query import QueryError, parse

    try:
        return parse(text)
    except QueryError as exc:
        print(f"bad --filter:\n{exc.pointer(text)}", file=sys.stderr)
        return EXIT_USAGE


def output_or_stdout(value: str) -> str | None:
    """An `-o` value where '-' means standard output (None), as the shell's tools read it."""
    return None if value == "-" else value


def write_output(pieces: Iterable[str], output: str | None) -> int:
    """The text in `pieces` replacing `output` atomically, or on standard output where none is
    given; an exit code."""
    if not output:
        for piece in pieces:
            sys.stdout.write(piece)
        return EXIT_OK
    from collectors.records.store import write_atomic

    try:
        write_atomic(output, (piece.encode("utf-8") for piece in pieces))
    except OSError as exc:
        print(visible(f"{output}: cannot write: {exc.strerror or exc}"), file=sys.stderr)
        return EXIT_IO
    return EXIT_OK
