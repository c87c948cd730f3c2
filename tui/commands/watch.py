"""`vitis-tui watch ROOT...`: the live dashboard over build trees (needs a terminal)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import Any

from collectors.text import visible
from tui.terminal import keep_early_keys

from .common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    POLL_RANGE,
    RESCAN_RANGE,
    add_identity_flags,
    given_roots,
    has_terminal,
    no_terminal,
    prepare,
    root_settings,
    run_interface,
    seconds_between,
    take_warnings,
)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    from collectors.live.modes import POLL_ENV

    watch = subparsers.add_parser(
        "watch",
        help="live dashboard of a build tree (needs a terminal)",
        description="Scan each ROOT in the background, then watch it: reports that appear, change or "
        "go away update the tables and the JSONL output (kept equal to what 'collect' would "
        "write). Uses inotify on local filesystems and polling on network filesystems "
        "(NFS, CIFS, sshfs, Lustre, GPFS, ...) or when inotify watches run out. In the dashboard, "
        "? lists every key and ctrl+p every command. For scripts and CI use 'vitis-tui collect'.",
    )
    watch.add_argument("roots", nargs="+", metavar="ROOT", help="build tree to watch")
    add_identity_flags(watch)
    watch.add_argument(
        "-o",
        "--output",
        default="results.jsonl",
        help="JSONL file kept current (default: results.jsonl in the current directory)",
    )
    watch.add_argument(
        "--poll",
        type=seconds_between(*POLL_RANGE),
        metavar="SECONDS",
        help=f"poll every SECONDS ({POLL_RANGE[0]:g} to {POLL_RANGE[1]:g}) instead of using inotify "
        f"(also: ${POLL_ENV}=SECONDS)",
    )
    watch.add_argument(
        "--rescan",
        type=seconds_between(*RESCAN_RANGE),
        default=300.0,
        metavar="SECONDS",
        help=f"full rescan period that catches missed events ({RESCAN_RANGE[0]:g} to {RESCAN_RANGE[1]:g}; "
        "default: 300)",
    )
    return watch


def run(args: argparse.Namespace) -> int:
    return watch(given_roots(args.roots), args.output, args)


def poll_environment_error(environ: Mapping[str, str] = os.environ) -> str | None:
    """Why ${POLL_ENV} cannot be used, or None: checked as --poll is (the watcher reads it)."""
    from collectors.live.watcher import POLL_ENV

    text = environ.get(POLL_ENV)
    if not text:
        return None
    try:
        seconds_between(*POLL_RANGE)(text)
    except argparse.ArgumentTypeError as exc:
        return visible(f"{POLL_ENV}={text}: {exc}")
    return None


def watch(roots: list[str], output: str, args: argparse.Namespace, before_start=None) -> int:
    wrong = poll_environment_error()
    if wrong is not None:
        print(f"vitis-tui {args.command}: {wrong}", file=sys.stderr)
        return EXIT_USAGE
    if not has_terminal():
        return no_terminal(args.command)
    keep_early_keys()
    settings = prepare(roots, [output], args)
    if isinstance(settings, int):
        return settings
    from collectors.live.session import LiveSession

    # made before any other thread runs, the session forks its workers (ready at once); started
    # now, it scans while Textual is imported and draws its first screen
    session = LiveSession(
        roots,
        output,
        settings.__getitem__,
        poll=getattr(args, "poll", None),
        rescan_every=getattr(args, "rescan", 300.0),
        config=_config_watch(roots, settings, args),
    )
    if before_start is not None:
        before_start()
    session.start()
    from tui.app import Dashboard  # Textual is imported only here

    app = Dashboard(session)
    app.start_warnings = take_warnings()
    ended = run_interface(app)
    if ended is not None:
        return ended  # (a signal leaves the output whole)
    if app.stopped:
        print(f"watch: {app.trouble}", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_OK


def _config_watch(roots: list[str], settings: dict, args: argparse.Namespace) -> Any:
    """The configuration files, watched while `watch` runs: read again as at the start."""
    from collectors.live.looks import ConfigWatch

    def load() -> Any:
        return root_settings(roots, args).__getitem__

    return ConfigWatch.of(roots, load, settings.__getitem__)
