"""What the real-terminal tests share: the installed command, a tmux session per test, /proc."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

NEEDS_TMUX = pytest.mark.skipif(
    shutil.which("tmux") is None and not os.environ.get("CI"), reason="tmux not installed (CI installs it)"
)


def _cmdline(process: Path) -> str:
    try:
        return (process / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])  # (the name before it may hold spaces)


def installed_command() -> str:
    script = Path(sys.executable).parent / "vitis-tui"
    found = str(script) if script.exists() else shutil.which("vitis-tui")
    assert found, "vitis-tui is not installed (pip install .)"
    return found


class Tmux:
    def __init__(self, command: str, cwd: Path) -> None:
        self.name = f"vt-{uuid.uuid4().hex[:8]}"
        self.tmux = ["tmux", "-L", self.name]  # a server of its own: no race with another test's shutdown
        # The size is set before the command starts, so the app sees 160x48 from its first frame.
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-s", self.name, "-x", "160", "-y", "48", "-c", str(cwd)], check=True
        )
        subprocess.run([*self.tmux, "set-option", "-t", self.name, "window-size", "manual"], check=True)
        subprocess.run([*self.tmux, "resize-window", "-t", self.name, "-x", "160", "-y", "48"], check=True)
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, f"{command}; echo EXIT=[$?]", "Enter"], check=True)

    def screen(self) -> str:
        return subprocess.run(
            [*self.tmux, "capture-pane", "-p", "-J", "-t", self.name], capture_output=True, text=True, check=True
        ).stdout

    def wait_for(self, text: str, timeout: float = 60) -> str:
        return self.wait_match(re.escape(text), timeout)

    def wait_match(self, pattern: str, timeout: float = 60) -> str:
        """The screen once `pattern` (a regular expression) is found on it: a table's rows come a
        frame after its title, on a busy machine seconds after."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if re.search(pattern, screen):
                return screen
            time.sleep(0.1)  # polling a condition, bounded by the deadline
        raise AssertionError(f"{pattern!r} never appeared; screen:\n{self.screen()}")

    def wait_exit(self, timeout: float = 60) -> tuple[int, str]:
        """Wait for the command to end; its exit status and the screen."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            found = re.search(r"EXIT=\[(\d+)\]", screen)  # not the typed "EXIT=[$?]"
            if found:
                return int(found.group(1)), screen
            time.sleep(0.1)  # polling a condition, bounded by the deadline
        raise AssertionError(f"the command never ended; screen:\n{self.screen()}")

    def keys(self, key: str, delay: float = 0.15) -> None:
        """Send one key; wait a little after it (tmux needs over 100 ms to tell Escape from Alt)."""
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, key], check=True)
        time.sleep(delay)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


@pytest.fixture
def tmux_session():
    sessions: list[Tmux] = []

    def start(command: str, cwd: Path) -> Tmux:
        sessions.append(Tmux(command, cwd))
        return sessions[-1]

    yield start
    for session in sessions:
        session.close()
