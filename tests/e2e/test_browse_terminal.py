"""Browse in a real terminal (tmux, the installed `vitis-tui`): a file replaced 60 times under
CPU contention, quitting at any moment, a hang-up, a writer faster than the screen."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..conftest import EXPECTED_TREE as EXPECTED
from ..conftest import cores_kept_busy, until
from .conftest import NEEDS_TMUX, _cmdline, _parent, installed_command

pytestmark = NEEDS_TMUX

LINES = EXPECTED.read_text().splitlines()
SYNTH = next(line for line in LINES if '"report_type":"hls_synth"' in line and '"LUT":"19589"' in line)


def records(count: int, lut: int = 21772) -> str:
    out = []
    for n in range(count):
        record = json.loads(SYNTH)
        record["implementation"]["variant"]["index"] = n
        record["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] = str(lut)
        out.append(json.dumps(record) + "\n")
    return "".join(out)


@pytest.fixture
def busy():
    with cores_kept_busy():
        yield


def browse_pid(path: Path) -> int:
    found: list[int] = []

    def started() -> bool:
        found[:] = [
            int(entry.name)
            for entry in Path("/proc").iterdir()
            if entry.name.isdigit() and _cmdline(entry).endswith(f"vitis-tui browse {path}")
        ]
        return bool(found)

    assert until(started)
    return found[0]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_sixty_atomic_replacements_under_load_converge_then_rest(tmp_path: Path, tmux_session, busy) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(records(2000))
    session = tmux_session(f"{installed_command()} browse {path}", tmp_path)
    session.wait_for("2000 of 2000 records")
    other = tmp_path / "f.tmp"
    for n in range(60):
        other.write_text(records(1940 if n == 59 else 500 + 25 * n, lut=n))
        other.replace(path)
        last = time.monotonic()
        time.sleep(0.1)
    screen = session.wait_for("1940 of 1940 records", timeout=30)
    print(f"1,940 records shown {time.monotonic() - last:.2f} s after the last replacement")
    assert "following for changes" in screen and "loading" not in screen
    pid = browse_pid(path)
    before = cpu_seconds(pid)
    time.sleep(3)
    assert cpu_seconds(pid) - before < 0.5  # at rest: a stat a second (it burnt a core before)
    session.keys("q")
    assert session.wait_exit()[0] == 0


def test_an_in_place_rewrite_that_grows_shows_its_values(tmp_path: Path, tmux_session) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(records(3))
    session = tmux_session(f"{installed_command()} browse {path}", tmp_path)
    session.wait_for("3 of 3 records")
    assert "21772" in session.screen()
    with path.open("w") as out:  # the shell's `>`: the same inode, truncated, written again
        out.write(records(5, lut=99999))
    screen = session.wait_for("5 of 5 records", timeout=15)
    assert "99999" in screen and "21772" not in screen
    session.keys("q")
    assert session.wait_exit()[0] == 0


def held_files(pid: int) -> set[str]:
    """What a process holds in /dev/shm or the temporary folder: mapped (a semaphore) or open.
    (Other programs on the machine make files there too: only this process's are looked at.)"""
    import tempfile

    folders = ("/dev/shm/", tempfile.gettempdir() + "/")
    held = set()
    try:
        held |= {line.split()[-1] for line in Path(f"/proc/{pid}/maps").read_text().splitlines()}
        held |= {os.readlink(fd) for fd in Path(f"/proc/{pid}/fd").iterdir()}
    except OSError:
        pass
    # (the program's own files are not what it left: a checkout or venv may sit in /tmp, as in CI)
    installed = (sys.prefix + "/", str(Path(__file__).resolve().parents[2]) + "/")
    return {path for path in held if path.startswith(folders) and not path.startswith(installed)}


def test_a_hang_up_leaves_nothing_behind(tmp_path: Path, tmux_session) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(records(3000))
    session = tmux_session(f"{installed_command()} browse {path}", tmp_path)
    session.wait_for("3000 of 3000 records")
    pid = browse_pid(path)
    family = [pid] + children_of(pid)
    held = set().union(*map(held_files, family))
    os.kill(pid, signal.SIGHUP)
    assert until(lambda: not any(Path(f"/proc/{p}").exists() for p in family), 5)
    left = {p for p in held if os.path.exists(p)} - {str(path)}  # (the file browsed is the user's)
    assert not left  # (a multiprocessing pool left its semaphores)


def test_a_hang_up_during_a_load_ends_the_children_that_prepare_it(tmp_path: Path, tmux_session) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(records(60000))  # (60 MB: its pieces go to child processes)
    session = tmux_session(f"{installed_command()} browse {path}", tmp_path)
    pid = browse_pid(path)
    session.wait_for("records")
    children: list[int] = []
    assert until(lambda: bool(children.extend(children_of(pid)) or children), 10)
    os.kill(pid, signal.SIGHUP)
    assert until(lambda: not any(Path(f"/proc/{p}").exists() for p in [pid, *children]), 5)


def children_of(pid: int) -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _parent(int(p.name)) == pid]


