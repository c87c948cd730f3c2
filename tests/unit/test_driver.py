"""tui/driver.py: the input thread stops when told, without waiting out a timeout."""

from __future__ import annotations

import os
import pty
import selectors
import threading
from typing import Any

from tui.driver import PromptDriver


def test_the_input_thread_stops_on_its_pipe_not_on_a_timeout(monkeypatch) -> None:
    """Textual's input thread noticed the app's end only at its next 0.1 s timeout, then waited
    0.1 s more: 0.2 s of every quit. Here every wait is given 5 s: what ends the thread is the
    pipe the driver writes when input is disabled (the last wait returns for it)."""
    waited = selectors.SelectSelector.select
    ready: list[list[int]] = []

    def long_wait(self: selectors.SelectSelector, timeout: Any = None) -> Any:
        found = waited(self, 5)
        ready.append([key.fd for key, _mask in found])
        return found

    monkeypatch.setattr(selectors.SelectSelector, "select", long_wait)
    master, terminal = pty.openpty()
    driver = PromptDriver.__new__(PromptDriver)  # (no app: only the input thread is tried)
    driver.fileno, driver._mouse, driver._debug = terminal, False, False
    driver.exit_event = threading.Event()
    driver._wake = os.pipe()
    wake_read = driver._wake[0]
    driver._key_thread = threading.Thread(target=driver.run_input_thread, daemon=True)
    driver._key_thread.start()
    try:
        driver.disable_input()
        assert not driver._key_thread.is_alive()
        assert wake_read in ready[-1]  # (woken by the pipe, not by the 5 s)
        assert driver._wake is None
    finally:
        os.close(master)
        os.close(terminal)
