"""The bulk of a large file prepared in child processes (preparers.py): the table and where the
file was read to are exactly those of a read line by line; a child that dies costs only time; a
file changed under the children is never shown as the one read; a cancel stops everything."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from collectors.records import loader
from collectors.records.follow import Followed
from collectors.records.loader import stream_files
from collectors.records.preparers import Preparers, PreparersGone
from collectors.records.table import RecordTable

from ..conftest import EXPECTED_TREE

LINES = EXPECTED_TREE.read_text().splitlines()


@pytest.fixture
def small_pieces(monkeypatch) -> None:
    monkeypatch.setattr(loader, "FIRST_BATCH_BYTES", 3000)  # a first read that stops inside a line
    monkeypatch.setattr(loader, "PIECE_BYTES", 5000)  # many pieces, each cut at a line's end
    monkeypatch.setattr(loader, "PIECES_FROM_BYTES", 5000)


def _write(path: Path, copies: int = 6) -> None:
    lines = [line.replace('"name":"', f'"name":"c{n}_', 1) for n in range(copies) for line in LINES]
    path.write_text("\n".join(lines[:7] + ["{broken", *lines[7:]]) + "\n")


def _load(path: Path, preparers: Preparers | None) -> tuple[RecordTable, list, list[Followed]]:
    table, problems, followed = RecordTable(), [], []
    for batch in stream_files([str(path)], table, preparers=preparers):
        assert not batch.replaced
        table.append(batch.rows)
        if batch.piece is not None:
            table.append_piece(batch.piece)
        problems += [str(p) for p in batch.problems]
        followed = batch.followed or followed
    return table, problems, followed


def _same(table: RecordTable, expected: RecordTable) -> None:
    assert table.keys == expected.keys and table.text == expected.text and table.dynamic == expected.dynamic
    assert list(table.raw) == list(expected.raw) and list(table.sources) == list(expected.sources)


@pytest.mark.parametrize("children", [0, 2])
def test_pieces_give_the_table_and_the_place_a_line_by_line_read_gives(
    children: int, small_pieces: None, tmp_path: Path
) -> None:
    path = tmp_path / "big.jsonl"
    _write(path)
    expected, expected_problems, expected_followed = _load(path, None)
    preparers = Preparers(children)
    try:
        table, problems, followed = _load(path, preparers)
    finally:
        preparers.close()
    assert len(table) == 6 * len(LINES) and problems == expected_problems == [
        f"{path}:8: invalid JSON at column 2: Expecting property name enclosed in double quotes"
    ]
    _same(table, expected)
    (source,), (plain,) = followed, expected_followed
    assert (source.offset, source.line, source.fingerprint.blocks, source.fingerprint.partial) == (
        plain.offset,
        plain.line,
        plain.fingerprint.blocks,
        plain.fingerprint.partial,
    ) and source.offset == path.stat().st_size


# what a child's stdout holds when it answers garbage (its stream out of step: a sampling
# profiler made one so): a length past any memory, bytes that are no pickle
GARBAGE = {"huge length": struct.pack("<Q", 1 << 62), "no pickle": struct.pack("<Q", 5) + b"\x80\x05junk"}


@pytest.mark.parametrize("harm", ["killed", *GARBAGE])
def test_a_child_that_dies_or_answers_garbage_costs_only_time(harm: str, small_pieces: None, tmp_path: Path) -> None:
    """One of the two children dies, or answers what is no answer: it is stopped and its pieces
    are prepared here; nothing is raised, nothing waits."""
    path = tmp_path / "big.jsonl"
    _write(path)
    expected, _, _ = _load(path, None)
    preparers = Preparers(2)
    preparers.give(str(path), _inode(path), 0, 1, path.read_bytes()[:0])  # (starts the children)
    assert preparers.take() is not None
    child = preparers._children[0]
    write_end = None
    if harm == "killed":
        child.kill()
    else:
        read_end, write_end = os.pipe()
        os.write(write_end, GARBAGE[harm])  # (the writer stays open: a reader that trusts the length waits)
        child.stdout = os.fdopen(read_end, "rb")
    try:
        table, _, _ = _load(path, preparers)
        assert child.poll() is not None
    finally:
        preparers.close()
        if write_end is not None:
            os.close(write_end)
    _same(table, expected)


def test_a_piece_read_otherwise_than_the_caller_read_it_is_no_piece(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text("\n".join(LINES) + "\n")
    data = path.read_bytes()
    preparers = Preparers(1)
    try:
        preparers.give(str(path), _inode(path), 0, 1, data.replace(b"pass", b"fail"))  # rewritten since
        preparers.give(str(path), (0, 0), 0, 1, data)  # another file by that name now
        preparers.give(str(path), _inode(path), 0, 1, data)
        assert preparers.take() is None and preparers.take() is None
        piece = preparers.take()
        assert piece is not None and len(piece) == len(LINES)
    finally:
        preparers.close()


def test_a_file_replaced_under_the_load_starts_it_over(small_pieces: None, tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "big.jsonl"
    _write(path)
    preparers = Preparers(1)
    real_give = preparers.give

    def give_then_replace(*args) -> None:  # the file is replaced once the first piece is given
        real_give(*args)
        replacement = tmp_path / "new.jsonl"
        replacement.write_text(LINES[0] + "\n")
        os.replace(replacement, path)

    monkeypatch.setattr(preparers, "give", give_then_replace)
    try:
        batches = list(stream_files([str(path)], RecordTable(), preparers=preparers))
    finally:
        preparers.close()
    assert batches[-1].replaced


def test_a_close_stops_the_pieces_under_way(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text("\n".join(LINES) + "\n")
    preparers = Preparers(1)
    preparers.give(str(path), _inode(path), 0, 1, path.read_bytes())
    children = list(preparers._children or [])
    preparers.close()
    assert [child.poll() for child in children] == [-9]  # killed, and waited for
    with pytest.raises(PreparersGone):
        preparers.take()
    with pytest.raises(PreparersGone):
        preparers.give(str(path), _inode(path), 0, 1, b"")


def _inode(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_dev, stat.st_ino


def test_a_line_longer_than_a_piece_is_read_line_by_line_then_pieces_go_on(small_pieces: None, tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    _write(path)
    lines = path.read_text().splitlines()
    long = lines[20].replace('"name":"', '"name":"' + "x" * 12000, 1)  # (longer than a piece)
    path.write_text("\n".join([*lines[:20], long, *lines[20:]]) + "\n")
    expected, expected_problems, _ = _load(path, None)
    preparers = Preparers(2)
    try:
        table, problems, followed = _load(path, preparers)
    finally:
        preparers.close()
    _same(table, expected)
    assert problems == expected_problems and followed[0].offset == path.stat().st_size
    assert sum("x" * 12000 in line for line in table.raw) == 1


def test_a_load_begun_before_the_interface_ends_as_a_load_from_the_start(small_pieces: None, tmp_path: Path) -> None:
    """browse begins the load before importing the interface (loader.head_start: the first read
    done, pieces given to one child); the load that takes it on gives the table and the place a
    line by line read gives, the children left unstarted until start_all."""
    path = tmp_path / "big.jsonl"
    _write(path)
    expected, expected_problems, expected_followed = _load(path, None)
    head = loader.head_start(str(path))
    assert head is not None and head.source.offset > 0 and head.preparers.pending()
    assert len(head.preparers._children or ()) == 1 and head.lines[0][0] == 1
    try:
        head.preparers.start_all()
        table, problems, followed = RecordTable(), [], []
        for batch in stream_files([str(path)], table, preparers=head.preparers, head=head):
            table.append(batch.rows)
            if batch.piece is not None:
                table.append_piece(batch.piece)
            problems += [str(p) for p in batch.problems]
            followed = batch.followed or followed
        assert len(head.preparers._children or ()) == head.preparers.count
    finally:
        head.preparers.close()
    _same(table, expected)
    assert problems == expected_problems and followed[0].offset == expected_followed[0].offset == path.stat().st_size
    assert followed[0].fingerprint.blocks == expected_followed[0].fingerprint.blocks


def test_no_load_is_begun_for_a_small_file_or_on_one_core(small_pieces: None, tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "small.jsonl"
    path.write_text(LINES[0] + "\n")
    assert loader.head_start(str(path)) is None
    _write(path)
    monkeypatch.setattr(loader, "usable_cores", lambda: 1)  # (pieces are prepared in the load's thread)
    assert loader.head_start(str(path)) is None