def test_q_right_after_a_load_ends_browse_while_the_check_runs(tmp_path: Path, tmux_session) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(records(30000))
    session = tmux_session(f"{installed_command()} browse {path}", tmp_path)
    session.wait_for("30000 of 30000 records", timeout=60)
    pid = browse_pid(path)
    pressed = time.monotonic()
    session.keys("q", delay=0)
    assert until(lambda: not Path(f"/proc/{pid}").exists(), 10)  # (14.6 s before: the check ran to its end)
    print(f"q after the load ended browse in {time.monotonic() - pressed:.2f} s")
    assert session.wait_exit()[0] == 0


@pytest.mark.parametrize(("key", "moment"), [("q", 0.0), ("q", 0.3), ("q", 1.0), ("C-c", 0.3), ("C-q", 0.3)])
def test_q_ends_browse_at_any_moment_of_a_load(tmp_path: Path, tmux_session, key: str, moment: float) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(records(20000))
    session = tmux_session(f"{installed_command()} browse {path}", tmp_path)
    pid = browse_pid(path)
    session.wait_for("records")
    time.sleep(moment)
    pressed = time.monotonic()
    session.keys(key, delay=0)
    assert until(lambda: not Path(f"/proc/{pid}").exists(), 10)  # (it took 14.6 s after a load)
    took = time.monotonic() - pressed
    assert session.wait_exit()[0] == 0
    print(f"{key} at {moment} s ended browse in {took:.2f} s")


@pytest.mark.parametrize("key", ["q", "C-q"])
def test_a_key_typed_while_browse_starts_ends_it(tmp_path: Path, tmux_session, key: str) -> None:
    """A key typed before the app has the terminal waits in it, and comes first: a `q` went to the
    filter box, focused until the view took the focus once mounted (a filter matching nothing,
    and browse stayed); a ctrl+q was the terminal's flow control, taken by the kernel. The
    terminal's flow control is on again afterwards."""
    path = tmp_path / "f.jsonl"
    path.write_text(records(50))
    flow = "echo FLOW=$(stty -a | tr ' ' '\\n' | grep -x -- '-*ixon\\|-*icanon\\|-*echo' | tr '\\n' ,)"
    session = tmux_session(f"{installed_command()} browse {path}; code=$?; {flow}; (exit $code)", tmp_path)
    browse_pid(path)  # (started: its interpreter is still importing)
    if key == "C-q":  # (typed before browse runs its first lines, it is the kernel's still)
        tty = subprocess.run([*session.tmux, "display", "-p", "#{pane_tty}"], capture_output=True, text=True)
        assert until(
            lambda: (
                "-ixon"
                in subprocess.run(["stty", "-F", tty.stdout.strip(), "-a"], capture_output=True, text=True).stdout
            )
        )
    session.keys(key, delay=0)
    code, screen = session.wait_exit(timeout=10)
    assert code == 0
    assert "FLOW=ixon,icanon,echo," in screen  # (read key by key, unechoed, before the app ran)


