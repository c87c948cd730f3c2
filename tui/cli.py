"""The `vitis-tui` command line: a dispatch table over `tui/commands/`. Headless commands never
import Textual."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tui.commands import browse, collect, compare, demo, export, validate, watch
from tui.commands.common import EXIT_INTERRUPTED, EXIT_USAGE, release_outputs, version

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


def parser() -> argparse.ArgumentParser:
    described = argparse.ArgumentParser(
        prog="vitis-tui",
        description=f"Collect Vitis / Vitis HLS build reports into schema-1.0 JSON Lines (version {version()}).",
    )
    described.add_argument("--version", action="version", version=f"vitis-tui {version()}")
    subparsers = described.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS.values():
        command.add_parser(subparsers)
    return described


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # the output is replaced atomically: it is the old file or the new one, never half of one
        print("vitis-tui: interrupted (the output file was left whole)", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        release_outputs()  # the outputs' locks (the kernel drops them too, however the process ends)


def _main(argv: Sequence[str] | None = None) -> int:
    commands = parser()
    args = commands.parse_args(argv)
    if args.command is None:
        commands.print_help(sys.stderr)
        return EXIT_USAGE
    return COMMANDS[args.command].run(args)


if __name__ == "__main__":
    sys.exit(main())
