"""Hostile JSONL files and queries: deep nesting, a 1 GiB line, JSON that interchange forbids,
rows the schema refuses, spreadsheet formulas and control characters in cells."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from collectors.records.loader import load_files
from collectors.records.query import QueryError, parse
from tui.browse import BrowseApp
from tui.cli import main

from ..conftest import EXPECTED_TREE, wait_until

GOOD = EXPECTED_TREE.read_text().splitlines()[0]  # a valid sw_run record
REPO = Path(__file__).parents[2]


def record(**changes) -> dict:
    base = json.loads(GOOD)
    for path, value in changes.items():
        *parents, last = path.split("__")
        node = base
        for part in parents:
            node = node[part]
        node[last] = value
    return base


@pytest.fixture
def deep(tmp_path: Path) -> Path:
    path = tmp_path / "deep.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n" + GOOD + "\n")
    return path


def test_deep_nesting_is_one_error_and_the_next_file_is_checked(deep: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["validate", str(deep), str(EXPECTED_TREE)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{deep}:1: invalid JSON at column 65: nested deeper than 64 levels",
        f"{deep}: 2 lines, 1 valid, 1 invalid (schema 1.0 contract)",
        f"{EXPECTED_TREE}: 11 lines, 11 valid, 0 invalid (schema 1.0 contract)",
    ]
    assert main(["export", str(deep), "--format", "csv", "--columns", "group"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "group\nbeamform\n"
    assert f"{deep}:1: invalid JSON at column 65: nested deeper than 64 levels" in captured.err


async def test_browse_loads_a_deeply_nested_line(deep: Path) -> None:
    app = BrowseApp([str(deep)])
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_until(pilot, lambda: app.loaded and app.checked)
        assert len(app.view.table) == 1
        assert [str(p) for p in app.all_problems()] == [
            f"{deep}:1: invalid JSON at column 65: nested deeper than 64 levels"
        ]


@pytest.mark.parametrize(
    "query,position",
    [("(" * 600 + "a" + ")" * 600, 100), ("not " * 3000 + "a", 400), ("-" * 3000 + "a", 100)],
)
def test_deeply_nested_queries_are_errors_with_a_position(query: str, position: int, capsys) -> None:
    with pytest.raises(QueryError) as error:
        parse(query)
    assert error.value.position == position and "nested deeper than 100 levels" in error.value.message
    assert main(["export", str(EXPECTED_TREE), f"--filter={query}"]) == 2
    assert "nested deeper than 100 levels" in capsys.readouterr().err


async def test_browse_survives_a_deeply_nested_filter() -> None:
    app = BrowseApp([str(EXPECTED_TREE)])
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        app.query_one("#filter").value = "(" * 600 + "a"
        await wait_until(pilot, lambda: app.query_one("#filter-error").display)
        assert "nested deeper than 100 levels" in str(app.query_one("#filter-error").render())
        assert len(app.view.rows) == 11


def test_a_line_over_the_limit_is_refused_unread_in_little_memory(tmp_path: Path) -> None:
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as handle:
        handle.truncate(1 << 30)  # sparse: 1 GiB of NUL bytes, no newline
        handle.seek(1 << 30)
        handle.write(b"\n" + GOOD.encode() + b"\n")
    code = (
        "import resource, sys; from tui.cli import main; "
        f"status = main(['validate', {str(huge)!r}]); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024); sys.exit(status)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 1, done.stderr
    *out, peak_mib = done.stdout.splitlines()
    assert out == [
        f"{huge}:1: line longer than 64 MiB ({1 << 30} bytes), not read",
        f"{huge}: 2 lines, 1 valid, 1 invalid (schema 1.0 contract)",
    ]
    assert int(peak_mib) < 400  # the line is never held whole


def test_json_that_interchange_forbids_is_refused_with_line_and_column(tmp_path: Path, capsys) -> None:
    lines = [
        *(GOOD.replace('"runtime_seconds":12.5', f'"runtime_seconds":{n}').encode() for n in ("NaN", "Infinity")),
        *(GOOD.replace('"runtime_seconds":12.5', f'"runtime_seconds":{n}').encode() for n in ("-Infinity", "1e400")),
        GOOD.replace('"suite":"rodinia_hls"', '"suite":"a","suite":"rodinia_hls"').encode(),
        GOOD.replace("beamform", "beam\udcff").encode("utf-8", "surrogateescape"),  # a lone 0xff byte
        GOOD.encode(),
    ]
    path = tmp_path / "forbidden.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["validate", str(path)]) == 1
    column = GOOD.index("12.5") + 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}:1: invalid JSON at column {column}: NaN is not a JSON number",
        f"{path}:2: invalid JSON at column {column}: Infinity is not a JSON number",
        f"{path}:3: invalid JSON at column {column}: -Infinity is not a JSON number",
        f"{path}:4: invalid JSON at column {column}: number 1e400 is out of range",
        f"{path}:5: invalid JSON at column {GOOD.index('suite') + 12}: key 'suite' repeated in one object",
        f"{path}:6: invalid JSON at column {GOOD.index('beamform') + 5}: invalid UTF-8 (byte 0xff)",
        f"{path}: 7 lines, 1 valid, 6 invalid (schema 1.0 contract)",
    ]
    table, _followed, problems, _rows = load_files([str(path)])
    assert len(table) == 1 and len(problems) == 6  # the loader (browse, export) says the same


def test_export_writes_what_it_counts_in_every_format(tmp_path: Path, capsys) -> None:
    path = tmp_path / "four.jsonl"
    lines = [GOOD, *EXPECTED_TREE.read_text().splitlines()[1:3]]
    lines.insert(1, json.dumps(record(run__runtime_seconds=-1.5)))  # the schema refuses it
    path.write_text("\n".join(lines) + "\n")
    held = {}
    for fmt in ("jsonl", "csv", "md"):
        out = tmp_path / f"x.{fmt}"
        assert main(["export", str(path), "--format", fmt, "--columns", "group,runtime", "-o", str(out)]) == 0
        err = capsys.readouterr().err.splitlines()
        assert err[-1] == f"3 of 4 records (1 refused by the schema left out) -> {out}"
        held[fmt] = out.read_text()
    assert held["jsonl"] == "".join(line + "\n" for n, line in enumerate(lines) if n != 1)
    assert len(list(csv.reader(io.StringIO(held["csv"])))) == 1 + 3 and "-1.5" not in held["csv"]
    assert len(held["md"].splitlines()) == 2 + 3 and "-1.5" not in held["md"]


def test_formulas_are_neutralised_and_control_characters_never_split_a_row(tmp_path: Path, capsys) -> None:
    hostile = record(
        problem__group_path=['=HYPERLINK("http://x")', "a\rb"],
        implementation__origin="+cmd",
        implementation__variant={"index": 0, "name": "@SUM(A1)"},
        run__device="-2+3",
        implementation__origin_meta={"offset": -3, "tab": "\tx"},
    )
    path = tmp_path / "hostile.jsonl"
    path.write_text(json.dumps(hostile) + "\n")
    columns = ["--columns", "group,origin,variant,device,meta.offset,meta.tab"]
    assert main(["export", str(path), "--format", "csv", *columns]) == 0
    text = capsys.readouterr().out
    assert len(text.splitlines()) == 2  # no carriage return splits the row
    assert list(csv.reader(io.StringIO(text)))[1] == [
        '\'=HYPERLINK("http://x")/a\\rb',
        "'+cmd",
        "0_@SUM(A1)",
        "'-2+3",
        "-3",  # a number stays a number
        "'\\tx",
    ]
    assert main(["export", str(path), "--format", "md", *columns]) == 0
    md = capsys.readouterr().out
    assert md.splitlines()[2] == "| '=HYPERLINK(\"http://x\")/a\\\\rb | '+cmd | 0_@SUM(A1) | '-2+3 | -3 | '\\\\tx |"
    assert main(["export", str(path), "--format", "csv", "--raw", *columns]) == 0
    raw = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert raw[1][:2] == ['=HYPERLINK("http://x")/a\rb', "+cmd"]  # verbatim, the CR quoted


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (b'{"a":1,"a":2}', "invalid JSON at column 8: key 'a' repeated in one object"),
        (b'{"a":{"b":1, "b" :2}}', "invalid JSON at column 14: key 'b' repeated in one object"),
        (b'{"a":"\\u0022:","a":1}', "invalid JSON at column 16: key 'a' repeated in one object"),
        (b'{"a" :1,"x":"\\":","a":2}', "invalid JSON at column 19: key 'a' repeated in one object"),
        (b'{"a":' + b"[" * 64 + b"]" * 64 + b"}", "invalid JSON at column 69: nested deeper than 64 levels"),
        (b'{"a":1e309}', "invalid JSON at column 6: number 1e309 is out of range"),
        (b'{"a":NaN}', "invalid JSON at column 6: NaN is not a JSON number"),
    ],
)
def test_the_fast_reader_refuses_what_the_strict_one_refuses(line: bytes, error: str) -> None:
    """orjson reads most lines (collectors/records/jsonl.py `_fast`); it keeps the last of two
    equal keys and has no depth limit of ours: such lines still get the strict reader's error."""
    from collectors.records.jsonl import LineError, read_object

    with pytest.raises(LineError) as refused:
        read_object(line)
    assert str(refused.value) == error


def test_the_fast_reader_reads_what_the_strict_one_reads() -> None:
    from collectors.records.jsonl import loads, read_object

    for line in [
        b'{"n":123456789012345678901234567890,"m":-9223372036854775809}',  # integers kept exact
        b'{"a" : 1, "b": [1.5, -0.0, 1e-400, "\\ud800"], "c": {"d": null}}',  # spaced, a lone surrogate
        GOOD.encode(),
    ]:
        text, record = read_object(line)
        assert record == loads(line.decode()) and text == line.decode()
    assert type(read_object(b'{"n":123456789012345678901234567890}')[1]["n"]) is int
