"""The terminal settings an interactive command changes before Textual runs (tui/terminal.py),
on a real pseudo-terminal."""

from __future__ import annotations

import os
import pty
import signal
import sys
import termios
import threading
from collections.abc import Iterator

import pytest

from tui import terminal

from ..conftest import until


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


def test_browse_reads_keys_early_and_puts_line_editing_back(tty: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """keep_early_keys(quit_early=True): key by key, no echo, a reader of its own until the app's
    driver takes what it read; put_back gives line editing and echo back."""
    monkeypatch.setattr(terminal, "_early", None)
    terminal.keep_early_keys(quit_early=True)
    assert not flags(tty)[1] & (termios.ICANON | termios.ECHO) and terminal._early is not None
    assert terminal.take_early_keys() == b"" and terminal._early is None
    terminal.put_back()
    iflag, lflag = flags(tty)
    assert iflag & termios.IXON and lflag & termios.ICANON and lflag & termios.ECHO


@pytest.fixture
def keys_typed() -> Iterator[tuple[int, int]]:
    """A pseudo-terminal read key by key: (what the user types into, what the reader reads)."""
    leader, follower = pty.openpty()
    attributes = termios.tcgetattr(follower)
    attributes[0] &= ~termios.IXON  # (as keep_early_keys leaves it: ctrl+q is a key)
    attributes[3] &= ~(termios.ICANON | termios.ECHO)
    termios.tcsetattr(follower, termios.TCSANOW, attributes)
    yield leader, follower
    os.close(leader)
    os.close(follower)


@pytest.mark.parametrize("typed", [b"q", b"\x11", b"qq"])
def test_a_quit_key_typed_first_ends_it_at_once(typed: bytes, keys_typed: tuple[int, int]) -> None:
    leader, follower = keys_typed
    quit = threading.Event()
    early = terminal.EarlyKeys(follower, quit.set)
    os.write(leader, typed)
    assert quit.wait(5)
    early.take()


def test_other_keys_go_to_the_app_in_order(keys_typed: tuple[int, int]) -> None:
    """A key other than q first: nothing ends, and everything read is handed over (a q after it
    is the app's: a filter's letter)."""
    leader, follower = keys_typed
    quit = threading.Event()
    early = terminal.EarlyKeys(follower, quit.set)
    os.write(leader, b"/q")
    assert until(lambda: early.read == b"/q", 5)
    os.write(leader, b"q")
    assert until(lambda: early.read == b"/qq", 5)
    assert early.take() == b"/qq" and not quit.is_set()
    os.write(leader, b"x")  # (the app's driver reads from now on)
    assert os.read(follower, 10) == b"x" and early.read == b"/qq"
