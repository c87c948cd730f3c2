"""SIGTERM, SIGHUP and SIGINT end `watch` and `browse` the way `q` does.

Python's default for SIGTERM and SIGHUP ends the process where it stands: the terminal stays in
the application's modes (no echo, no line editing, the alternate screen, mouse reporting, the
cursor hidden). Here the signal asks the app to exit through Textual's own shutdown, on its
event loop; if the loop does not get there within GRACE_SECONDS (it is stuck, or a second
signal comes, or the terminal hung up), the terminal is restored from here and the process
ends; the shutdown counts as done once the terminal's settings are back to those saved. Either
way the exit status is 128 + the signal's number, as a shell reports a process the signal
ended. A command calls `before_the_app()` just before `app.run()` (no loop to ask yet); each
app calls `exit_on_signals(self)` when mounted and `remove()` on the guard when unmounted.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
import weakref
from types import FrameType
from typing import Any

from tui.terminal import attributes_now, found_attributes, set_attributes

EXIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
GRACE_SECONDS = 5.0  # for the app's own shutdown, before the terminal is restored from here
# what Textual's driver turns on, turned off: mouse reporting, bracketed paste, focus events,
# the keyboard protocol, the alternate screen; the cursor shown and line wrapping on again
RESTORE_SEQUENCE = (
    "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l\x1b[?2004l\x1b[?2048l\x1b[?1004l"
    "\x1b[<u\x1b[?1049l\x1b[?25h\x1b[?7h"
)


def signal_status(signum: int) -> int:
    """The exit status a shell reports for a process ended by `signum`."""
    return 128 + signum


class SignalExit:
    """The handlers of one running app (see the module's docstring)."""

    def __init__(self, app: Any, attributes: list[Any] | None) -> None:
        self._app = weakref.ref(app)
        self._loop = asyncio.get_running_loop()
        self._attributes = attributes
        self._previous: dict[int, Any] = {}
        self._fallback: threading.Thread | None = None
        self.received: int | None = None

    def install(self) -> SignalExit:
        if threading.current_thread() is threading.main_thread():
            for signum in EXIT_SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def remove(self) -> None:
        """The app is shutting down on its own (`q`): the handlers end here. After a signal they
        stay (a second one ends the process at once), and so does the fallback."""
        if self.received is not None:
            return
        if threading.current_thread() is threading.main_thread():
            for signum, previous in self._previous.items():
                if signal.getsignal(signum) == self._handle:
                    signal.signal(signum, previous)
        self._previous.clear()

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        app = self._app()
        if self.received is not None or app is None or self._loop.is_closed():
            self._restore_and_end(signum)  # a second signal, or nothing left to ask
            return
        self.received = signum
        self._fallback = threading.Thread(target=self._watch_shutdown, args=(signum,), daemon=True)
        self._fallback.start()
        self._loop.call_soon_threadsafe(lambda: app.exit(return_code=signal_status(signum)))

    def _watch_shutdown(self, signum: int) -> None:
        """Wait for the app's own shutdown to give the terminal back; past the grace (or with no
        terminal left to give back: a hang-up, where writing to it can block the shutdown), end
        the process from here."""
        deadline = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < deadline:
            now = attributes_now()
            if now is not None and now in (self._attributes, found_attributes(None)):
                return  # Textual's driver put the terminal back (and the command its flow control)
            time.sleep(0.05)  # (a few checks a second, for a few seconds, once)
        self._restore_and_end(signum)

    def _restore_and_end(self, signum: int) -> None:
        """The app did not answer: put the terminal back as it was, then end."""
        restore_terminal(self._attributes)
        os._exit(signal_status(signum))


def restore_terminal(attributes: list[Any] | None) -> None:
    """Settings and modes back as they were (errors ignored: the terminal may be gone): as the
    command found them, where it changed them before the app (tui/terminal.py)."""
    attributes = found_attributes(attributes)
    if attributes is not None:
        set_attributes(attributes)
    try:
        if sys.__stderr__ is not None:  # (where Textual's driver writes)
            os.write(sys.__stderr__.fileno(), RESTORE_SEQUENCE.encode("ascii"))
    except (OSError, ValueError):
        pass


def before_the_app() -> None:
    """Until the app is mounted (its loop is not there yet, and Textual may have changed the
    terminal already), a signal puts the terminal back as it is now and ends the process.
    Installed just before `app.run()`; the app's own handlers take over once it is mounted."""
    if threading.current_thread() is not threading.main_thread():
        return
    attributes = attributes_now()

    def end(signum: int, _frame: FrameType | None) -> None:
        restore_terminal(attributes)
        os._exit(signal_status(signum))

    for signum in EXIT_SIGNALS:
        signal.signal(signum, end)


def exit_on_signals(app: Any) -> SignalExit:
    """Install the handlers for `app` (from its on_mount, on the event loop's thread)."""
    driver = getattr(app, "_driver", None)
    attributes = getattr(driver, "attrs_before", None) or attributes_now()
    return SignalExit(app, attributes).install()


def exit_status(app: Any) -> int | None:
    """128 + the signal's number when a signal ended `app`, else None."""
    code = getattr(app, "return_code", None)
    return code if code in {signal_status(s) for s in EXIT_SIGNALS} else None
