"""Pilot tests of browse: filter, sort, marks, export in every format, copy, following a file."""

from __future__ import annotations

import csv
import io
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Input

from tui.browse import BrowseApp
from tui.screens.export import ExportScreen

from ..conftest import EXPECTED_TREE as EXPECTED
from ..conftest import wait_until

LINES = EXPECTED.read_text().splitlines()


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    other = tmp_path / "harness.jsonl"
    broken = json.loads(LINES[0])
    broken["schema_version"] = "2.0"
    other.write_text('{"schema_version": \n' + json.dumps(broken) + "\n")
    main = tmp_path / "results.jsonl"
    main.write_text(EXPECTED.read_text())
    return [main, other]


def info(app: BrowseApp) -> str:
    return str(app.query_one("#records-info").render())


async def start(pilot, app: BrowseApp) -> None:
    """Until the load and its check are over and the info line counts what the view now holds
    (it is redrawn on a message of its own, after the check dropped the refused record)."""
    await wait_until(
        pilot,
        lambda: (
            app.loaded
            and app.checked
            and info(app).startswith(f"{len(app.view.rows)} of {len(app.view.table)} records")
        ),
    )


async def test_problems_and_filter(files: list[Path]) -> None:
    app = BrowseApp([str(f) for f in files])
    async with app.run_test(size=(200, 50)) as pilot:
        await start(pilot, app)
        assert info(app).startswith("11 of 11 records │ 0 marked")
        problems = [str(p) for p in app.all_problems()]
        assert f"{files[1]}:1: invalid JSON at column 20: Expecting value" in problems
        assert f"{files[1]}:2: $.schema_version: '1.0' was expected" in problems
        await pilot.press("slash", *"type:rtl_sim", "enter")
        await wait_until(pilot, lambda: info(app).startswith("4 of 11 records"))
        assert app.focused is app.view
        box = app.query_one("#filter")
        box.value = "type:rtl_sim lut<<"  # does not parse: the view stays as it was
        await wait_until(pilot, lambda: app.query_one("#filter-error").display)
        assert "^ '<' is not a number" in str(app.query_one("#filter-error").render())
        assert info(app).startswith("4 of 11 records")
        box.value = "type:rtl_sim lut<1"
        await wait_until(pilot, lambda: info(app).startswith("0 of 11 records"))
        assert not app.query_one("#filter-error").display


async def test_keys_typed_right_after_the_slash_go_to_the_filter_box(files: list[Path]) -> None:
    """`/` and a query typed at once (a paste, a fast typist): every key after the slash lands
    in the box, none in the records view (where `s` would sort and `m` mark)."""
    from textual import events

    app = BrowseApp([str(f) for f in files])
    async with app.run_test(size=(200, 50)) as pilot:
        await start(pilot, app)
        for key, character in [("slash", "/"), *((c, c) for c in "status:pass")]:
            app.post_message(events.Key(key, character))  # all queued before the first is handled
        await wait_until(pilot, lambda: app.query_one("#filter").value == "status:pass")
        assert not app.view.marks and app.view.sort_column is None
        await pilot.press("space", *"group:cfd", "slash", "asterisk")  # in the box, `/` is text
        assert app.query_one("#filter").value == "status:pass group:cfd/*"


async def test_keys_typed_at_once_in_the_filter_box_run_in_the_order_typed(files: list[Path]) -> None:
    """Editing keys, enter, then a key of the records, all typed at once (a fast typist, a
    loaded machine): each runs in its turn. Input's editing keys and enter are bindings, run
    once the key has bubbled up to the app, after the letters typed behind them; and a key
    typed right after enter reached the box before the focus left it (CI: the `c` of compare
    went into the query)."""
    from textual import events

    app = BrowseApp([str(f) for f in files])
    async with app.run_test(size=(200, 50)) as pilot:
        await start(pilot, app)
        await pilot.press("slash", *"old")
        typed = [("ctrl+u", None), *((c, c) for c in "hlsx"), ("backspace", None), ("enter", None), ("space", " ")]
        for key, character in typed:
            app.post_message(events.Key(key, character))  # all queued before the first is handled
        await wait_until(pilot, lambda: len(app.view.marks) == 1)
        assert app.query_one("#filter", Input).value == "hls"
        assert app.focused is app.view
        # (the box selects its query as it takes the focus: the first letter replaces it)
        for key, character in [("slash", "/"), *((c, c) for c in "hls"), ("escape", None), ("s", "s")]:
            app.post_message(events.Key(key, character))
        await wait_until(pilot, lambda: app.view.sort_column is not None)
        assert app.query_one("#filter", Input).value == "hls" and app.focused is app.view


