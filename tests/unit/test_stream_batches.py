"""A load handed on in batches of at most BATCH_ROWS rows: every row arrives, in file order,
with its problems and its 'FILE:LINE' source, whatever the batch size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from collectors.records import loader
from collectors.records.loader import load_files, stream_files
from collectors.records.table import RecordTable

from ..conftest import EXPECTED_TREE

LINES = EXPECTED_TREE.read_text().splitlines()


@pytest.mark.parametrize("cap", [1, 2, 4, 1000])
def test_capped_batches_deliver_every_row_in_order(cap: int, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(loader, "BATCH_ROWS", cap)
    monkeypatch.setattr(loader, "FIRST_BATCH_BYTES", 2000)  # several reads as well
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(LINES[:5] + ["{not json"] + LINES[5:]) + "\n")
    table = RecordTable()
    batches = list(stream_files([str(path)], table))
    assert all(len(batch.rows) <= cap for batch in batches)
    assert batches[-1].followed is not None and batches[-1].followed[0].line == len(LINES) + 1
    for batch in batches:
        table.append(batch.rows)
    assert list(table.raw) == [
        json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":")) for line in LINES
    ]
    assert list(table.raw) == LINES  # the lines as written, byte for byte
    numbers = list(range(1, 6)) + list(range(7, len(LINES) + 2))
    assert list(table.sources) == [f"{path}:{n}" for n in numbers]
    problems = [str(p) for batch in batches for p in batch.problems]
    assert problems == [f"{path}:6: invalid JSON at column 2: Expecting property name enclosed in double quotes"]
    whole, _followed, _problems, _rows = load_files([str(path)])
    assert list(whole.raw) == list(table.raw) and whole.keys == table.keys
