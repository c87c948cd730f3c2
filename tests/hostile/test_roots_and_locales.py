"""Roots given through a symbolic link keep the configuration of the path the user gave; names are
decoded as the filesystem stores them (UTF-8), whatever the locale the command runs in."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .. import trees
from .conftest import records

REPOSITORY = Path(__file__).resolve().parents[2]


def test_a_root_through_a_link_uses_the_configuration_beside_the_link(tmp_path: Path, cli) -> None:
    run42 = tmp_path / "scratch" / "run42"
    trees.hls_two_solutions(run42)
    project = tmp_path / "project"
    project.mkdir()
    (project / "vitis-tui.toml").write_text('suite = "agent_eval"\norigin = "hls-agent"\nsuite_root = "builds"\n')
    (project / "builds").symlink_to(os.path.join("..", "scratch", "run42"))
    ran = cli("collect", str(project / "builds"), "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 0
    found = records(tmp_path / "out.jsonl")
    assert len(found) == 3
    assert {(r["problem"]["suite"], r["implementation"]["origin"]) for r in found} == {("agent_eval", "hls-agent")}
    assert {tuple(r["problem"]["group_path"]) for r in found} == {("Benchmarks", "fft")}


def test_a_relative_root_inside_a_linked_directory_uses_the_shell_path(
    tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    trees.hls_two_solutions(tmp_path / "scratch" / "run42")
    project = tmp_path / "project"
    project.mkdir()
    (project / "vitis-tui.toml").write_text('origin = "hls-agent"\n')
    (project / "builds").symlink_to(tmp_path / "scratch" / "run42")
    monkeypatch.chdir(project / "builds")  # as `cd project/builds` leaves it: PWD names the link
    monkeypatch.setenv("PWD", str(project / "builds"))
    ran = cli("collect", ".", "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 0
    assert {r["implementation"]["origin"] for r in records(tmp_path / "out.jsonl")} == {"hls-agent"}
    monkeypatch.setenv("PWD", str(tmp_path))  # a stale PWD (not this directory) is not used
    assert cli("collect", ".", "-o", str(tmp_path / "out.jsonl")).code == 0
    assert {r["implementation"]["origin"] for r in records(tmp_path / "out.jsonl")} == {"run42_benchmark"}


def make_locale(tmp_path: Path) -> Path | None:
    """An ISO-8859-1 locale of our own (LOCPATH), or None where localedef cannot make one."""
    if shutil.which("localedef") is None:
        return None
    where = tmp_path / "locales"
    where.mkdir()
    made = subprocess.run(
        ["localedef", "--no-archive", "-i", "en_US", "-f", "ISO-8859-1", str(where / "en_US.ISO-8859-1")],
        capture_output=True,
    )
    return where if made.returncode in (0, 1) and (where / "en_US.ISO-8859-1").exists() else None


LOCALES = {
    "c-without-coercion": {"LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"},
    "latin-1": {"LANG": "en_US.ISO-8859-1"},
}


@pytest.mark.parametrize("locale", LOCALES)
def test_utf8_names_are_written_as_utf8_whatever_the_locale(tmp_path: Path, locale: str) -> None:
    root = tmp_path / "root"
    trees.hls_two_solutions(root)
    (root / "Benchmarks" / "fft").rename(root / "Benchmarks" / "fft_é")  # UTF-8 on disk
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHON"))}
    environment.update(LOCALES[locale])
    if locale == "latin-1":
        made = make_locale(tmp_path)
        if made is None:
            pytest.skip("no ISO-8859-1 locale can be made here (localedef)")
        environment["LOCPATH"] = str(made)
    probe = [sys.executable, "-c", "import sys; print(sys.getfilesystemencoding())"]
    assert subprocess.run(probe, env=environment, capture_output=True, text=True).stdout != "utf-8\n"
    out = tmp_path / "out.jsonl"
    ran = subprocess.run(
        [sys.executable, "-m", "tui.cli", "collect", str(root), "-o", str(out)],
        env=environment,
        cwd=REPOSITORY,
        capture_output=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    # the one problem is the project's other solution (a variant given by the path), said in UTF-8
    assert b" 1 problem," in ran.stderr and b"not valid UTF-8" not in ran.stderr
    assert ran.stderr.splitlines()[0].startswith(f"{root}/Benchmarks/fft_é/".encode())
    lines = out.read_bytes().splitlines()
    assert len(lines) == 3 and all(b'"group_path":["fft_\xc3\xa9"]' in line for line in lines)
    assert {tuple(json.loads(line)["problem"]["group_path"]) for line in lines} == {("fft_é",)}
