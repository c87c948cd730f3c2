"""Hostile configurations (`vitis-tui.toml`, `[tool.vitis-tui]`): each is one line naming the file,
the key and what is wrong, exit 2, and the output is left as it was."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from .. import trees
from .conftest import records

DEEP_ARRAYS = "deep = " + "[" * 3000 + "]" * 3000 + "\n"
DEEP_TABLES = "deep = " + "{a = " * 2000 + "1" + "}" * 2000 + "\n"
INDEX_NOT_DIGITS = "[[mapping]]\npattern = '(?P<group>[^/]+)/(?P<index>[^_/]+)_(?P<name>[^/]+)'\n"

CASES = [
    pytest.param(
        'origin = "\xe9quipe"\n'.encode("latin-1"),
        "line 1: origin: byte 0xe9 is not UTF-8 (TOML files are UTF-8: save it as UTF-8)",
        id="latin-1",
    ),
    pytest.param(DEEP_ARRAYS.encode(), "line 1: deep: arrays or inline tables nested too deeply", id="arrays"),
    pytest.param(DEEP_TABLES.encode(), "line 1: deep: arrays or inline tables nested too deeply", id="tables"),
    pytest.param(
        b"[origin_meta]\ndate = 2026-11-26\n",
        'origin_meta.date: a TOML date cannot be written to JSON; quote it ("2026-11-26")',
        id="date",
    ),
    pytest.param(
        b"[origin_meta.run]\nat = 2026-11-26T07:00:00Z\n",
        'origin_meta.run.at: a TOML date-time cannot be written to JSON; quote it ("2026-11-26T07:00:00+00:00")',
        id="date-time",
    ),
    pytest.param(
        b"[origin_meta]\nstart = 07:30:00\n",
        'origin_meta.start: a TOML time cannot be written to JSON; quote it ("07:30:00")',
        id="time",
    ),
    pytest.param(
        b"[origin_meta]\nscore = nan\n",
        "origin_meta.score: nan is not a number JSON can hold; give a finite number or a string",
        id="nan",
    ),
    pytest.param(
        b"[origin_meta]\nscores = [1.0, -inf]\n",
        "origin_meta.scores[1]: -inf is not a number JSON can hold; give a finite number or a string",
        id="inf",
    ),
    pytest.param(
        INDEX_NOT_DIGITS.encode(),
        "mapping #1: pattern: group 'index' may match other characters than digits; "
        r"write it with digits only, as in (?P<index>\d+)",
        id="index",
    ),
    pytest.param(
        b"[[mapping]]\npattern = '(?P<group>(?=a)\\w+)'\n",
        "mapping #1: pattern: invalid perl operator: (?= (patterns are matched by RE2, in linear time: "
        "lookarounds and backreferences are not available)",
        id="lookahead",
    ),
    pytest.param(
        b"[origin_meta]\nseed = 99999999999999999999\n",
        "origin_meta.seed: 99999999999999999999 is past the 64-bit range TOML integers have; give a string",
        id="huge-int",
    ),
    pytest.param(b"suite = 3\n", "suite: must be a non-empty string, not an integer", id="suite-type"),
    pytest.param(
        b"[origin_meta]\na = " + b"[" * 20 + b"1" + b"]" * 20 + b"\n", "nested more than 16 deep", id="meta-deep"
    ),
    pytest.param(b'suite = "a"\nsuite = "b"\n', "line 2: suite: given twice", id="duplicate"),
    pytest.param(
        b"[origin_meta]\nmodel = 1\nrun = 2\nmodel = 3\n", "line 4: origin_meta.model: given twice", id="twice-in-table"
    ),
    pytest.param(
        b"[origin_meta]\n[x]\n[origin_meta]\n",
        "Cannot declare ('origin_meta',) twice (at line 3, column 13)",
        id="table-twice",
    ),
    pytest.param(
        b"[mapping]\npattern = 'x'\n",
        "mapping: must be an array of tables ([[mapping]]), not a table",
        id="mapping-table",
    ),
    pytest.param(
        b"[[mapping]]\npattern = '(?P<group>x{1000}){1000}'\n",
        "mapping #1: pattern: invalid repetition size: {1000}",
        id="pattern-too-large",
    ),
    pytest.param(b'suite = "a\x00"\n', "Illegal character", id="nul"),
    pytest.param(b"aie = 3\n", "aie: must be a table ([aie]), not an integer", id="aie"),
]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    trees.hls_two_solutions(tmp_path / "root")
    return tmp_path / "root"


@pytest.mark.parametrize(("text", "message"), CASES)
def test_a_bad_configuration_is_one_line_exit_2_and_nothing_written(
    tmp_path: Path, root: Path, cli, text: bytes, message: str
) -> None:
    config = root / "vitis-tui.toml"
    config.write_bytes(text)
    out = tmp_path / "out.jsonl"
    out.write_text("previous\n")
    ran = cli("collect", str(root), "-o", str(out))
    assert ran.code == 2
    assert ran.err.count("\n") == 1 and ran.err.startswith(f"configuration error: {config}: ")
    assert message in ran.err
    assert out.read_text() == "previous\n"
    assert sorted(os.listdir(tmp_path)) == ["out.jsonl", "root"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[tool.vitis-tui.origin_meta]\nscore = nan\n", "origin_meta.score: nan is not a number JSON can hold"),
        ('[tool]\nvitis-tui = "yes"\n', "tool.vitis-tui: must be a table ([tool.vitis-tui]), not str"),
        ('[tool.vitis-tui]\nsuite = "caf\xe9"\n', "line 2: suite: byte 0xe9 is not UTF-8"),
    ],
    ids=["nan", "not-a-table", "latin-1"],
)
def test_pyproject_table_is_checked_alike(tmp_path: Path, root: Path, cli, text: str, message: str) -> None:
    config = root / "pyproject.toml"
    config.write_bytes(text.encode("latin-1"))
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 2 and ran.err.count("\n") == 1
    assert ran.err.startswith(f"configuration error: {config}: ") and message in ran.err
    assert not (tmp_path / "out.jsonl").exists()


def test_a_pyproject_of_another_tool_is_never_parsed(tmp_path: Path, root: Path, cli) -> None:
    (root / "pyproject.toml").write_bytes(b"[project\nname = '\xff'\n")  # broken, and not ours
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 0 and len(records(tmp_path / "out.jsonl")) == 3


@pytest.mark.parametrize("value", ["Benchmark", "notes.txt"], ids=["misspelled", "a-file"])
def test_suite_root_that_is_not_a_directory_is_refused(tmp_path: Path, root: Path, cli, value: str) -> None:
    (root / "notes.txt").write_text("not a directory\n")
    config = root / "vitis-tui.toml"
    config.write_text(f'suite_root = "{value}"\n')
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    what = "no such directory" if value == "Benchmark" else "is not a directory"
    assert (ran.code, ran.err) == (2, f"configuration error: {config}: suite_root: {root / value}: {what}\n")
    assert not (tmp_path / "out.jsonl").exists()


def test_suite_root_flag_that_is_not_a_directory_is_refused(tmp_path: Path, root: Path, cli) -> None:
    ran = cli("collect", str(root), "--suite-root", str(root / "Benchmark"), "-o", str(tmp_path / "out.jsonl"))
    assert (ran.code, ran.err) == (2, f"configuration error: --suite-root: {root / 'Benchmark'}: no such directory\n")


def test_a_catastrophic_pattern_is_matched_in_linear_time(tmp_path: Path, root: Path, cli) -> None:
    """`(a+)+$`-like patterns take Python's re exponential time on a long name; RE2 takes none."""
    long = root / "Benchmarks" / ("a" * 60 + "b")
    (root / "Benchmarks" / "fft").rename(long)
    (root / "vitis-tui.toml").write_text("[[mapping]]\npattern = '(?P<group>(a+)+)/(?P<name>.*)'\n")
    started = time.perf_counter()
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 0 and time.perf_counter() - started < 10
    groups = {tuple(r["problem"]["group_path"]) for r in records(tmp_path / "out.jsonl")}
    assert groups == {("a" * 60 + "b",)}  # the rule never matched: the default mapping applied


