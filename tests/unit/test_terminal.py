"""The terminal settings an interactive command changes before Textual runs (tui/terminal.py),
on a real pseudo-terminal."""

from __future__ import annotations

import os
import pty
import signal
import sys
import termios
from collections.abc import Iterator

import pytest

from tui import terminal


@pytest.fixture
def tty(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A pseudo-terminal as the process's standard input; the module's state and the signal
    handlers as they were, after."""
    leader, follower = pty.openpty()
    stdin = os.fdopen(follower, "r")
    monkeypatch.setattr(sys, "__stdin__", stdin)
    monkeypatch.setattr(terminal, "_found", None)
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    yield follower
    for signum, handler in handlers.items():
        signal.signal(signum, handler)
    stdin.close()
    os.close(leader)


def flags(descriptor: int) -> tuple[int, int]:
    iflag, _oflag, _cflag, lflag, *_ = termios.tcgetattr(descriptor)
    return iflag, lflag


def test_flow_control_is_off_until_put_back(tty: int) -> None:
    assert flags(tty)[0] & termios.IXON
    terminal.keep_early_keys()
    assert not flags(tty)[0] & termios.IXON
    assert signal.getsignal(signal.SIGTERM) is terminal._end
    changed = termios.tcgetattr(tty)
    changed[3] &= ~termios.ECHO  # (a user's stty while the app ran: it stays)
    termios.tcsetattr(tty, termios.TCSANOW, changed)
    terminal.put_back()
    iflag, lflag = flags(tty)
    assert iflag & termios.IXON and not lflag & termios.ECHO
    assert terminal.found_attributes(None) is not None  # (what the signal path puts back whole)


def test_nothing_changes_without_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terminal, "_found", None)
    read, write = os.pipe()
    with os.fdopen(read) as stdin:
        monkeypatch.setattr(sys, "__stdin__", stdin)
        terminal.keep_early_keys()
        terminal.put_back()
        assert terminal.found_attributes(None) is None
    os.close(write)
