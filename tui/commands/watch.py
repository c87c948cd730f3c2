"""`vitis-tui watch ROOT...`: the live dashboard over build trees (needs a terminal)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .common import EXIT_CRASHED, EXIT_OK, EXIT_PROBLEMS, add_identity_flags, has_terminal, no_terminal, prepare


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    from collectors.live.modes import POLL_ENV

    watch = subparsers.add_parser(
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
    add_identity_flags(watch)
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
    return watch


def run(args: argparse.Namespace) -> int:
    return watch(args.roots, args.output, args)


def watch(roots: list[str], output: str, args: argparse.Namespace, before_start=None) -> int:
    if not has_terminal():
        return no_terminal(args.command)
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
    from tui.signals import before_the_app, exit_status

    app = Dashboard(session)
    before_the_app()
    app.run()
    signalled = exit_status(app)
    if signalled is not None:
        return signalled  # (the terminal is put back and the output whole: tui/signals.py)
    if app.return_code:
        return EXIT_CRASHED
    if app.stopped:
        print(f"watch: {app.trouble}", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_OK


def _config_watch(roots: list[str], settings: dict, args: argparse.Namespace) -> Any:
    """The configuration files, watched while `watch` runs: read again as at the start."""
    from pathlib import Path

    from collectors.collect.config import load_settings
    from collectors.live.looks import ConfigWatch

    from .common import overrides

    def load() -> Any:
        return {os.path.abspath(root): load_settings(Path(root), overrides(args)) for root in roots}.__getitem__

    return ConfigWatch.of(roots, load, settings.__getitem__)
