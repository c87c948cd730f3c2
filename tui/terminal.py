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
import select
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

_found: list[Any] | None = None  # the settings before keep_early_keys changed them
_owner = 0  # the process that changed them (a worker forked since must not touch the terminal)
_modes_changed = 0  # the local modes changed (line editing and echo, where keys are read early)


def attributes_now() -> list[Any] | None:
    """The terminal's settings now; None without a terminal (or with one hung up)."""
    try:
        import termios

        stdin = sys.__stdin__
        return termios.tcgetattr(stdin.fileno()) if stdin is not None and stdin.isatty() else None
    except Exception:  # (termios.error is no OSError: a terminal hung up raises it)
        return None


def keep_early_keys(quit_early: bool = False) -> None:
    """Flow control off; with `quit_early` (browse: nothing to leave whole before its app runs),
    the terminal reads key by key, without echo, and EarlyKeys reads it until the app does."""
    global _found, _owner, _early, _modes_changed
    found = attributes_now()
    if found is None or _found is not None:
        return
    import termios

    changed = [found[0] & ~termios.IXON, *found[1:]]
    if quit_early:
        changed[3] &= ~(termios.ICANON | termios.ECHO)  # (as the app would: each key as typed)
        changed[6] = list(changed[6])
        changed[6][termios.VMIN], changed[6][termios.VTIME] = 1, 0
    if set_attributes(changed):
        _found, _owner, _modes_changed = found, os.getpid(), found[3] ^ changed[3]
        if _in_main_thread():
            for signum in (signal.SIGTERM, signal.SIGHUP):  # (SIGINT ends through the cli's finally)
                signal.signal(signum, _end)
        if quit_early and sys.__stdin__ is not None:
            _early = EarlyKeys(sys.__stdin__.fileno(), _quit_now)


QUIT_KEYS = frozenset(b"q\x11")  # q and ctrl+q (ctrl+c is SIGINT: it ends the command as it is)
EARLY_WAIT_SECONDS = 0.02  # the reader looks whether it was told to stop this often


class EarlyKeys:
    """Reads a terminal from a thread of its own until `take` is called: `quit` is called where
    every key typed so far is a quit key; `take` gives what was read, to be handled in order."""

    def __init__(self, descriptor: int, quit: Callable[[], None]) -> None:
        self.descriptor = descriptor
        self.quit = quit
        self.read = b""
        self.stopped = False
        self._lock = threading.Lock()  # (a read is never under way when `take` returns)
        threading.Thread(target=self._run, name="early keys", daemon=True).start()

    def take(self) -> bytes:
        with self._lock:
            self.stopped = True
            return self.read

    def _run(self) -> None:
        try:
            while not self.stopped:
                ready, _, _ = select.select([self.descriptor], [], [], EARLY_WAIT_SECONDS)
                with self._lock:
                    if self.stopped or not ready:
                        continue
                    data = os.read(self.descriptor, 4096)
                    if not data:
                        return  # (the terminal hung up: the command's own reads say so)
                    self.read += data
                    if set(self.read) <= QUIT_KEYS:
                        self.quit()
        except (OSError, ValueError):
            return  # (the terminal is gone: nothing typed is left to keep)


_early: EarlyKeys | None = None


def take_early_keys() -> bytes:
    """The keys EarlyKeys read, and no more read by it: the app's driver reads from now on."""
    global _early
    early, _early = _early, None
    return b"" if early is None else early.take()


def _quit_now() -> None:
    """A quit key typed before the app ran: the terminal put back, the process ended (browse
    holds nothing to write; the children it started end with it)."""
    if _found is not None:
        set_attributes(_found)
    os._exit(0)


def found_attributes(otherwise: list[Any] | None) -> list[Any] | None:
    """The settings to put back at the end: those the command found, where it changed them."""
    return _found if _found is not None else otherwise


def put_back() -> None:
    """Flow control (and line editing and echo, where keys were read early) as the command found
    them (the other settings as they are now: a user's `stty` meanwhile stays); nothing where
    keep_early_keys changed nothing."""
    now = attributes_now()
    if _found is None or now is None or os.getpid() != _owner:
        return
    import termios

    modes = _modes_changed
    lflag = (now[3] & ~modes) | (_found[3] & modes)
    set_attributes([(now[0] & ~termios.IXON) | (_found[0] & termios.IXON), now[1], now[2], lflag, *now[4:]])


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
