"""`vitis-tui browse FILE...`: the records view over JSONL files, followed as they grow (needs a terminal)."""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

from tui.terminal import keep_early_keys, put_back

from .common import (
    EXIT_IO,
    EXIT_OK,
    add_config_flag,
    has_terminal,
    no_terminal,
    record_settings,
    run_interface,
    take_warnings,
    unreadable_files,
)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    browse = subparsers.add_parser(
        "browse",
        help="browse, filter, mark and export JSONL records (needs a terminal)",
        description="Open schema-1.0 JSONL files from any producer without watching a tree. Invalid lines "
        "are listed with their line numbers; files that grow (or are replaced) are followed. "
        "In the view, ? lists every key and ctrl+p every command.",
    )
    browse.add_argument("files", nargs="+", metavar="FILE")
    add_config_flag(browse)
    return browse


def run(args: argparse.Namespace) -> int:
    return browse(args.files, args.config)


def browse(files: list[str], config: str | None = None) -> int:
    if not has_terminal():
        return no_terminal("browse")
    keep_early_keys(quit_early=True)
    if unreadable_files(files):
        return EXIT_IO
    settings = record_settings(config)
    if isinstance(settings, int):
        return settings
    from collectors.records.loader import head_start

    head = head_start(files[0])  # (children prepare the first pieces while the interface is imported)
    from tui.browse import BrowseApp

    app = BrowseApp(files, aliases=settings.aliases, head=head)
    app.start_warnings = take_warnings()
    ended = run_interface(app)
    code = EXIT_OK if ended is None else ended
    if app.records_held() > END_AT_ONCE_ROWS:
        end_now(code)  # the terminal is restored and nothing is left to write
    return code


END_AT_ONCE_ROWS = 10_000  # records held beyond which freeing them one by one would hold the exit up


def end_now(code: int) -> None:
    """End the process without freeing every object of a large table one by one (a million
    records take seconds): the output streams are flushed and the terminal's settings put back
    first, and nothing else is pending."""
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    put_back()
    os._exit(code)