async def test_a_slow_query_waits_for_the_typing_to_pause(files: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a query takes long (a million records), the box takes every key at once and the view
    runs the query once the typing pauses, or at enter: never once per keystroke."""
    from textual import events

    from tui.widgets import records_view

    monkeypatch.setattr(records_view, "QUICK_QUERY_SECONDS", -1.0)  # every query counts as slow
    app = BrowseApp([str(f) for f in files])
    async with app.run_test(size=(200, 50)) as pilot:
        await start(pilot, app)
        ran: list[str] = []
        set_query = app.view.set_query
        monkeypatch.setattr(app.view, "set_query", lambda node: (ran.append(str(node)), set_query(node)))
        for key, character in [("slash", "/"), *((c, c) for c in "type:rtl_sim")]:
            app.post_message(events.Key(key, character))
        await wait_until(pilot, lambda: info(app).startswith("4 of 11 records"))
        assert len(ran) == 1
        monkeypatch.setattr(records_view, "SETTLE_SECONDS", 600.0)  # only enter can run it now
        app.query_one("#filter", Input).value = "type:hls_synth"
        await pilot.press("enter")
        synth = app.view.table.column("type").count("hls_synth")
        assert len(ran) == 2 and app.focused is app.view and info(app).startswith(f"{synth} of 11 records")


async def test_the_selection_of_every_record_marked_is_one_pass(files: list[Path]) -> None:
    """Export and copy take the marked rows shown, then the marked rows hidden: those shown were
    set apart once, not once per record (100,000 records marked: `e` took 85 s, `y` 91 s)."""

    class CountingSet(set):
        unions = 0

        def __ror__(self, other: object) -> set:
            CountingSet.unions += 1
            return set.__or__(self, other)  # type: ignore[operator]

    app = BrowseApp([str(files[0])])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        view = app.view
        await pilot.press("a")  # every record marked
        await pilot.press("slash", *"type:hls_synth", "enter")
        await wait_until(pilot, lambda: len(view.rows) == 5)
        view.table.dead = CountingSet()
        selected = view.selection()
        assert len(selected) == len(view.table.keys) and selected[:5] == list(view.rows)
        assert CountingSet.unions <= 1


async def test_a_copy_is_made_while_the_keys_go_on(files: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """`y` takes the rows and leaves their text to a thread: the keys pressed meanwhile are
    answered (a Markdown copy of 100,000 rows held them, quit included, for 3 s)."""
    import tui.records_actions as records_actions

    release = threading.Event()
    made = records_actions.plan_pieces

    def slow_pieces(plan):  # type: ignore[no-untyped-def]
        release.wait(5)
        yield from made(plan)

    monkeypatch.setattr(records_actions, "plan_pieces", slow_pieces)
    app = BrowseApp([str(files[0])])
    copied: list[str] = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        shown = len(app.view.rows)
        await pilot.press("y", "slash", *"type:hls_synth", "enter")
        await wait_until(pilot, lambda: len(app.view.rows) == 5)
        assert not copied and not release.is_set()  # the copy still under way
        release.set()
        await wait_until(pilot, lambda: len(copied) == 1)
        assert shown > 5 and copied[0].count("\n") == shown + 2  # the rows shown when `y` was pressed, as Markdown


async def test_a_column_is_measured_once_a_spelling(files: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A column's width is measured over the spellings it holds, not over every cell (`+` on
    100,000 records: 1.45 s, a visible() a cell)."""
    import tui.widgets.records_view as records_view

    app = BrowseApp([str(files[0])])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        view = app.view
        measured: list[str] = []
        monkeypatch.setattr(records_view, "visible", lambda text: measured.append(text) or text)
        view._widths.pop("suite", None)
        assert view.width_of("suite") == max(len(v) for v in view.table.column("suite"))
        assert len(view.table.column("suite")) > 1 and measured == ["rodinia_hls"]


async def test_sort_marks_and_exports(files: list[Path], tmp_path: Path) -> None:
    app = BrowseApp([str(files[0])])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        view = app.view
        await pilot.press("slash", *"type:hls_synth", "enter")
        await wait_until(pilot, lambda: len(view.rows) == 5)
        await pilot.press(*["right"] * view.columns.index("lut"), "s")
        assert [view.table.text["lut"][i] for i in view.rows] == ["7295", "15752", "19589", "", ""]
        await pilot.press("s")
        assert [view.table.text["lut"][i] for i in view.rows][:3] == ["19589", "15752", "7295"]
        assert "sorted by LUT ▼" in info(app)
        await pilot.press("home", "space", "space")  # marks the first two rows shown
        assert info(app).startswith("5 of 11 records │ 2 marked")
        marked = sorted(view.table.text["group"][i] for i in view.selection())
        assert marked == ["canny/canny_top", "fft"]
        await pilot.press("slash", "ctrl+u", "enter")  # no filter: marks survive
        await wait_until(pilot, lambda: len(view.rows) == 11)
        assert len(view.marks) == 2 and sorted(view.table.text["group"][i] for i in view.selection()) == marked

        for fmt in ("csv", "md", "jsonl"):
            target = tmp_path / f"out.{fmt}"
            await pilot.press("e")
            await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen))
            app.screen.query_one("#export-format").value = fmt
            await wait_until(pilot, lambda: app.screen.fmt == fmt)  # the dialog took the format
            app.screen.query_one("#export-path").value = str(target)
            await pilot.click("#export-go")
            # (written in a worker: the dialog closes once the file is in place)
            await wait_until(pilot, lambda: target.exists() and not isinstance(app.screen, ExportScreen))
        rows = list(csv.reader(io.StringIO((tmp_path / "out.csv").read_text())))
        assert rows[0][:3] == ["type", "group", "variant"] and len(rows) == 3
        assert sorted(r[1] for r in rows[1:]) == ["canny/canny_top", "fft"]
        md = (tmp_path / "out.md").read_text().splitlines()
        assert md[0].startswith("| type | group | variant |") and len(md) == 4
        exported = (tmp_path / "out.jsonl").read_text().splitlines()
        assert sorted(exported) == sorted(
            l for l in LINES if '"hls_synth":' in l and ('"canny"' in l or '["fft"]' in l)
        )  # the original lines, byte for byte

        # overwriting needs a second press
        (tmp_path / "out.csv").write_text("keep")
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen))
        assert app.screen.fmt == "jsonl"  # it opens with the format last used
        app.screen.query_one("#export-format").value = "csv"
        await wait_until(pilot, lambda: app.screen.fmt == "csv")
        app.screen.query_one("#export-path").value = str(tmp_path / "out.csv")
        await pilot.click("#export-go")
        await wait_until(pilot, lambda: "exists" in str(app.screen.query_one("#export-message").render()))
        assert (tmp_path / "out.csv").read_text() == "keep"
        app.screen.query_one("#export-path").focus()
        await pilot.press("enter")  # confirm from the path box (the button ignores a press while it flashes)
        await wait_until(pilot, lambda: (tmp_path / "out.csv").read_text() != "keep")
        await wait_until(pilot, lambda: not isinstance(app.screen, ExportScreen))

        await pilot.press("y")  # the same, to the clipboard, in the last format used
        await wait_until(pilot, lambda: app.clipboard == (tmp_path / "out.csv").read_text())
        await pilot.press("u", "a")
        assert len(view.marks) == 11
        await pilot.press("u")
        assert not view.marks


