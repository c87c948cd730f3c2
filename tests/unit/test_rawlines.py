"""The table's original lines, compressed in blocks: read back exactly, in any order."""

from __future__ import annotations

import random

import pytest

from collectors.records.rawlines import BLOCK_ROWS, RawLines

LINES = [f'{{"n":{n},"text":"line {n} ü 😀"}}' for n in range(3 * BLOCK_ROWS + 17)]


def filled(lines: list[str], step: int = 700) -> RawLines:
    raw = RawLines()
    for start in range(0, len(lines), step):  # (batches that straddle the blocks' edges)
        raw.extend(lines[start : start + step])
    return raw


def test_every_line_comes_back_as_it_went_in() -> None:
    raw = filled(LINES)
    assert len(raw) == len(LINES) and list(raw) == LINES
    assert raw[0] == LINES[0] and raw[BLOCK_ROWS] == LINES[BLOCK_ROWS] and raw[-1] == LINES[-1]
    assert raw._blocks and all(isinstance(block, bytes) for block in raw._blocks)  # compressed


def test_many_opens_each_block_once_in_any_order() -> None:
    raw = filled(LINES)
    rows = list(range(len(LINES)))
    random.Random(7).shuffle(rows)
    assert raw.many(rows) == [LINES[i] for i in rows]


def test_a_replaced_line_is_read_back_in_a_block_and_in_the_tail() -> None:
    raw = filled(LINES)
    raw[5] = "five"
    raw[-1] = "last"
    raw.extend(LINES[:BLOCK_ROWS])  # the old tail (with its replaced line) is compressed now
    assert raw[5] == "five" and raw[len(LINES) - 1] == "last" and raw.many([5, 6]) == ["five", LINES[6]]
    assert list(raw)[len(LINES) :] == LINES[:BLOCK_ROWS]


def test_a_line_holding_a_newline_keeps_its_block_uncompressed() -> None:
    lines = LINES[:BLOCK_ROWS]
    lines[3] = "two\nparts"
    raw = filled(lines)
    assert list(raw) == lines


def test_a_row_past_either_end_is_an_index_error() -> None:
    raw = filled(LINES[:3])
    with pytest.raises(IndexError):
        raw[3]
    with pytest.raises(IndexError):
        raw[-4]


def test_blocks_compressed_elsewhere_follow_the_open_tail() -> None:
    import zlib

    raw = filled(LINES[:1500])  # one full block and 476 lines still open
    piece = LINES[1500:2100]
    raw.extend_blocks(
        [(400, zlib.compress("\n".join(piece[:400]).encode())), (200, zlib.compress("\n".join(piece[400:]).encode()))]
    )
    raw.extend(LINES[2100:])
    assert len(raw) == len(LINES) and list(raw) == LINES
    rows = list(range(len(LINES)))
    random.Random(3).shuffle(rows)
    assert raw.many(rows) == [LINES[i] for i in rows]
    raw[1700] = "replaced"
    assert raw[1700] == "replaced" and raw[1699] == LINES[1699] and raw[1701] == LINES[1701]
