"""SIGTERM, SIGHUP and SIGINT to `watch` and `browse` in a real terminal (tmux): the terminal is
left as it was (settings, main screen, mouse reporting off, cursor shown), the exit status is
128 + the signal, and the output is whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .. import trees
from ..conftest import EXPECTED_TREE as EXPECTED
from ..conftest import until
from .conftest import NEEDS_TMUX, _cmdline, _parent, installed_command

pytestmark = NEEDS_TMUX


def _running(pid: int) -> bool:
    """Whether `pid` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# tmux's view of the pane: each is "0" once the application's modes are off again
MODES = "#{alternate_on} #{mouse_any_flag} #{mouse_button_flag} #{mouse_standard_flag} #{mouse_sgr_flag}"


def _pane(session, fmt: str) -> str:
    return subprocess.run(
        [*session.tmux, "display-message", "-p", "-t", session.name, fmt], capture_output=True, text=True, check=True
    ).stdout.strip()


def _main_pid(tail: str) -> int:
    pids = {
        int(entry.name)
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit() and _cmdline(entry).endswith(tail) and "vitis-tui" in _cmdline(entry)
    }
    main = [pid for pid in pids if _parent(pid) not in pids]  # (workers are its children)
    assert len(main) == 1, pids
    return main[0]


def _after_exit(session, tmp_path: Path) -> tuple[int, str, str]:
    """The exit status, the terminal's settings then (stty -a), and tmux's modes of the pane."""
    status, _screen = session.wait_exit(timeout=30)
    session.keys(f"stty -a > {tmp_path / 'after.txt'}; echo STTY-$((40+2))", delay=0.05)
    session.keys("Enter")
    session.wait_for("STTY-42", timeout=10)
    return status, (tmp_path / "after.txt").read_text(), _pane(session, MODES)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_to_watch_leaves_the_terminal_as_it_was(tmp_path: Path, tmux_session, signum: int) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    out = tmp_path / "live.jsonl"
    command = f"{installed_command()} watch {root} -o {out}"
    session = tmux_session(f"stty -a > {tmp_path / 'before.txt'}; {command}", tmp_path)
    session.wait_for("11 records")
    session.wait_for("watch: inotify")
    assert _pane(session, "#{alternate_on} #{cursor_flag}") == "1 0"  # (in the app's modes now)
    os.kill(_main_pid(f"watch {root} -o {out}"), signum)
    status, after, modes = _after_exit(session, tmp_path)
    assert status == 128 + signum
    assert after == (tmp_path / "before.txt").read_text()  # echo, line editing, ... as they were
    assert modes == "0 0 0 0 0"
    assert _pane(session, "#{cursor_flag}") == "1"
    assert out.read_bytes() == EXPECTED.read_bytes()  # whole, and what collect writes


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_browse_leaves_the_terminal_as_it_was(tmp_path: Path, tmux_session, signum: int) -> None:
    session = tmux_session(f"stty -a > {tmp_path / 'before.txt'}; {installed_command()} browse {EXPECTED}", tmp_path)
    session.wait_for("11 of 11 records")
    os.kill(_main_pid(f"browse {EXPECTED}"), signum)
    status, after, modes = _after_exit(session, tmp_path)
    assert status == 128 + signum
    assert after == (tmp_path / "before.txt").read_text()
    assert modes == "0 0 0 0 0"


def test_a_hang_up_ends_watch_with_its_output_whole(tmp_path: Path, tmux_session) -> None:
    """The terminal closed (its window killed): watch ends, its workers too, the output whole."""
    root = trees.build_all(tmp_path / "rodinia-hls")
    out = tmp_path / "live.jsonl"
    session = tmux_session(f"{installed_command()} watch {root} -o {out}", tmp_path)
    session.wait_for("11 records")
    main = _main_pid(f"watch {root} -o {out}")
    workers = {int(e.name) for e in Path("/proc").iterdir() if e.name.isdigit() and _parent(int(e.name)) == main}
    session.close()  # (the server goes, and with it the pane: the shell and watch get SIGHUP)
    family = {main, *workers}
    assert until(lambda: not any(_running(pid) for pid in family), seconds=15), [
        (pid, _cmdline(Path(f"/proc/{pid}")), Path(f"/proc/{pid}/stat").read_text()[:60])
        for pid in family
        if _running(pid)
    ]
    assert out.read_bytes() == EXPECTED.read_bytes()


def test_a_signal_before_the_app_is_mounted_restores_the_terminal_and_ends() -> None:
    """(tui.signals.before_the_app) no loop to ask yet: the terminal is put back from the
    handler, and the process ends with 128 + the signal."""
    script = (
        "import os, signal, time\n"
        "from tui.signals import before_the_app\n"
        "before_the_app()\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "time.sleep(10)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, timeout=30, cwd=Path(__file__).resolve().parents[2]
    )
    assert done.returncode == 143
    assert b"\x1b[?1049l\x1b[?25h" in done.stderr  # the main screen and the cursor, back


def test_an_app_whose_loop_does_not_answer_is_ended_after_the_grace() -> None:
    """The loop is stuck (here: asleep in a callback): past the grace the terminal is put back
    from the handler's thread, and the process ends with 128 + the signal."""
    script = (
        "import asyncio, os, signal, time\n"
        "from tui import signals\n"
        "signals.GRACE_SECONDS = 0.5\n"
        "class App:\n"
        "    is_running = True\n"
        "    def exit(self, return_code):\n"
        "        print('asked', flush=True)\n"
        "async def main():\n"
        "    app = App()\n"
        "    signals.exit_on_signals(app)\n"
        "    os.kill(os.getpid(), signal.SIGHUP)\n"
        "    time.sleep(20)\n"
        "asyncio.run(main())\n"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, timeout=30, cwd=Path(__file__).resolve().parents[2]
    )
    assert done.returncode == 129 and time.monotonic() - started < 10
    assert b"asked" not in done.stdout  # (the loop never ran the exit)
    assert b"\x1b[?1049l\x1b[?25h" in done.stderr


def test_watch_writes_again_an_output_removed_behind_its_back(tmp_path: Path, tmux_session) -> None:
    """(not a signal, but the same real terminal) the status bar says what happened."""
    root = trees.build_all(tmp_path / "rodinia-hls")
    out = tmp_path / "live.jsonl"
    session = tmux_session(f"{installed_command()} watch {root} -o {out}", tmp_path)
    session.wait_for("11 records")
    out.unlink()
    session.wait_for("was removed or replaced by another program", timeout=10)
    assert until(lambda: out.exists() and out.read_bytes() == EXPECTED.read_bytes(), seconds=10)
    session.keys("q")
    assert session.wait_exit()[0] == 0