def test_an_index_group_of_digits_maps_the_variant(tmp_path: Path, root: Path, cli) -> None:
    (root / "vitis-tui.toml").write_text(
        r"[[mapping]]" "\npattern = '(?P<group>fft)/fft_(?P<index>\\d+)_(?P<name>.+)'\n"
    )
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 0
    variants = {
        (r["implementation"]["variant"]["index"], r["implementation"]["variant"]["name"])
        for r in records(tmp_path / "out.jsonl")
    }
    assert variants == {(2, "opt")}


def test_unknown_keys_are_warned_about_and_the_rest_used(tmp_path: Path, root: Path, cli) -> None:
    config = root / "vitis-tui.toml"
    config.write_text('sutie = "x"\norigin = "agent"\n[[mapping]]\npatern = "x"\npattern = "(?P<group>.+)"\n')
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 0
    assert ran.problems == [
        f"{config}: sutie: unknown key, ignored (did you mean 'suite'?)",
        f"{config}: mapping #1: patern: unknown key, ignored (did you mean 'pattern'?)",
    ]
    assert {r["implementation"]["origin"] for r in records(tmp_path / "out.jsonl")} == {"agent"}


@pytest.mark.parametrize("kind", ["directory", "fifo", "unreadable", "huge", "dangling"])
def test_a_configuration_that_cannot_be_read_is_one_line(tmp_path: Path, root: Path, cli, kind: str) -> None:
    config = root / "vitis-tui.toml"
    expected = {
        "directory": "not a regular file (a directory), not read",
        "fifo": "not a regular file (a FIFO), not read",
        "unreadable": "cannot read: Permission denied",
        "huge": f"{2 * 1024 * 1024} bytes, more than a configuration may hold (1048576)",
        "dangling": "cannot read: No such file or directory",
    }[kind]
    if kind == "directory":
        config.mkdir()
    elif kind == "fifo":
        os.mkfifo(config)
    elif kind == "unreadable":
        config.write_text('suite = "x"\n')
        config.chmod(0)
        if os.access(config, os.R_OK):
            pytest.skip("running as root: every file is readable")
    elif kind == "huge":
        config.write_text("# " + "x" * (2 * 1024 * 1024 - 3) + "\n")
    else:
        config.symlink_to(root / "missing.toml")
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    assert (ran.code, ran.err) == (2, f"configuration error: {config}: {expected}\n")


