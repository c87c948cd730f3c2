"""Records written by another producer (an LLM C-to-HLS harness): validate, filter, columns,
aliases, export and the detail screen on its real files (tests/fixtures/producers)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from collectors.aliases import Aliases
from collectors.collect.config import ConfigError, settings_for_records
from collectors.records.loader import load_files, schema_problems
from collectors.records.query import parse
from collectors.records.table import RecordTable, default_columns
from tui.browse import BrowseApp
from tui.cli import main, version

from ..conftest import FIXTURES, wait_until

PRODUCERS = FIXTURES / "producers"
DEVSTRAL = PRODUCERS / "c2hls__devstral2_flash_cosim__first18.jsonl"
BASELINE = PRODUCERS / "c2hls__hlsfactory_baseline_cosim__excerpt17.jsonl"
ARTIFACTS = PRODUCERS / "c2hls__artifacts__schema_records.jsonl"
SONNET = PRODUCERS / "c2hls__u280_sonnet_vs_gold__first35.jsonl"
HW_EMU = PRODUCERS / "c2hls__references__hw_emu_u280.jsonl"


def table_of(*paths: Path, aliases: Aliases | None = None) -> RecordTable:
    table, _followed, problems, _rows = load_files([str(p) for p in paths], RecordTable(aliases or Aliases()))
    assert problems == []
    return table


def count(table: RecordTable, query: str) -> int:
    return len(table.view(parse(query), None, False))


# --- validate -----------------------------------------------------------------------------------------


def test_fields_not_in_the_contract_are_warnings_once_per_path(capsys: pytest.CaptureFixture) -> None:
    assert main(["validate", str(DEVSTRAL)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{DEVSTRAL}: warning: rtl_sim.error: not in schema 1.0 (6 lines)",
        f"{DEVSTRAL}: warning: run.clock_ns: not in schema 1.0 (18 lines)",
        f"{DEVSTRAL}: warning: run.flow_target: not in schema 1.0 (18 lines)",
        f"{DEVSTRAL}: warning: sw_run.error: not in schema 1.0 (6 lines)",
        f"{DEVSTRAL}: 18 lines, 18 valid, 0 invalid, 4 warnings (schema 1.0 contract)",
    ]
    assert main(["validate", "--strict", str(DEVSTRAL)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [
        f"{DEVSTRAL}:1: run.flow_target: not in schema 1.0",
        f"{DEVSTRAL}:1: run.clock_ns: not in schema 1.0",
    ]
    assert len(out) == 18 + 18 + 6 + 6 + 1
    assert out[-1] == f"{DEVSTRAL}: 18 lines, 0 valid, 18 invalid (schema 1.0, strict)"


def test_repeated_record_keys_are_warnings_naming_both_lines(capsys: pytest.CaptureFixture) -> None:
    assert main(["validate", str(ARTIFACTS)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{ARTIFACTS}:55: warning: record key repeats line 51"
    assert len(out) == 41
    assert out[-1] == f"{ARTIFACTS}: 98 lines, 98 valid, 0 invalid, 40 warnings (schema 1.0 contract)"
    assert main(["validate", "--strict", "--quiet", str(ARTIFACTS), str(BASELINE), str(HW_EMU)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{ARTIFACTS}: 98 lines, 58 valid, 40 invalid (schema 1.0, strict)",
        f"{BASELINE}: 17 lines, 0 valid, 17 invalid (schema 1.0, strict)",
        f"{HW_EMU}: 96 lines, 96 valid, 0 invalid (schema 1.0, strict)",
    ]


def test_browse_and_export_use_the_same_verdicts() -> None:
    """The lines validate accepts are the rows export keeps; warnings are the same text."""
    table, _followed, problems, rows = load_files([str(DEVSTRAL), str(ARTIFACTS)])
    found = [str(p) for p in problems + schema_problems(table, rows)]
    assert table.invalid == set()
    assert f"{DEVSTRAL}: warning: run.clock_ns: not in schema 1.0 (18 lines)" in found
    assert f"{ARTIFACTS}:55: warning: record key repeats line 51" in found
    assert len(found) == 4 + 40


def test_version(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"vitis-tui {version()}\n" and version() == "0.1.0"
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "(version 0.1.0)" in " ".join(capsys.readouterr().out.split())


# --- filters and columns ------------------------------------------------------------------------------


def test_meta_and_origin_version_filters() -> None:
    table = table_of(SONNET)
    assert count(table, "meta.model:claude*") == 23
    assert count(table, "meta.model!=claude*") == 12  # the ground truths have no origin_meta
    assert count(table, "origin_version:*no_skills") == 12
    assert count(table, "origin_version:*base_skills type:rtl_sim") == 3  # the excerpt cuts the fourth
    assert count(table, "claude") == 23  # free text searches origin_meta
    devstral = table_of(DEVSTRAL)
    assert count(devstral, "run.clock_ns<3.4") == 18  # a field the contract does not name
    assert count(devstral, '"C TB simulation failed"') == 1  # free text searches it too
    assert count(devstral, "note:*COSIM*") == 1
    assert count(devstral, "version:2023.2 index=0") == 18


def test_columns_show_only_what_differs() -> None:
    columns, shared = default_columns(table_of(HW_EMU))
    assert columns == ["group", "variant", "status", "cycles", "us", "runtime"]
    assert shared == {
        "type": "rtl_sim",
        "suite": "rodinia_hls",
        "origin": "rodinia_hls_benchmark",
        "origin_version": "2023_port",
        "target": "vitis.hw_emu",
        "device": "xilinx_u280_gen3x16_xdma_1_202211_1",
        "vitis": "2023.2",
    }
    columns, shared = default_columns(table_of(SONNET))  # two AI setups and the ground truth
    assert columns[3:6] == ["origin", "origin_version", "meta.model"] and "note" not in columns
    assert "meta.model" in default_columns(table_of(SONNET, DEVSTRAL))[0]
    assert "meta.model" not in default_columns(table_of(DEVSTRAL))[0]  # one model: in the header line
    assert default_columns(table_of(DEVSTRAL))[1]["meta.model"] == "mistralai/Devstral-2-123B-Instruct-2512"


def test_export_columns_and_counts(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "x.csv"
    columns = "group,type,meta.model,run.clock_ns,note"
    args = ["export", str(DEVSTRAL), "--filter", "status:fail", "--format", "csv", "--columns", columns]
    assert main([*args, "-o", str(out)]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"{DEVSTRAL}: warning: rtl_sim.error: not in schema 1.0 (6 lines)",
        f"{DEVSTRAL}: warning: run.clock_ns: not in schema 1.0 (18 lines)",
        f"{DEVSTRAL}: warning: run.flow_target: not in schema 1.0 (18 lines)",
        f"{DEVSTRAL}: warning: sw_run.error: not in schema 1.0 (6 lines)",
        f"1 of 18 records -> {out}",
    ]
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert rows[0] == ["group", "type", "meta.model", "run.clock_ns", "note"]
    assert rows[1][:4] == ["cholesky", "rtl_sim", "mistralai/Devstral-2-123B-Instruct-2512", "3.33"]
    assert rows[1][4].startswith("ERROR: [COSIM 212-359] Aborting co-simulation: C TB simulation failed")
    assert "\n" not in rows[1][4] and "\\n" in rows[1][4]  # control characters escaped
    jsonl = tmp_path / "x.jsonl"
    assert main(["export", str(DEVSTRAL), "-o", str(jsonl)]) == 0
    assert jsonl.read_bytes() == DEVSTRAL.read_bytes()  # every byte of what the producer wrote
    assert main(["export", str(DEVSTRAL), "--list-columns"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert {"origin_version", "index", "vitis", "part", "note", "meta.model", "run.clock_ns", "rtl_sim.error"} <= set(
        listed
    )


# --- aliases -------------------------------------------------------------------------------------------


def test_dash_and_underscore_pair_up_in_group_paths() -> None:
    assert count(table_of(BASELINE), "group:fdtd-2d") == 1  # the record says fdtd_2d
    assert count(table_of(BASELINE, aliases=Aliases(loose_groups=False)), "group:fdtd-2d") == 0
    aliases = Aliases(suites={"hlsfactory": "hlsfactory_polybench_float_small"})
    fdtd = next(json.loads(line) for line in BASELINE.read_text().splitlines() if "fdtd_2d" in line)
    other = {"problem": {"suite": "hlsfactory_polybench_float_small", "group_path": ["fdtd-2d"]}}
    assert aliases.problem_key(fdtd) == aliases.problem_key(other) == ("hlsfactory_polybench_float_small", ("fdtd_2d",))
    assert Aliases().problem_key(fdtd) != Aliases().problem_key(other)


def test_aliases_from_configuration(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    config = tmp_path / "vitis-tui.toml"
    config.write_text(
        '[aliases.suite]\n"hlsfactory" = "hlsfactory_polybench_float_small"\n'
        '[aliases.device]\n"xilinx_u280_gen3x16_xdma_1_202211_1" = "xcu280-fsvh2892-2L-e"\n'
        '[aliases.group]\n"StreamCluster" = "streamcluster"\n'
    )
    aliases = settings_for_records(None, start=tmp_path).aliases
    table = table_of(BASELINE, DEVSTRAL, HW_EMU, aliases=aliases)
    assert count(table, "suite:hlsfactory_polybench_float_small") == 17 + 18
    assert count(table, "device:xcu280-fsvh2892-2L-e") == 17 + 18 + 96
    assert count(table, "group:streamcluster") == 5
    out = tmp_path / "x.jsonl"
    assert (
        main(["export", str(BASELINE), "--config", str(config), "--filter", "suite:hlsfactory_poly*", "-o", str(out)])
        == 0
    )
    assert out.read_bytes() == BASELINE.read_bytes()  # shown differently, written unchanged
    config.write_text('[aliases.suite]\n"x" = 3\n')
    with pytest.raises(ConfigError, match="maps spellings to non-empty names"):
        settings_for_records(str(config))
    assert main(["export", str(BASELINE), "--config", str(config)]) == 2
    assert "configuration error" in capsys.readouterr().err


# --- the detail screen --------------------------------------------------------------------------------


async def test_error_text_in_the_note_column_and_the_detail() -> None:
    app = BrowseApp([str(DEVSTRAL)])
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.loaded and app.checked)
        assert "note" in app.view.columns
        assert "meta.model" not in app.view.columns  # one model: shown once, above the table
        shared = app.query_one("#records-shared")  # (redrawn on a message of its own)
        await wait_until(pilot, lambda: "model: mistralai/Devstral-2-123B-Instruct-2512" in str(shared.render()))
        await pilot.press("slash", *"status:fail", "enter")
        await wait_until(pilot, lambda: len(app.view.rows) == 1)
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.screen.query("#detail-note")))
        note = str(app.screen.query_one("#detail-note").render())
        assert (
            note.splitlines()[0]
            == "ERROR: [COSIM 212-359] Aborting co-simulation: C TB simulation failed, nonzero return value '1'."
        )
        extra = str(app.screen.query_one("#detail-extra").render()).splitlines()
        assert extra[:2] == ['run.flow_target = "vitis"', "run.clock_ns = 3.33"]
