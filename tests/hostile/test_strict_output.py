"""Every record is checked against its schema before it is written, and the
output is strict JSON. The parsers' own checks stop bad numbers first (test_numbers.py); here a
parser is made to let them through, to show that the last line of defence holds on its own."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from collectors.collect import artifacts
from collectors.records.model import dumps

from .. import trees
from .conftest import records

BAD_TOTALS = [
    (-5, "$.rtl_sim.kernel_runtime_cycles: -5 is less than the minimum of 0"),
    ("0x10", "$.rtl_sim.kernel_runtime_cycles: '0x10' is not of type 'integer', 'null'"),
    (float("inf"), "a number that is not finite (NaN or Infinity)"),
    (float("nan"), "a number that is not finite (NaN or Infinity)"),
]


def lat_parser_returning(total: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lat.rpt parser that lets any value through (as a parser bug would)."""

    def parse(data: bytes) -> dict[str, Any]:
        return {"values": {}, "total_execute_time": total, "issues": []}

    monkeypatch.setitem(
        artifacts.ARTIFACTS, "lat_rpt", dataclasses.replace(artifacts.ARTIFACTS["lat_rpt"], parse=parse)
    )


@pytest.mark.parametrize(("total", "reason"), BAD_TOTALS, ids=["negative", "hex-text", "inf", "nan"])
def test_record_its_schema_rejects_is_a_problem_not_a_line(
    tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch, total: Any, reason: str
) -> None:
    lat_parser_returning(total, monkeypatch)
    project = trees.hls_two_solutions(tmp_path / "root")
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(tmp_path / "root"), "-o", str(out), "--strict")
    assert ran.code == 1
    assert ran.problems == [
        f"{project}: rtl_sim record of vitis.cosim on xc7z030-sbv485-1 not written: {reason}",
    ]
    written = records(out)
    assert sorted(r["report_type"] for r in written) == ["hls_synth", "sw_run"]
    assert "NaN" not in out.read_text() and "Infinity" not in out.read_text()
    check = cli("validate", str(out))
    assert check.code == 0, check.out


def test_without_strict_the_exit_is_still_0(tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    lat_parser_returning(-5, monkeypatch)
    trees.hls_two_solutions(tmp_path / "root")
    ran = cli("collect", str(tmp_path / "root"), "-o", str(tmp_path / "out.jsonl"))
    assert ran.code == 0 and len(ran.problems) == 1


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_dumps_refuses_non_finite_numbers(value: float) -> None:
    with pytest.raises(ValueError):
        dumps({"x": value})
    assert json.loads(dumps({"x": 1.5})) == {"x": 1.5}