@pytest.mark.parametrize(
    "text", [b'\xef\xbb\xbfsuite = "s"\n', b'suite = "s"\r\norigin = "o"\r\n'], ids=["bom", "crlf"]
)
def test_what_editors_write_is_read(tmp_path: Path, root: Path, cli, text: bytes) -> None:
    (root / "vitis-tui.toml").write_bytes(text)
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 0 and {r["problem"]["suite"] for r in records(tmp_path / "out.jsonl")} == {"s"}


def test_a_config_flag_naming_a_directory_is_one_line(tmp_path: Path, cli) -> None:
    records_file = tmp_path / "r.jsonl"
    records_file.write_text("")
    ran = cli("export", str(records_file), "--config", str(tmp_path))
    assert (ran.code, ran.err) == (2, f"configuration error: {tmp_path}: not a regular file (a directory), not read\n")


def test_a_group_that_did_not_take_part_in_the_match_is_an_empty_group_path(tmp_path: Path, root: Path, cli) -> None:
    (root / "vitis-tui.toml").write_text("[[mapping]]\npattern = '(?:(?P<group>zzz)/)?.*'\n")
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 0
    assert {tuple(r["problem"]["group_path"]) for r in records(tmp_path / "out.jsonl")} == {()}


def test_a_mapping_over_a_name_that_is_not_utf8_costs_only_that_project(tmp_path: Path, root: Path, cli) -> None:
    trees.hw_emu_build(root)
    fft = root / "Benchmarks" / "fft"
    os.rename(os.fsencode(fft), os.fsencode(fft.parent) + b"/ff\xfft")  # RE2 matches UTF-8 only
    (root / "vitis-tui.toml").write_text("[[mapping]]\npattern = '(?P<group>.+)/(?P<name>[^/]+)'\n")
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 0
    assert records(tmp_path / "out.jsonl") and all("\\xff" in line for line in ran.problems)
