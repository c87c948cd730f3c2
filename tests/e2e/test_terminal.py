"""Real-terminal tests: the installed `vitis-tui` commands run inside tmux, screens read back."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

from .. import trees
from ..conftest import EXPECTED_TREE as EXPECTED
from ..conftest import place, until
from .conftest import NEEDS_TMUX, _cmdline, _parent, installed_command

pytestmark = NEEDS_TMUX


def test_collect_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    session = tmux_session(f"{installed_command()} collect {root}", tmp_path)
    status, screen = session.wait_exit()
    assert status == 0
    assert "6 projects (and 1 not built), 8 runs, 11 records (5 hls_synth, 4 rtl_sim, 2 sw_run), 1 problem" in screen
    assert (tmp_path / "results.jsonl").read_bytes() == EXPECTED.read_bytes()  # default output in cwd


def test_validate_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(EXPECTED.read_text().splitlines()[0] + "\n{not json\n")
    session = tmux_session(f"{installed_command()} validate {bad} {EXPECTED}", tmp_path)
    status, screen = session.wait_exit()
    assert f"{bad}:2: invalid JSON at column 2: Expecting property name enclosed in double quotes" in screen
    assert f"{bad}: 2 lines, 1 valid, 1 invalid" in screen
    assert f"{EXPECTED}: 11 lines, 11 valid, 0 invalid" in screen
    assert status == 1


def test_export_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    """Filtered records as CSV on the terminal; a group name holding a terminal escape is
    shown escaped, and the count printed is the count written."""
    lines = EXPECTED.read_text().splitlines()
    hostile = json.loads(lines[0])
    hostile["problem"]["group_path"] = ["beam\x1b]2;pwned\x07form"]
    data = tmp_path / "in.jsonl"
    data.write_text("\n".join([json.dumps(hostile), *lines[1:]]) + "\n")
    command = f"{installed_command()} export {data} --filter 'type:sw_run' --format csv --columns group,type,status"
    session = tmux_session(command, tmp_path)
    status, screen = session.wait_exit()
    assert status == 0
    assert "beam\\x1b]2;pwned\\x07form" in screen  # escaped, the title of the pane untouched
    assert "2 of 11 records -> standard output" in screen


def test_headless_demo_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    session = tmux_session(
        f"{installed_command()} demo --headless {tmp_path / 'demo'} -o {tmp_path / 'demo.jsonl'}", tmp_path
    )
    status, screen = session.wait_exit()
    assert status == 0 and "18 projects, 27 runs, 44 records" in screen  # the benchmark tree and the AI arm
    done = subprocess.run(
        [installed_command(), "validate", str(tmp_path / "demo.jsonl")], capture_output=True, text=True
    )
    assert done.returncode == 0 and "44 lines, 44 valid, 0 invalid" in done.stdout


def test_watch_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    root = tmp_path / "suite"
    project = root / "Benchmarks/fft/fft_1_base"
    trees.sources(project, "run_hls.tcl", "fft.cpp")
    place(project, "proj/hls.app", text="<project/>\n")
    place(project, "proj/solution1/solution1.aps", text="<solution/>\n")
    out = tmp_path / "live.jsonl"
    session = tmux_session(f"{installed_command()} watch {root} -o {out}", tmp_path)
    session.wait_for("watch: inotify")  # (the watch is placed before the scan: its status comes first)
    session.wait_for("waiting")
    place(
        project,
        "proj/solution1/syn/report/csynth.xml",
        "SherlockChristie-FFT__FFT_sol_2__opt1__syn__report__csynth.xml",
    )
    session.wait_for("synth:pass")
    screen = session.wait_for("1 records")  # (the totals follow the row: a frame may fall between)
    assert "synth:pass" in screen and "15752" in screen
    assert json.loads(out.read_text())["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] == "15752"
    session.keys("?")
    session.wait_for("Command palette")
    session.keys("Escape", delay=0.3)
    # kill -9 at any moment leaves a valid file: the output is only ever replaced whole
    pids = {
        int(entry.name)
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit() and _cmdline(entry).endswith(f"vitis-tui watch {root} -o {out}")
    }
    main = [pid for pid in pids if _parent(pid) not in pids]  # (its workers are forks of it)
    assert len(main) == 1
    os.kill(main[0], 9)
    assert session.wait_exit()[0] == 137
    assert until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in pids), seconds=10)  # workers too
    done = subprocess.run([installed_command(), "validate", str(out)], capture_output=True, text=True)
    assert done.returncode == 0 and "1 lines, 1 valid, 0 invalid" in done.stdout


def test_interactive_demo_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    out = tmp_path / "demo.jsonl"
    session = tmux_session(f"{installed_command()} demo {tmp_path / 'demo'} -o {out} --pace 0.2", tmp_path)
    session.wait_for("synth:fail", timeout=90)
    # the AI arm's runs fill the runs panel: the timed-out run is found with the records filter
    session.keys("Tab")
    session.keys("/")
    for key in "status:timeout":
        session.keys(key, delay=0.02)
    session.keys("Enter")
    screen = session.wait_for("4_coales", timeout=90)  # pathfinder_4_coalescing: the run the runner gave up on
    assert "timeout" in screen.split("Records")[1] and "watch: inotify" in screen
    session.keys("c")  # the compare screen follows the records view's filter: the timed-out problem only
    screen = session.wait_for("filter status:timeout", timeout=30)
    assert "rodinia_hls/pathfinder" in screen and "demo_agent@v1" not in screen
    session.keys("Escape", delay=0.3)
    session.keys("/")  # the filter cleared: every record, the AI arm beside the benchmark
    session.keys("C-u", delay=0.1)
    session.keys("Enter")
    session.keys("c")
    session.wait_for("demo_agent@v1", timeout=30)
    session.keys("Escape", delay=0.3)
    session.keys("q")
    assert session.wait_exit()[0] == 0
    done = subprocess.run([installed_command(), "validate", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_browse_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    session = tmux_session(f"{installed_command()} browse {EXPECTED}", tmp_path)
    session.wait_for("11 of 11 records")
    session.keys("/")
    for key in "type:rtl_sim":
        session.keys(key, delay=0.02)
    session.keys("Enter")
    session.wait_for("4 of 11 records")
    session.keys("Space")
    session.keys("Space")
    session.wait_for("2 marked")
    session.keys("e")
    session.wait_for("Export 2 marked records")
    session.keys("C-u", delay=0.1)  # clear the path box, then type where to write
    for key in str(tmp_path / "two.jsonl"):
        session.keys(key, delay=0.01)
    session.keys("Enter")
    session.wait_for("wrote 2 marked records")
    session.keys("q")
    assert session.wait_exit()[0] == 0
    written = (tmp_path / "two.jsonl").read_text().splitlines()
    assert len(written) == 2 and all('"report_type":"rtl_sim"' in line for line in written)
    assert set(written) <= set(EXPECTED.read_text().splitlines())  # byte for byte


PRODUCERS = EXPECTED.parent / "producers" / "c2hls__u280_sonnet_vs_gold__first35.jsonl"


def test_compare_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    session = tmux_session(f"{installed_command()} compare {PRODUCERS}", tmp_path)
    status, screen = session.wait_exit()
    assert status == 0
    assert "metric csynth.worst (worst-case latency, cycles; lower is better: speedup = baseline / candidate)" in screen
    assert re.search(r"hlsfactory_polybench_float_small/2mm .*18\.7× .*22\.8×", screen)  # the table on a terminal
    geomeans = r"geomean \[95% CI\] \(n/N\) .*2\.24× \[0\.902-9\.59\] \(4/4\) .*5\.64× \[1\.29-24\.6\] \(4/4\)"
    assert re.search(geomeans, screen)


def test_compare_screen_in_browse(tmp_path: Path, tmux_session) -> None:
    session = tmux_session(f"{installed_command()} browse {PRODUCERS}", tmp_path)
    session.wait_for("35 of 35 records")
    session.keys("c")
    session.wait_for("4 problems, 4 with a baseline · 2 arms")
    session.wait_match(r"float_small/2mm .*18\.7× .*22\.8×", timeout=30)  # (its rows: a frame or more later)
    session.keys("m")
    session.wait_for("metric csynth.avg")
    session.keys("p")
    screen = session.wait_for("Pareto: problem hlsfactory_polybench_float_small/2mm")
    assert "on the front" in screen
    session.keys("Escape", delay=0.3)
    session.keys("Escape", delay=0.3)
    session.wait_for("35 of 35 records")
    session.keys("q")
    assert session.wait_exit()[0] == 0


def test_browse_with_no_color_copies_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    session = tmux_session(f"NO_COLOR=1 {installed_command()} browse {EXPECTED}", tmp_path)
    session.wait_for("11 of 11 records")
    session.keys("y")
    session.wait_for("copied 11 records shown as md")
    session.keys("q")
    assert session.wait_exit()[0] == 0


def test_browse_suspends_and_comes_back_in_a_terminal(tmp_path: Path, tmux_session) -> None:
    """ctrl+z gives the shell back with its terminal settings (echo on); `fg` draws the whole
    screen again (Textual would draw only what changed, over the shell's text)."""
    session = tmux_session(f"{installed_command()} browse {EXPECTED}", tmp_path)
    session.wait_for("11 of 11 records")
    session.keys("C-z")
    session.wait_for("Stopped")
    session.keys("stty -a | grep -c -- ' echo '", delay=0.02)
    session.keys("Enter")
    session.wait_for("\n1\n")  # (echo on: the shell's own settings are back)
    session.keys("fg", delay=0.02)
    session.keys("Enter")
    session.wait_for("11 of 11 records")
    session.keys("q")
    assert until(lambda: session.screen().rstrip().endswith("#"), seconds=30)  # the shell's prompt again
    session.keys("echo DONE=[$?]", delay=0.02)
    session.keys("Enter")
    assert "DONE=[0]" in session.wait_for("DONE=[0]")


def test_configuration_warnings_are_told_on_the_screen_too(tmp_path: Path, tmux_session) -> None:
    """Printed before the screen opens, they were covered by it: the apps tell them again."""
    config = tmp_path / "vitis-tui.toml"
    config.write_text('sutie = "x"\n')
    session = tmux_session(f"{installed_command()} browse --config {config} {EXPECTED}", tmp_path)
    session.wait_for("11 of 11 records")
    session.wait_for("sutie: unknown key, ignored")
    session.keys("q")
    assert session.wait_exit()[0] == 0
    root = tmp_path / "suite"
    project = root / "Benchmarks/fft/fft_1_base"
    trees.sources(project, "run_hls.tcl", "fft.cpp")
    (root / "vitis-tui.toml").write_text('origni = "x"\n')
    session = tmux_session(f"{installed_command()} watch {root} -o {tmp_path / 'live.jsonl'}", tmp_path)
    session.wait_for("origni: unknown key, ignored")
    session.keys("q")
    assert session.wait_exit()[0] == 0