async def test_csv_export_has_a_header_even_for_zero_rows(files: list[Path], tmp_path: Path) -> None:
    app = BrowseApp([str(files[0])])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        await pilot.press("slash", *"nothing-matches-this", "enter")
        await wait_until(pilot, lambda: not app.view.rows)
        app.export_format = "csv"
        await pilot.press("y")
        await wait_until(pilot, lambda: bool(app.clipboard))
        assert app.clipboard.splitlines() == [
            "type,group,variant,target,device,vitis,status,latency,clock ns,LUT,FF,DSP,BRAM,cycles,us,runtime s"
        ]  # the columns whose values differ; suite, origin and the unfilled ones are left out


async def test_growing_and_replaced_files_are_followed(files: list[Path]) -> None:
    path = files[0]
    path.write_text("\n".join(LINES[:5]) + "\n")
    app = BrowseApp([str(path)], follow_every=0.1)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and len(app.view.table) == 5)
        with path.open("a") as out:
            out.write(LINES[5] + "\n" + LINES[6][:40])  # the last line is still being written
        await wait_until(pilot, lambda: len(app.view.table) == 6)
        with path.open("a") as out:
            out.write(LINES[6][40:] + "\n")
        await wait_until(pilot, lambda: len(app.view.table) == 7)
        assert not app.all_problems()
        replacement = path.with_suffix(".tmp")
        replacement.write_text("\n".join(LINES[:2]) + "\n")
        replacement.replace(path)  # rewritten atomically, as `watch` does
        await wait_until(pilot, lambda: len(app.view.table) == 2)


