"""Only regular files are read. A FIFO, a socket or a device named like a report is
a problem of its own, opened (if at all) without blocking; neither process of the walk hangs."""

from __future__ import annotations

import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from collectors.files import read_report
from collectors.problems import ArtifactError

from .. import trees
from ..conftest import EXPECTED_TREE as EXPECTED
from .conftest import records

CSYNTH = "proj/solution2/syn/report/csynth.xml"


def collect_in_subprocess(root: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """A hang must fail the test, not the suite: the command runs in its own process, with a limit."""
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", "collect", str(root), "-o", str(out), *extra],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_fifo_named_csynth_is_a_problem_and_collect_does_not_hang(tmp_path: Path) -> None:
    root = tmp_path / "root"
    project = trees.hls_two_solutions(root)
    trees.hw_emu_build(root)  # a second project: the walk is split between two processes
    report = project / CSYNTH
    report.unlink()
    os.mkfifo(report)
    ran = collect_in_subprocess(root, tmp_path / "out.jsonl")
    assert ran.returncode == 0, ran.stderr
    assert f"{report}: not a regular file (a FIFO), not read" in ran.stderr.splitlines()
    assert len(records(tmp_path / "out.jsonl")) == 4  # the other project's records are all there


def test_fifo_in_the_workers_half_does_not_hang(tmp_path: Path) -> None:
    root = tmp_path / "root"
    for name in ("a", "b", "c", "d"):  # FIFOs in every subdirectory: whichever half the worker gets
        project = trees.waiting_solution(root, name, f"{name}_1_x")
        os.mkfifo(project / "proj/solution1/solution1.log")
        os.mkfifo(project / "vitis_hls.log")
    ran = collect_in_subprocess(root, tmp_path / "out.jsonl")
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr.count("not a regular file (a FIFO), not read") == 8


def test_socket_named_lat_rpt_is_a_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    project = trees.hls_two_solutions(root)
    target = project / "proj/solution2/sim/report/verilog/lat.rpt"
    target.unlink()
    server = socket.socket(socket.AF_UNIX)
    monkeypatch.chdir(target.parent)  # a socket's path is limited to 108 bytes: bind a relative name
    try:
        server.bind(target.name)
        ran = collect_in_subprocess(root, tmp_path / "out.jsonl")
    finally:
        server.close()
    assert f"{target}: not a regular file (a socket), not read" in ran.stderr.splitlines()


def test_character_device_named_profile_is_a_problem(tmp_path: Path) -> None:
    root = tmp_path / "root"
    project = trees.hw_emu_build(root)
    profile = project / ".run/1585848/hw_em/device0/binary_0/behav_waveform/xsim/profile_kernels.csv"
    profile.unlink()
    try:
        os.mknod(profile, stat.S_IFCHR | 0o644, os.makedev(1, 5))  # /dev/zero: endless if ever read
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD (CI runs as root)")
    ran = collect_in_subprocess(root, tmp_path / "out.jsonl")
    assert f"{profile}: not a regular file (a character device), not read" in ran.stderr.splitlines()


def test_read_report_checks_the_open_descriptor(tmp_path: Path) -> None:
    fifo = tmp_path / "csynth.xml"
    os.mkfifo(fifo)
    with pytest.raises(ArtifactError, match=r"not a regular file \(a FIFO\)"):
        read_report(str(fifo))  # returns at once: opened non-blocking, refused after fstat


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="needs root and setpriv to run collect as an unprivileged user (root reads anything)",
)
def test_unreadable_report_and_directory_as_an_unprivileged_user() -> None:
    base = Path(tempfile.mkdtemp(prefix="vitis-tui-hostile-"))  # pytest's tmp_path is root-only
    try:
        os.chmod(base, 0o755)
        root = base / "root"
        project = trees.hls_two_solutions(root)
        report = project / CSYNTH
        os.chmod(report, 0)
        closed = project / "proj/solution1/sim"
        os.chmod(closed, 0)
        out_dir = base / "out"
        out_dir.mkdir(mode=0o777)
        os.chmod(out_dir, 0o777)
        ran = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-m", "tui.cli"]
            + ["collect", str(root), "-o", str(out_dir / "out.jsonl")],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert ran.returncode == 0, ran.stderr
        lines = ran.stderr.splitlines()
        assert f"{report}: permission denied" in lines
        assert f"{closed}: cannot list directory: Permission denied" in lines
    finally:
        for path in base.rglob("*"):
            if not path.is_symlink():
                os.chmod(path, 0o755)
        shutil.rmtree(base)


def record_command(*args: str) -> subprocess.CompletedProcess[str]:
    """A record command in its own process, with a limit: a hang fails the test, not the suite."""
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )


@pytest.mark.parametrize(("command", "code"), [(["validate"], 1), (["compare"], 3), (["export", "-o", "out.csv"], 3)])
def test_a_device_given_as_a_records_file_is_refused_at_once(tmp_path: Path, command: list[str], code: int) -> None:
    """/dev/zero never ends: validate and compare read it forever, export said 'no such file'."""
    ran = record_command(*command, "/dev/zero")
    assert ran.returncode == code, ran.stderr
    assert ran.stderr.splitlines() == ["/dev/zero: not a regular file (a character device), not read"]


@pytest.mark.parametrize(("command", "code"), [(["validate"], 1), (["export", "-o", "out.csv"], 3)])
def test_a_directory_given_as_a_records_file_says_so(tmp_path: Path, command: list[str], code: int) -> None:
    """(compare takes a directory: a build tree, collected.)"""
    ran = record_command(*command, str(tmp_path))
    assert ran.returncode == code, ran.stderr
    assert ran.stderr.splitlines() == [f"{tmp_path}: not a regular file (a directory), not read"]


def test_a_fifo_given_to_export_is_refused_not_called_missing(tmp_path: Path) -> None:
    """export reads files (and JSONL back from them); a named pipe is said to be one."""
    fifo = tmp_path / "records.jsonl"
    os.mkfifo(fifo)
    ran = record_command("export", str(fifo), "-o", str(tmp_path / "out.csv"))
    assert ran.returncode == 3
    assert ran.stderr.splitlines() == [f"{fifo}: not a regular file (a FIFO), not read"]


def through_a_pipe(*command: str) -> subprocess.CompletedProcess[str]:
    """`vitis-tui COMMAND <(cat EXPECTED)`: process substitution names a pipe (/dev/fd/N)."""
    return subprocess.run(
        ["bash", "-c", f'{sys.executable} -m tui.cli {" ".join(command)} <(cat "$0")', str(EXPECTED)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )


def test_a_pipe_is_read_by_validate_and_compare() -> None:
    """Streams are read from pipes (`validate <(zcat f.jsonl.gz)`); only devices and the like are refused."""
    validated = through_a_pipe("validate")
    assert validated.returncode == 0, validated.stderr
    assert re.fullmatch(r"/dev/fd/\d+: 11 lines, 11 valid, 0 invalid \(schema 1.0 contract\)\n", validated.stdout)
    compared = through_a_pipe("compare", "--format", "csv")
    assert compared.returncode == 0, compared.stderr
    assert compared.stdout.startswith("suite,group_path,arm,")
