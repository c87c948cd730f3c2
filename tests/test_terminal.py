"""Real-terminal tests: the installed `vitis-tui` commands run inside tmux, screens read back."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from . import trees

EXPECTED = Path(__file__).parent / "data" / "expected_tree.jsonl"
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None and not os.environ.get("CI"),
                                reason="tmux not installed (CI installs it)")


def installed_command() -> str:
    script = Path(sys.executable).parent / "vitis-tui"
    found = str(script) if script.exists() else shutil.which("vitis-tui")
    assert found, "vitis-tui is not installed (pip install .)"
    return found


class Tmux:
    def __init__(self, command: str, cwd: Path) -> None:
        self.name = f"vt-{uuid.uuid4().hex[:8]}"
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", "160", "-y", "48", "-c", str(cwd),
                        f"{command}; echo EXIT=$?; sleep 600"], check=True)

    def screen(self) -> str:
        return subprocess.run(["tmux", "capture-pane", "-p", "-J", "-t", self.name], capture_output=True,
                              text=True, check=True).stdout

    def wait_for(self, text: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)  # polling a condition, bounded by the deadline
        raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def tmux_session():
    sessions: list[Tmux] = []

    def start(command: str, cwd: Path) -> Tmux:
        sessions.append(Tmux(command, cwd))
        return sessions[-1]

    yield start
    for session in sessions:
        session.close()


def test_collect_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    session = tmux_session(f"{installed_command()} collect {root}", tmp_path)
    screen = session.wait_for("EXIT=")
    assert "EXIT=0" in screen
    assert "7 projects, 8 runs, 11 records (5 hls_synth, 4 rtl_sim, 2 sw_run), 0 problems" in screen
    assert (tmp_path / "results.jsonl").read_bytes() == EXPECTED.read_bytes()  # default output in cwd


def test_validate_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(EXPECTED.read_text().splitlines()[0] + "\n{not json\n")
    session = tmux_session(f"{installed_command()} validate {bad} {EXPECTED}", tmp_path)
    screen = session.wait_for("EXIT=")
    assert f"{bad}:2: invalid JSON at column 2: Expecting property name enclosed in double quotes" in screen
    assert f"{bad}: 2 lines, 1 valid, 1 invalid" in screen
    assert f"{EXPECTED}: 11 lines, 11 valid, 0 invalid" in screen
    assert "EXIT=1" in screen


def test_demo_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    session = tmux_session(f"{installed_command()} demo {tmp_path / 'demo'} -o {tmp_path / 'demo.jsonl'}", tmp_path)
    screen = session.wait_for("EXIT=")
    assert "EXIT=0" in screen and "12 projects, 16 runs, 28 records" in screen
    done = subprocess.run([installed_command(), "validate", str(tmp_path / "demo.jsonl")], capture_output=True,
                          text=True)
    assert done.returncode == 0 and "28 lines, 28 valid, 0 invalid" in done.stdout