async def test_replacing_a_followed_file_often_leaves_one_timer(files: list[Path]) -> None:
    path = files[0]
    path.write_text("\n".join(LINES[:3]) + "\n")
    app = BrowseApp([str(path)], follow_every=0.05)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and len(app.view.table) == 3)
        for n in range(50):
            replacement = path.with_suffix(".tmp")
            count = 2 + n % 2
            replacement.write_text("\n".join(LINES[:count]) + "\n")
            replacement.replace(path)
            await wait_until(pilot, lambda: len(app.view.table) == count)
        timers = [t for t in app._timers if t._callback == app._follow]
        assert len(timers) == 1  # before: one more timer per reload, and the idle CPU grew


async def test_a_file_rewritten_in_place_is_read_again(files: list[Path]) -> None:
    path = files[0]
    path.write_text(LINES[0] + "\n")
    app = BrowseApp([str(path)], follow_every=0.05)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and len(app.view.table) == 1)
        group = app.view.table.text["group"][0]
        changed = LINES[0].replace(group, "x" * len(group), 1)  # same length, same file, new content
        assert len(changed) == len(LINES[0]) and changed != LINES[0]
        stat = path.stat()
        with path.open("r+") as out:
            out.write(changed + "\n")
        # (the kernel stamps files with a coarse clock: make the rewrite's time differ, as a later
        # write's would)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))
        await wait_until(pilot, lambda: app.view.table.text["group"][0] == "x" * len(group))


async def test_extension_files_show_their_summary(tmp_path: Path) -> None:
    from tui.cli import main

    from .. import trees

    root = tmp_path / "suite"
    trees.xrt_project(root)
    trees.aie_project(root)
    assert main(["collect", str(root), "-o", str(tmp_path / "r.jsonl"), "--quiet"]) == 0
    app = BrowseApp([str(tmp_path / "r.ext.jsonl")])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and app.checked)
        assert not app.all_problems()
        view = app.view
        summaries = sorted(view.table.text["summary"][i] for i in view.rows)
        assert summaries[-1] == "valid, 0 schema warnings, 3 runs in 2 cpu + 1 npu runlists"
        await pilot.press("slash", *"type:xrt_recipe", "enter")
        await wait_until(pilot, lambda: len(view.rows) == 1)


async def test_a_load_in_small_batches_shows_every_record_and_not_the_refused(
    files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from collectors.records import loader

    monkeypatch.setattr(loader, "BATCH_ROWS", 2)  # many batches, each waiting for room
    monkeypatch.setattr(loader, "FIRST_BATCH_BYTES", 1500)
    app = BrowseApp([str(f) for f in files])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and app.checked)
        table = app.view.table
        assert list(table.raw) == LINES + [table.raw[-1]] and len(table) == 11
        assert table.invalid == table.dead == {11}  # the harness's record of schema 2.0, its file's line 2
        assert table.sources[11] == f"{files[1]}:2" and 11 not in app.view.rows
        await wait_until(pilot, lambda: info(app).startswith("11 of 11 records"))  # (its own message)
        assert [str(p) for p in app.all_problems() if p.path == f"{files[1]}:2"] == [
            f"{files[1]}:2: $.schema_version: '1.0' was expected"
        ]
        assert not app.checked_here  # in a process of its own (it once fell back to this one, silently)


