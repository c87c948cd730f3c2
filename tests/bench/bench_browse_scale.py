"""Benchmark: `vitis-tui browse` on 100,000 records (and 1,000,000 with --million) in a real
terminal (tmux), each figure printed beside its baseline measured in the same run.

For each file: a bare `json.loads` of every line (and `orjson.loads` where installed), then the
installed `vitis-tui browse` in a tmux pane of its own: the time to the first screen (beside
that of a bare Textual app showing one line, its floor) and to "N of N records" (read off the
screen every 20 ms), a filter over all records (the query typed, then its last key alone) and a
sort and a mark of every record (from the key sent until the count, the arrow or the marks
show), the time `q` takes to end the program, and the peak memory (VmHWM) of the process.
Nothing here asserts a time: it prints.

    python tests/bench/bench_browse_scale.py [--records 100000] [--million] [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tests.bench.bench_browse import make_file  # noqa: E402

QUERY = "type:hls_synth lut<30000"


class Pane:
    def __init__(self) -> None:
        """A pane whose shell is ready: its start-up is no part of what is timed after."""
        self.name = f"vtb-{uuid.uuid4().hex[:8]}"
        self.tmux = ["tmux", "-L", self.name]
        subprocess.run([*self.tmux, "new-session", "-d", "-s", self.name, "-x", "200", "-y", "50"], check=True)
        until(lambda: self.screen().strip() != "", 10)  # (the prompt)

    def start(self, command: str) -> float:
        """Run `command` in place of the shell; when it was sent."""
        sent = time.monotonic()
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, f"exec {command}", "Enter"], check=True)
        return sent

    def screen(self) -> str:
        done = subprocess.run([*self.tmux, "capture-pane", "-p", "-J", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


def until(condition: Callable[[], bool], timeout: float) -> float | None:
    """Seconds until `condition` holds (looked at every 10 ms), None past `timeout`."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(0.01)
    return None


def baselines(path: str) -> dict[str, float]:
    with open(path, "rb") as handle:
        lines = handle.readlines()
    found = {}
    start = time.perf_counter()
    for line in lines:
        json.loads(line)
    found["json.loads"] = time.perf_counter() - start
    try:
        import orjson
    except ImportError:
        return found
    start = time.perf_counter()
    for line in lines:
        orjson.loads(line)
    found["orjson.loads"] = time.perf_counter() - start
    return found


# The first screen's floor: a Textual app that shows one line and does nothing else
BARE_APP = """from textual.app import App
from textual.widgets import Static


class Bare(App):
    def compose(self):
        yield Static("bare textual app shown")


Bare().run()
"""


def bare_textual_first_screen() -> float | None:
    """Seconds from start to the first screen of BARE_APP, in a pane as browse's is measured."""
    with tempfile.TemporaryDirectory() as folder:
        script = os.path.join(folder, "bare_app.py")
        Path(script).write_text(BARE_APP)
        pane = Pane()
        try:
            started = pane.start(f"{sys.executable} {script}")
            shown = until(lambda: "bare textual app shown" in pane.screen(), 30)
            return None if shown is None else time.monotonic() - started
        finally:
            pane.close()


def browse_pid(path: str) -> int:
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if entry.name.isdigit() and command[-2:] == [path.encode(), b""] and b"browse" in command:
            return int(entry.name)
    return 0


def ended(pid: int) -> bool:
    """Gone, or a zombie (its parent, tmux, has not reaped it yet: it has ended all the same)."""
    try:
        return "State:\tZ" in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def count_shown(pane: Pane) -> tuple[int, int] | None:
    found = re.search(r"(\d+) of (\d+) records", pane.screen())
    return (int(found.group(1)), int(found.group(2))) if found else None


def one_key_filter(pane: Pane) -> float | None:
    """With the query typed: its last key taken back, then typed again, timed from the key sent
    until the count is the query's again (each key filters every record)."""
    matched = (count_shown(pane) or (0, 0))[0]
    pane.keys("/")
    time.sleep(0.5)
    pane.keys("End", "BSpace")  # (the box selects its whole text as it takes the focus)
    if until(lambda: (count_shown(pane) or (0, 0))[0] != matched, 10) is None:
        return None  # (the shorter query matches as many: nothing to time)
    time.sleep(0.5)
    pane.keys(QUERY[-1])
    return until(lambda: (count_shown(pane) or (0, 0))[0] == matched, 10)


def drive(path: str, records: int, command: str) -> dict[str, float | None]:
    figures: dict[str, float | None] = {}
    pane = Pane()
    try:
        started = pane.start(f"{command} browse {path}")
        shown = until(lambda: count_shown(pane) is not None, 60)
        figures["first screen"] = None if shown is None else time.monotonic() - started
        whole = until(lambda: count_shown(pane) == (records, records), 600)
        figures["all records shown"] = None if whole is None else time.monotonic() - started
        pid = browse_pid(path)
        time.sleep(1)  # the first keys after the load: not behind the last repaint
        pane.keys("/")
        time.sleep(0.5)  # the filter box takes the keys once it has the focus
        pane.keys(QUERY, "Enter")
        filtered = until(lambda: (count_shown(pane) or (0, 0))[0] not in (0, records), 30)
        figures["filter typed (24 keys, each filtering all)"] = filtered
        figures["one key filtering all"] = one_key_filter(pane)
        pane.keys("Escape")
        time.sleep(0.5)
        pane.keys("s")
        figures["sort over all"] = until(lambda: "▲" in pane.screen(), 30)
        pane.keys("/")
        time.sleep(0.5)
        pane.keys("C-u", "Enter")  # (no filter: every record shown)
        until(lambda: count_shown(pane) == (records, records), 30)
        time.sleep(0.5)
        pane.keys("a")
        figures["mark all shown"] = until(lambda: f"│ {records} marked" in pane.screen(), 30)
        figures["peak memory MB"] = peak_mb(pid) if pid else None
        pane.keys("q")
        figures["q to exit"] = until(lambda: ended(pid), 30)
    finally:
        pane.close()
    return figures


def report(records: int, path: str, command: str) -> None:
    size = os.path.getsize(path) / 1e6
    print(f"\n{records:,} records, {size:.0f} MB ({size * 1e6 / records:.0f} bytes a line)")
    floor = baselines(path)
    for name, seconds in floor.items():
        print(f"  baseline {name} of every line: {seconds:.2f} s")
    bare = bare_textual_first_screen()
    print(f"  baseline first screen of a bare Textual app: {'not reached' if bare is None else f'{bare:.2f} s'}")
    for name, value in drive(path, records, command).items():
        if value is None:
            print(f"  {name}: not reached")
        elif name.endswith("MB"):
            print(f"  {name}: {value:.0f}")
        else:
            ratio = f" ({value / floor['json.loads']:.2f}x json.loads)" if name == "all records shown" else ""
            print(f"  {name}: {value:.2f} s{ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--million", action="store_true", help="also 1,000,000 records (about 650 MB)")
    parser.add_argument("--dir", help="where to write the files (default: a temporary folder, removed)")
    args = parser.parse_args()
    command = shutil.which("vitis-tui", path=os.path.dirname(sys.executable)) or shutil.which("vitis-tui")
    if command is None or shutil.which("tmux") is None:
        print("not measured: needs tmux and the installed vitis-tui (pip install .)")
        return
    folder = args.dir or tempfile.mkdtemp(prefix="vitis-bench-")
    try:
        for records in [args.records] + ([1_000_000] if args.million else []):
            path = os.path.join(folder, f"records-{records}.jsonl")
            if not os.path.exists(path):
                make_file(path, records)
            report(records, path, command)
    finally:
        if not args.dir:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
