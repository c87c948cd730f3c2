"""The terminal's settings as the command found them, and the one it changes before Textual runs.

Until Textual takes the terminal (its imports: about 0.2 s), a key typed waits in the terminal's
line buffer and reaches the app once it reads, except ctrl+q and ctrl+s: with flow control on
(IXON, the usual setting) the kernel takes them for itself, and a ctrl+q typed at once never
quit. An interactive command turns flow control off first thing (`keep_early_keys`) and turns it
on again however it ends (`put_back`: the cli's end, browse's quick exit, a signal before the app
runs); tui/signals.py puts back all the settings found (`found_attributes`) where the app could
not.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType
from typing import Any

_found: list[Any] | None = None  # the settings before keep_early_keys changed them
_owner = 0  # the process that changed them (a worker forked since must not touch the terminal)


def attributes_now() -> list[Any] | None:
    """The terminal's settings now; None without a terminal (or with one hung up)."""
    try:
        import termios

        stdin = sys.__stdin__
        return termios.tcgetattr(stdin.fileno()) if stdin is not None and stdin.isatty() else None
    except Exception:  # (termios.error is no OSError: a terminal hung up raises it)
        return None


def keep_early_keys() -> None:
    global _found, _owner
    found = attributes_now()
    if found is None or _found is not None:
        return
    import termios

    if set_attributes([found[0] & ~termios.IXON, *found[1:]]):
        _found, _owner = found, os.getpid()
        if _in_main_thread():
            for signum in (signal.SIGTERM, signal.SIGHUP):  # (SIGINT ends through the cli's finally)
                signal.signal(signum, _end)


def found_attributes(otherwise: list[Any] | None) -> list[Any] | None:
    """The settings to put back at the end: those the command found, where it changed them."""
    return _found if _found is not None else otherwise


def put_back() -> None:
    """Flow control as the command found it (the other settings as they are now: a user's `stty`
    meanwhile stays); nothing where keep_early_keys changed nothing."""
    now = attributes_now()
    if _found is None or now is None or os.getpid() != _owner:
        return
    import termios

    set_attributes([(now[0] & ~termios.IXON) | (_found[0] & termios.IXON), *now[1:]])


def set_attributes(attributes: list[Any]) -> bool:
    try:
        import termios

        if sys.__stdin__ is None:
            return False
        termios.tcsetattr(sys.__stdin__.fileno(), termios.TCSANOW, attributes)
        return True
    except Exception:  # (termios.error is no OSError: the terminal may be gone)
        return False


def _in_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _end(signum: int, _frame: FrameType | None) -> None:
    """SIGTERM or SIGHUP before the app runs: the default end, flow control put back first."""
    put_back()
    os._exit(128 + signum)