async def test_a_line_a_piece_took_that_is_no_record_goes_once_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A piece of a large file reads lines straight into rows (quick.py), a key given twice
    included; the check that follows names such a line, and its row goes (as a line read one by
    one never shows): the problem listed once."""
    from collectors.records import loader

    monkeypatch.setattr(loader, "FIRST_BATCH_BYTES", 1500)  # the rest in pieces, prepared in children
    monkeypatch.setattr(loader, "PIECE_BYTES", 5000)
    monkeypatch.setattr(loader, "PIECES_FROM_BYTES", 5000)
    lines = [line.replace('"name":"', f'"name":"c{n}_', 1) for n in range(4) for line in LINES]
    twice = lines[30].replace('{"schema_version":"1.0",', '{"schema_version":"1.0","schema_version":"1.0",', 1)
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join([*lines[:30], twice, *lines[31:]]) + "\n")
    app = BrowseApp([str(path)])
    async with app.run_test(size=(200, 50)) as pilot:
        shown = f"{len(lines) - 1} of {len(lines) - 1} records"
        await wait_until(pilot, lambda: app.loaded and app.checked and info(app).startswith(shown))
        table = app.view.table
        assert len(table) == len(lines) - 1 and table.dead == {30} and 30 in table.invalid
        assert 30 not in app.view.rows
        assert [str(p) for p in app.all_problems()] == [
            f"{path}:31: invalid JSON at column 25: key 'schema_version' repeated in one object"
        ]


async def test_browse_takes_on_the_load_begun_before_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command begins the load before the interface is imported (loader.head_start); the app
    takes it on: every record shown once, the others' children started after the first paint."""
    from collectors.records import loader

    monkeypatch.setattr(loader, "FIRST_BATCH_BYTES", 1500)
    monkeypatch.setattr(loader, "PIECE_BYTES", 5000)
    monkeypatch.setattr(loader, "PIECES_FROM_BYTES", 5000)
    lines = [line.replace('"name":"', f'"name":"c{n}_', 1) for n in range(4) for line in LINES]
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(lines) + "\n")
    head = loader.head_start(str(path))
    assert head is not None
    app = BrowseApp([str(path)], head=head)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and app.checked)
        await wait_until(pilot, lambda: info(app).startswith(f"{len(lines)} of {len(lines)} records"))
        assert not app.all_problems()
        assert list(app.view.table.raw) == lines and app.preparers is head.preparers and head.preparers.closed


async def export_closed_once(pilot, app: BrowseApp, target: Path, started: threading.Event) -> list:
    """Export the records to `target`, and close the dialog once `started` is set: the export
    workers, the dialog gone."""
    await wait_until(pilot, lambda: app.loaded)
    await pilot.press("e")
    await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen))
    app.screen.query_one("#export-path").value = str(target)
    await pilot.click("#export-go")
    await wait_until(pilot, started.is_set)
    workers = [w for w in app.workers if w.group == "export"]
    await pilot.press("escape")
    return workers