def test_keys_typed_while_browse_starts_reach_it_in_order(tmp_path: Path, tmux_session) -> None:
    """Keys typed before the app runs are read early (tui/terminal.py EarlyKeys) and handed to the
    app in order: a filter typed at once filters, its `q` a letter of it, not the quit key."""
    path = tmp_path / "f.jsonl"
    path.write_text(records(50))
    session = tmux_session(f"{installed_command()} browse {path}", tmp_path)
    browse_pid(path)
    for key in ["/", "q", "z", "z"]:
        session.keys(key, delay=0)
    session.wait_for("0 of 50 records")
    session.keys("Escape", delay=0.3)
    session.keys("q", delay=0)
    assert session.wait_exit(timeout=10)[0] == 0


WRITER = """
import sys, time
line = open(sys.argv[2]).readline()
block = line * (1_000_000 // len(line) + 1)  # about 1 MB
start = time.monotonic()
with open(sys.argv[1], "a") as out:
    for n in range(int(sys.argv[3])):
        out.write(block)
        out.flush()
        time.sleep(max(0.0, start + (n + 1) / 10 - time.monotonic()))  # 10 MB a second
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_a_file_appended_to_at_ten_mb_a_second_is_shown_at_its_latest_state(tmp_path: Path, tmux_session) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(records(100))
    one = tmp_path / "one.jsonl"
    one.write_text(records(1))
    session = tmux_session(f"{installed_command()} browse {path}", tmp_path)
    session.wait_for("100 of 100 records")
    pid = browse_pid(path)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(one), "150"])  # 15 s, 150 MB
    try:
        time.sleep(5)
        session.keys("?", delay=0)
        asked = time.monotonic()
        session.wait_for("vitis-tui keys", timeout=10)
        print(f"help shown {time.monotonic() - asked:.2f} s after `?` while the file grew at 10 MB/s")
        session.keys("Escape", delay=0.3)
    finally:
        writer.wait()
    lines = sum(1 for _ in path.open("rb"))

    def latest() -> bool:  # the records shown and the lines skipped make the whole file
        found = re.search(r"(\d+) records from 1 file.*skipped lines 1-(\d+) ", session.screen().replace("\n", ""))
        return found is not None and int(found.group(1)) + int(found.group(2)) == lines

    assert until(latest, 30), session.screen()
    print(f"peak memory {rss_mb(pid):.0f} MB for a {path.stat().st_size / 1e6:.0f} MB file")
    assert rss_mb(pid) < 800  # (960 MB and growing before, the view 400,000 lines behind)
    session.keys("q")
    assert session.wait_exit()[0] == 0


def test_a_query_typed_at_once_after_the_slash_is_the_filter(tmp_path: Path, tmux_session) -> None:
    """`/` and the query sent in one go (as a paste or a fast typist does): all of it lands in the
    filter box; none of its letters reaches the records view (where `s` sorts and `a` marks)."""
    path = tmp_path / "f.jsonl"
    small = [json.loads(line) for line in records(2, lut=5).splitlines()]
    for record in small:
        record["implementation"]["variant"]["index"] += 7  # (other records than the first three)
    path.write_text(records(3) + "".join(json.dumps(record) + "\n" for record in small))
    session = tmux_session(f"{installed_command()} browse {path}", tmp_path)
    session.wait_for("5 of 5 records")
    session.keys("/lut<100")
    screen = session.wait_for("2 of 5 records", timeout=15)
    assert "0 marked" in screen and "▲" not in screen and "▼" not in screen
    session.keys("Enter")
    session.keys("q")
    assert session.wait_exit()[0] == 0
