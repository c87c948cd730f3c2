"""The `vitis-tui` command line: a dispatch table over `tui/commands/`. Headless commands never
import Textual."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tui.commands import browse, collect, compare, demo, export, validate, watch
from tui.commands.common import EXIT_INTERRUPTED, EXIT_USAGE, glue_query_values, release_outputs, version
from tui.terminal import put_back

# in the order `--help` lists them
COMMANDS = {
    "collect": collect,
    "validate": validate,
    "watch": watch,
    "browse": browse,
    "export": export,
    "demo": demo,
    "compare": compare,
}


class _Parser(argparse.ArgumentParser):
    """The version is read when asked for (`--help`, `--version`): importlib.metadata costs
    15-20 ms, at every start otherwise (browse's first screen waits for it)."""

    def format_help(self) -> str:
        self.description = f"Collect Vitis / Vitis HLS build reports into schema-1.0 JSON Lines (version {version()})."
        return super().format_help()


class _Version(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kwargs: object) -> None:
        print(f"vitis-tui {version()}")
        parser.exit()


def parser() -> argparse.ArgumentParser:
    described = _Parser(prog="vitis-tui")
    described.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    subparsers = described.add_subparsers(dest="command", metavar="COMMAND", parser_class=argparse.ArgumentParser)
    for command in COMMANDS.values():
        command.add_parser(subparsers)
    return described


def utf8_mode() -> None:
    """Re-execute the program in Python's UTF-8 mode when the locale's encoding is not UTF-8
    (`LANG=en_US.ISO-8859-1`, or `LC_ALL=C` without coercion): file names are then decoded as
    the filesystem stores them (UTF-8) and written as the same UTF-8, not as mojibake nor as
    "not valid UTF-8"; reports and configurations are read as UTF-8 too."""
    if sys.flags.utf8_mode or sys.getfilesystemencoding() == "utf-8" or not sys.executable:
        return
    if os.environ.get("VITIS_TUI_UTF8_REEXEC"):
        return  # (tried once already: never loop)
    os.environ["VITIS_TUI_UTF8_REEXEC"] = "1"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-X", "utf8", *sys.orig_argv[1:]])


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # run as the program (not called by a test): see utf8_mode
        utf8_mode()
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # the output is replaced atomically: it is the old file or the new one, never half of one
        print("vitis-tui: interrupted (the output file was left whole)", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        release_outputs()  # the outputs' locks (the kernel drops them too, however the process ends)
        put_back()  # the terminal's flow control, where an interactive command turned it off


def _main(argv: Sequence[str] | None = None) -> int:
    commands = parser()
    args = commands.parse_args(glue_query_values(list(sys.argv[1:] if argv is None else argv)))
    if args.command is None:
        commands.print_help(sys.stderr)
        return EXIT_USAGE
    return COMMANDS[args.command].run(args)


if __name__ == "__main__":
    sys.exit(main())
