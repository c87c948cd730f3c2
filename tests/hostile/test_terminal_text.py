"""Values shown in a terminal have their control characters made visible,
and every problem is one line."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App, ComposeResult
from textual.widgets import Static

from collectors.problems import Problem
from collectors.records.table import RecordTable
from collectors.text import visible
from tui.screens.detail import DetailScreen
from tui.widgets.records_view import RecordsView

from .. import trees
from ..conftest import place, wait_until
from .conftest import records

TITLE = "\x1b]2;pwned\x07"  # would retitle the terminal
RED = "\x1b[31m"  # would recolour it


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain", "plain"),
        (f"a{TITLE}b", "a\\x1b]2;pwned\\x07b"),
        (f"{RED}x", "\\x1b[31mx"),
        ("two\nlines\r\n", "two\\nlines\\r\\n"),
        ("nul\x00tab\t", "nul\\x00tab\\t"),
        ("del\x7f c1\x9b", "del\\x7f c1\\x9b"),
        ("bidi\u202eevil", "bidi\\u202eevil"),
        (os.fsdecode(b"gr\xffoup"), "gr\\xffoup"),
        ("ünïcödé ok", "ünïcödé ok"),
    ],
)
def test_visible(text: str, shown: str) -> None:
    assert visible(text) == shown


def test_every_problem_is_one_line() -> None:
    problem = Problem("/tree/k\n_1", "line 3: 'a\x00b' \x1b[2J is not a number\r\nsecond")
    assert str(problem) == "/tree/k\\n_1: line 3: 'a\\x00b' \\x1b[2J is not a number\\r\\nsecond"


def test_collect_prints_escapes_in_names_visibly(tmp_path: Path, cli) -> None:
    root = tmp_path / "root"
    project = trees.waiting_solution(root, f"g{RED}", "k_1_a")
    place(project, "vitis_run.meta", text=f"target=csim\ndevice=xc7z\nnote{TITLE}\nstatus=pass\n")
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(root), "-o", str(out))
    assert "\x1b" not in ran.err and "\x07" not in ran.err
    assert (
        f"{root}/Benchmarks/g\\x1b[31m/k_1_a/vitis_run.meta: line 3: expected key=value, got 'note\\x1b]2;pwned\\x07'"
        in (ran.problems)
    )
    # written as it is (JSON escapes it), shown escaped
    assert [r["problem"]["group_path"] for r in records(out)] == [[f"g{RED}"]]


def record_with_group(group: str) -> dict:
    return {
        "schema_version": "1.0",
        "report_type": "sw_run",
        "run": {"target": "vitis.csim", "device": "xc7z", "vitis_version": "2024.1", "runtime_seconds": None},
        "problem": {"suite": "s", "group_path": [group]},
        "implementation": {
            "origin": "o",
            "origin_version": None,
            "origin_meta": None,
            "variant": {"index": 1, "name": "a"},
        },
        "sw_run": {"status": "pass"},
    }


class ViewApp(App[None]):
    def __init__(self, table: RecordTable) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        yield RecordsView(self.table, id="view")


async def test_records_view_cells_show_escapes_not_terminal_codes() -> None:
    table = RecordTable()
    record = record_with_group(f"grp{TITLE}{RED}x")
    table.add(json.dumps(record), record)
    app = ViewApp(table)
    async with app.run_test(size=(200, 10)) as pilot:
        view = app.query_one(RecordsView)
        await wait_until(pilot, lambda: len(view.rows) == 1)
        line = "".join(segment.text for segment in view.render_line(1))
        assert "\x1b" not in line and "\x07" not in line
        assert "grp\\x1b]2;pwned\\x07\\x1b[31mx" in line


async def test_detail_screen_shows_escapes() -> None:
    record = record_with_group(f"g\x9b31m{RED}")
    screen = DetailScreen(f"run {RED}", [record], {"sw_run": [f"/t/{TITLE}.log"]}, [Problem("/t", "a\nb")], {})
    app = ViewApp(RecordTable())
    async with app.run_test(size=(200, 60)) as pilot:
        await app.push_screen(screen)
        await pilot.pause()
        console = Console(record=True, width=200, file=io.StringIO())
        for widget in screen.query(Static):
            console.print(widget.content)
        shown = console.export_text()
        assert "\x1b" not in shown and "\x9b" not in shown and "\x07" not in shown
        assert "run \\x1b[31m" in shown and "/t/\\x1b]2;pwned\\x07.log" in shown and "/t: a\\nb" in shown


async def test_the_title_shows_a_file_names_escapes(tmp_path: Path) -> None:
    """The header's subtitle is the file's name: `a<ESC>[31mred<BEL><0xff>.jsonl` lost its escape
    and bell there (a terminal would have been sent them where the header did not drop them)."""
    from tui.browse import BrowseApp

    path = tmp_path / os.fsdecode(b"a\x1b[31mred\x07\xff.jsonl")
    path.write_text(json.dumps(record_with_group("g")) + "\n")
    app = BrowseApp([str(path)])
    async with app.run_test(size=(200, 20)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        assert app.sub_title == f"{tmp_path}/a\\x1b[31mred\\x07\\xff.jsonl"


@pytest.mark.parametrize(
    ("query", "shown"),
    [
        ("lut<<3", "lut<<3\n    ^ '<3' is not a number"),
        ("a\x1b[2J lut<<3", "a\\x1b[2J lut<<3\n             ^ '<3' is not a number"),  # (the caret after the escape)
    ],
)
def test_a_bad_filter_is_pointed_at_on_lines_of_its_own(tmp_path: Path, cli, query: str, shown: str) -> None:
    """The pointer was escaped into one line ('bad --filter:\\nlut<<3\\n    ^ ...'): the caret
    pointed at nothing. The query's control characters are still made visible."""
    records_file = tmp_path / "r.jsonl"
    records_file.write_text(json.dumps(record_with_group("g")) + "\n")
    ran = cli("export", str(records_file), "--filter", query)
    assert (ran.code, ran.err) == (2, f"bad --filter:\n{shown}\n")


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--sort", "lut:sideways"], "--sort lut:sideways: the order after ':' is desc or asc"),  # (sorted up)
        (["--columns", f"x{TITLE}"], "unknown column(s): x\\x1b]2;pwned\\x07 (see --list-columns)"),  # (written raw)
    ],
)
def test_exports_bad_flags_are_one_visible_line(tmp_path: Path, cli, flags: list[str], said: str) -> None:
    records_file = tmp_path / "r.jsonl"
    records_file.write_text(json.dumps(record_with_group("g")) + "\n")
    ran = cli("export", str(records_file), *flags)
    assert (ran.code, ran.err) == (2, said + "\n")


def test_list_columns_shows_a_producers_field_names_visibly(tmp_path: Path, cli) -> None:
    """`export --list-columns` printed each meta.KEY and field beyond the schema as the file
    spelled it: a key holding an escape was sent to the terminal."""
    record = record_with_group("g")
    record["implementation"]["origin_meta"] = {f"k{TITLE}": 1}
    records_file = tmp_path / "r.jsonl"
    records_file.write_text(json.dumps(record) + "\n")
    ran = cli("export", str(records_file), "--list-columns")
    assert ran.code == 0 and "\x1b" not in ran.out and "\x07" not in ran.out
    assert "meta.k\\x1b]2;pwned\\x07" in ran.out
