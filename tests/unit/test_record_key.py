"""Record keys: tuples, their strings shared between keys, yet equal, hashed and ordered as
plain values (dedupe, marks, collect's output order all rest on this)."""

from __future__ import annotations

import json
import pickle

import pytest

from collectors.records.model import RecordKey, key_of, sort_order

from ..conftest import EXPECTED_TREE

LINES = EXPECTED_TREE.read_text().splitlines()


def test_keys_of_separately_parsed_lines_are_equal_and_share_their_strings() -> None:
    first, second = key_of(json.loads(LINES[0])), key_of(json.loads(LINES[0]))
    assert first == second and hash(first) == hash(second) and first is not second
    assert first.suite is second.suite and first.group_path is second.group_path
    assert first.device is second.device and first.report_type is second.report_type
    assert {first: 1}[second] == 1
    assert not hasattr(first, "__dict__")  # slotted: a large browse holds one per row


def test_a_null_origin_version_sorts_first_whichever_comparison_asks() -> None:
    key = RecordKey("s", ("g", "h"), "o", None, 2, "v", "hls_synth", "vitis.csynth", "xc7")
    assert key.order == ("s", ("g", "h"), "o", (0, ""), 2, "v", "hls_synth", "vitis.csynth", "xc7", "")
    assert sort_order(key) == key.order
    versioned = RecordKey("s", ("g", "h"), "o", "1.0", 2, "v", "hls_synth", "vitis.csynth", "xc7")
    assert key < versioned and key <= versioned and key != versioned  # (as a tuple: None < "1.0" raises)
    assert versioned > key and versioned >= key and max(key, versioned) is versioned
    assert sorted([versioned, key]) == [key, versioned]
    assert key == RecordKey("s", ("g", "h"), "o", None, 2, "v", "hls_synth", "vitis.csynth", "xc7")


def test_keys_survive_pickling_and_stay_frozen() -> None:
    key = key_of(json.loads(LINES[5]))
    copy = pickle.loads(pickle.dumps(key))
    assert type(copy) is RecordKey and copy == key and hash(copy) == hash(key) and copy.order == key.order
    with pytest.raises(AttributeError):
        key.suite = "other"  # type: ignore[misc]
