"""Where the output may go, Ctrl-C, stale temporaries, `-o ''`."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from collectors.collect.engine import Engine
from collectors.records.store import write_atomic

from .. import trees
from ..conftest import until


@pytest.fixture
def root(tmp_path: Path) -> Path:
    trees.hls_two_solutions(tmp_path / "root")
    return tmp_path / "root"


def test_output_onto_a_fifo_is_refused_and_the_fifo_kept(tmp_path: Path, root: Path, cli) -> None:
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    ran = cli("collect", str(root), "-o", str(fifo))
    assert ran.code == 3
    assert ran.err == f"{fifo}: output not writable: not a regular file (a FIFO), refused, nothing replaced\n"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_output_onto_a_character_device_is_refused(tmp_path: Path, root: Path, cli) -> None:
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null of our own
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD (CI runs as root)")
    ran = cli("collect", str(root), "-o", str(device))
    assert ran.code == 3
    assert "not a regular file (a character device), refused, nothing replaced" in ran.err
    assert stat.S_ISCHR(os.stat(device).st_mode)


def test_output_onto_a_directory_is_refused(tmp_path: Path, root: Path, cli) -> None:
    ran = cli("collect", str(root), "-o", str(tmp_path))
    assert ran.code == 3
    assert ran.err == f"{tmp_path}: output not writable: not a regular file (a directory), refused, nothing replaced\n"


def test_write_atomic_refuses_a_fifo_created_after_the_check(tmp_path: Path) -> None:
    fifo = tmp_path / "late.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match=r"not a regular file \(a FIFO\)"):
        write_atomic(str(fifo), b"{}\n")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and os.listdir(tmp_path) == ["late.jsonl"]


def test_empty_output_name_is_a_clear_error_naming_no_temporary(root: Path, cli) -> None:
    ran = cli("collect", str(root), "-o", "")
    assert ran.code == 3
    assert ran.err == "'': output not writable: no file name given\n"


def test_stale_temporaries_of_our_own_naming_are_removed(tmp_path: Path, root: Path, cli) -> None:
    stale = tmp_path / ".vitis-tui-k9x2.tmp"  # what a kill -9 during a write leaves
    stale.write_text("half")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = tmp_path / ".vitis-tui-live.tmp"  # maybe another run writing right now: kept
    fresh.write_text("writing")
    other = tmp_path / ".other-tool.tmp"
    other.write_text("not ours")
    os.utime(other, (old, old))
    assert cli("collect", str(root), "-o", str(tmp_path / "out.jsonl")).code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other-tool.tmp", ".vitis-tui-live.tmp", "out.jsonl", "root"]


def test_ctrl_c_during_collect_exits_130_with_one_line_and_the_output_intact(
    tmp_path: Path, root: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("previous\n")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Engine, "scan", interrupted)
    ran = cli("collect", str(root), "-o", str(out))
    assert (ran.code, ran.err) == (130, "vitis-tui: interrupted (the output file was left whole)\n")
    assert out.read_text() == "previous\n"


def test_sigint_to_a_real_collect_process_group(tmp_path: Path) -> None:
    """The signal reaches the whole process group (the walk's worker too): no traceback anywhere."""
    root = tmp_path / "root"
    for n in range(40):  # enough subdirectories for the walk to be split between two processes
        trees.waiting_solution(root, f"g{n}", f"g{n}_1_x")
    script = textwrap.dedent(
        f"""
        import sys, time
        from collectors.collect import walk
        real = walk.parse_batch
        def slow(items):
            open({str(tmp_path / "inside")!r}, "w").close()  # a worker has its share
            time.sleep(60)  # the worker's half takes a while: time enough for Ctrl-C
            return real(items)
        walk.parse_batch = slow
        from tui.cli import main
        print("started", flush=True)
        sys.exit(main(["collect", {str(root)!r}, "-o", {str(tmp_path / "out.jsonl")!r}]))
        """
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "started\n"
    assert until(lambda: (tmp_path / "inside").exists(), seconds=30)  # inside the scan, a worker running
    os.killpg(process.pid, signal.SIGINT)
    _out, err = process.communicate(timeout=30)
    assert (process.returncode, err) == (130, "vitis-tui: interrupted (the output file was left whole)\n")