async def test_an_export_under_way_stops_when_its_dialog_is_closed(
    files: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26 (quit means quit): an export is written in a worker, the interface answering
    meanwhile (a million records: 1.5-3.5 s, when it ran on the interface's thread no key was
    read until it ended). Closed while it writes, it stops at its next piece: nothing written,
    no temporary file left."""
    import tui.screens.export as export_screen

    writing, closed, ended = threading.Event(), threading.Event(), threading.Event()
    pieces: list[str] = []

    def slow_pieces(*_args: object) -> Iterator[str]:
        try:
            for number in range(10_000):
                if number == 1:
                    writing.set()
                    closed.wait(10)
                pieces.append("x")
                yield "line\n"
        finally:
            ended.set()

    monkeypatch.setattr(export_screen, "plan_pieces", slow_pieces)
    target = tmp_path / "out" / "records.csv"
    target.parent.mkdir()
    app = BrowseApp([str(files[0])])
    async with app.run_test(size=(200, 50)) as pilot:
        await export_closed_once(pilot, app, target, writing)
        await wait_until(pilot, lambda: not isinstance(app.screen, ExportScreen))
        closed.set()
        await wait_until(pilot, ended.is_set)
    assert len(pieces) <= 2 and not target.exists() and list(target.parent.iterdir()) == []


async def test_an_export_closed_while_its_file_is_synced_is_not_put_in_place(
    files: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second review of 3043c05: the export looked at its cancellation between pieces only;
    closed during the fsync of its last one (a large file's takes a while), the file was still
    put in place. It is looked at once more before the rename."""
    from collectors.records import store

    syncing, closed = threading.Event(), threading.Event()
    real_fsync = store.os.fsync

    def slow_fsync(descriptor: int) -> None:
        syncing.set()
        closed.wait(10)
        real_fsync(descriptor)

    monkeypatch.setattr(store.os, "fsync", slow_fsync)
    target = tmp_path / "out" / "records.csv"
    target.parent.mkdir()
    app = BrowseApp([str(files[0])])
    async with app.run_test(size=(200, 50)) as pilot:
        (write,) = await export_closed_once(pilot, app, target, syncing)
        await wait_until(pilot, lambda: not isinstance(app.screen, ExportScreen))
        closed.set()  # the temporary file goes, removed or renamed
        await wait_until(pilot, lambda: not [p for p in target.parent.iterdir() if p.name.endswith(".tmp")])
    assert write.is_cancelled and list(target.parent.iterdir()) == []


async def test_a_column_widens_to_what_is_appended_up_to_its_widest(files: list[Path]) -> None:
    """Rows appended (in a row: their widths read off a slice of the column) widen a column to
    their widest value, never past MAX_WIDTH; a column that wide is measured no more."""
    from tui.widgets.records_view import MAX_WIDTH

    path = files[0]
    path.write_text("\n".join(LINES[:5]) + "\n")
    app = BrowseApp([str(path)], follow_every=0.1)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and len(app.view.table) == 5)
        before = app.view.width_of("variant")
        assert before < 20
        for n, name in enumerate(["v" * 20, "w" * 60, "x" * 70], start=6):
            record = json.loads(LINES[0])
            record["implementation"]["variant"]["name"] = name
            with path.open("a") as out:
                out.write(json.dumps(record) + "\n")
            await wait_until(pilot, lambda n=n: len(app.view.table) == n)
            assert app.view.width_of("variant") == min(MAX_WIDTH, len(f"0_{name}"))


async def test_marks_stay_on_their_records_through_a_reload(tmp_path: Path) -> None:
    """Marks hold on to records, not rows: the file replaced by one with its lines in another
    order and one record fewer is loaded again, and the same records are marked; the mark of
    the record the file no longer holds is counted, and comes back with its record."""
    path = tmp_path / "results.jsonl"
    path.write_text(EXPECTED.read_text())
    app = BrowseApp([str(path)], follow_every=0.05)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        view = app.view
        await pilot.press("home", "space", "space", "space")  # the first three records
        marked = view.table.raw.many(view.selection())
        first = view.table
        replacement = tmp_path / "new.jsonl"
        replacement.write_text("\n".join([*reversed(LINES[1:])]) + "\n")  # (the first record gone)
        os.replace(replacement, path)
        await wait_until(pilot, lambda: view.table is not first and app.loaded and len(view.table) == 10)
        assert len(view.marks) == 3 and view.table.raw.many(view.selection()) == marked[1:][::-1]
        assert info(app).startswith("10 of 10 records │ 3 marked")
        second = view.table
        replacement.write_text(EXPECTED.read_text())
        os.replace(replacement, path)
        await wait_until(pilot, lambda: view.table is not second and app.loaded and len(view.table) == 11)
        assert view.table.raw.many(view.selection()) == marked
        await pilot.press("u")
        assert not view.marks and info(app).startswith("11 of 11 records │ 0 marked")
