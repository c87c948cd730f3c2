"""Browse follows a file whatever happens to it: the view ends equal to the file's content.

The property test drives random sequences of what writers do to a file (appends, a line in
pieces, truncation, in-place rewrites shorter and longer, atomic replacement, deletion and
re-creation) against a running app while two other processes keep the cores busy, and compares
the table with the file once the file stays as it is.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.browse import BrowseApp

from ..conftest import EXPECTED_TREE as EXPECTED
from ..conftest import cores_kept_busy, wait_until

LINES = EXPECTED.read_text().splitlines()
SYNTH = next(n for n, line in enumerate(LINES) if '"LUT": "19589"' in line or '"LUT":"19589"' in line)


def numbered(count: int, lut: int = 21772) -> list[str]:
    """`count` distinct records (variant index n), the first with `lut` LUTs."""
    out = []
    for n in range(count):
        record = json.loads(LINES[SYNTH])
        record["implementation"]["variant"]["index"] = n
        if n == 0:
            record["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] = str(lut)
        out.append(json.dumps(record))
    return out


def shown(app: BrowseApp) -> list[str]:
    table = app.view.table
    return [table.raw[i] for i in sorted(app.view.rows)]


def on_disk(path: Path) -> list[str]:
    if not path.exists():
        return []
    lines = path.read_bytes().decode().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line for line in lines if line]


async def test_an_in_place_rewrite_that_grows_shows_the_new_values(tmp_path: Path) -> None:
    """`> file` keeps the inode: more lines than before, one value changed before the old end."""
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(numbered(3)) + "\n")
    app = BrowseApp([str(path)], follow_every=0.05)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and len(app.view.table) == 3)
        assert app.view.table.column("lut")[0] == "21772"
        inode = path.stat().st_ino
        with path.open("w") as out:  # truncated and written again, as the shell's `>` does
            out.write("\n".join(numbered(5, lut=99999)) + "\n")
        assert path.stat().st_ino == inode
        await wait_until(pilot, lambda: app.loaded and len(app.view.table) == 5)
        assert app.view.table.column("lut")[0] == "99999"
        assert shown(app) == on_disk(path)


async def test_a_replaced_file_is_checked_again(tmp_path: Path) -> None:
    """The schema check of a file replaced after its first check marks the new file's refused
    line (the checker's child, stopped for the reload, once failed the next check silently)."""
    path = tmp_path / "r.jsonl"
    refused = json.loads(numbered(1)[0])
    refused["schema_version"] = "2.0"
    path.write_text("\n".join([*numbered(3), json.dumps(refused)]) + "\n")
    app = BrowseApp([str(path)], follow_every=0.05)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and app.checked and app.view.table.invalid == {3})
        replacement = tmp_path / "new.jsonl"
        replacement.write_text("\n".join([json.dumps(refused), *numbered(4)]) + "\n")
        os.replace(replacement, path)
        await wait_until(pilot, lambda: app.loaded and app.checked and app.view.table.invalid == {0})
        assert len(app.view.table) == 4  # (the refused record shown no more)
        assert not app.checked_here


@pytest.mark.parametrize(
    ("kind", "why"),
    [("deleted", "no such file"), *((k, f"not a regular file ({k}), not read") for k in ("a FIFO", "a directory"))],
)
async def test_a_file_gone_empties_the_view_in_one_problem_and_its_return_is_read(
    tmp_path: Path, kind: str, why: str
) -> None:
    """Deleted, or replaced by no file: a FIFO in its place held the follow thread in open() for
    good (the view kept the old rows and never followed again); a directory failed every follow
    step, a new error line each time."""
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(numbered(4)) + "\n")
    app = BrowseApp([str(path)], follow_every=0.05)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and len(app.view.table) == 4)
        path.unlink()
        if kind == "a FIFO":
            os.mkfifo(path)
        elif kind == "a directory":
            path.mkdir()
        await wait_until(pilot, lambda: app.loaded and len(app.view.table) == 0)
        for _ in range(10):  # (ten follow steps: none says it again)
            await pilot.pause(0.05)
        assert [str(p) for p in app.all_problems()] == [f"{path}: {why}"]
        if kind != "deleted":
            path.unlink() if kind == "a FIFO" else path.rmdir()
        path.write_text("\n".join(numbered(2)) + "\n")
        await wait_until(pilot, lambda: app.loaded and len(app.view.table) == 2)
        assert shown(app) == on_disk(path) and not app.all_problems()


async def test_a_replacement_during_the_load_starts_it_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The load reads in steps; a file replaced between two steps was read forever before."""
    from collectors.records import loader

    monkeypatch.setattr(loader, "FIRST_BATCH_BYTES", 2000)
    monkeypatch.setattr(loader, "LAST_BATCH_BYTES", 2000)
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(numbered(60)) + "\n")
    app = BrowseApp([str(path)], follow_every=0.05)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: len(app.view.table) > 0)
        other = tmp_path / "r.tmp"
        other.write_text("\n".join(numbered(70, lut=5)) + "\n")
        other.replace(path)
        await wait_until(pilot, lambda: app.loaded and shown(app) == on_disk(path))


OPERATIONS = st.sampled_from(["append", "pieces", "truncate", "shorter", "longer", "replace", "delete", "create"])


def apply(path: Path, operation: str, size: int) -> None:
    lines = numbered(size, lut=size)
    if operation == "append":
        with path.open("a") as out:
            out.write("\n".join(lines[: size % 4 + 1]) + "\n")
    elif operation == "pieces":  # a line written in two parts, the file read between them
        with path.open("a") as out:
            out.write(lines[-1][:50])
            out.flush()
            os.sync()
            out.write(lines[-1][50:] + "\n")
    elif operation == "truncate":
        path.open("w").close()
    elif operation in ("shorter", "longer"):  # in place: the same inode
        keep = max(1, size // 3) if operation == "shorter" else size + 3
        with path.open("w") as out:
            out.write("\n".join(numbered(keep, lut=keep + 7)) + "\n")
    elif operation == "replace":
        other = path.with_suffix(".tmp")
        other.write_text("\n".join(lines) + "\n")
        other.replace(path)
    elif operation == "delete":
        path.unlink(missing_ok=True)
    else:
        path.write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def busy():
    with cores_kept_busy():
        yield


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(OPERATIONS, st.integers(1, 12), st.sampled_from([0, 0.02, 0.2])), max_size=12))
async def test_the_view_ends_equal_to_the_file_whatever_happened(tmp_path: Path, busy, steps) -> None:
    import asyncio
    import uuid

    path = tmp_path / f"{uuid.uuid4().hex}.jsonl"
    path.write_text("\n".join(numbered(5)) + "\n")
    app = BrowseApp([str(path)], follow_every=0.1)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        for operation, size, pause in steps:
            apply(path, operation, size)
            await asyncio.sleep(pause)
        await wait_until(pilot, lambda: app.loaded and not app._following and shown(app) == on_disk(path), 20)


async def test_the_footers_timer_after_the_screens_are_gone_does_nothing(tmp_path: Path) -> None:
    """The footer comes at the first paint or at one second (browse.py, _show_footer): a run that
    ended just then (CI, two cores kept busy) had no screen left to mount it on:
    ScreenStackError, and the test (or a `q` at that moment: exit 70) failed with it."""
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(numbered(3)) + "\n")
    app = BrowseApp([str(path)], follow_every=0.05)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded)
        for footer in app.query("Footer"):
            await footer.remove()
    assert not app.screen_stack
    app._show_footer()  # (the timer, late)
