"""The headless commands: collect and validate, their output, exit codes and the schema."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from collectors.records.schema import load_schema
from collectors.records.validate import validate_stream
from tui.cli import main

from .. import trees
from ..conftest import EXPECTED_TREE as EXPECTED
from ..conftest import place


def test_collect_writes_expected_file_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    out = tmp_path / "out.jsonl"
    assert main(["collect", str(root), "-o", str(out)]) == 0
    assert out.read_bytes() == EXPECTED.read_bytes()
    err = capsys.readouterr().err.strip().splitlines()
    # the unbuilt nw project is no project that could yield records; fft_2_opt's older solution is a
    # problem (its path gives the variant); 8 build-output folders (_x.*, .run, proj, ...) pruned
    assert err[-1].startswith(
        "6 projects (and 1 not built), 8 runs, 11 records (5 hls_synth, 4 rtl_sim, 2 sw_run), 1 problem, "
        "8 build-output folders skipped, "
    )
    assert err[0].endswith(
        "/fft_2_opt/proj/solution1: solution1 not recorded: the path gives the variant (solution2 gives the records)"
    )


def test_collect_problems_strict_and_quiet(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    root = tmp_path / "suite"
    project = trees.hls_two_solutions(root)
    bad = place(project, "proj/solution2/sim/report/verilog/lat.rpt", text='$MAX_LATENCY = "9')
    out = tmp_path / "out.jsonl"
    assert main(["collect", str(root), "-o", str(out)]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert f"{bad}: line 1 is not a '$NAME = \"value\"' line (file cut short?)" in lines
    assert main(["collect", str(root), "-o", str(out), "--strict"]) == 1
    capsys.readouterr()
    assert main(["collect", str(root), "-o", str(out), "--strict", "--quiet"]) == 1
    assert capsys.readouterr().err == ""


def test_collect_identity_flags(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    trees.runner_timeout(root)
    out = tmp_path / "out.jsonl"
    assert (
        main(["collect", str(root), "-o", str(out), "--suite", "s", "--origin", "agent", "--origin-version", "v7"]) == 0
    )
    record = json.loads(out.read_text().splitlines()[0])
    assert record["problem"]["suite"] == "s"
    assert (record["implementation"]["origin"], record["implementation"]["origin_version"]) == ("agent", "v7")


def test_collect_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["collect", str(tmp_path / "missing"), "-o", str(tmp_path / "o.jsonl")]) == 3
    assert "no such directory" in capsys.readouterr().err
    assert main(["collect", "/dev/zero", "-o", str(tmp_path / "o.jsonl")]) == 3  # (there: no directory)
    assert capsys.readouterr().err == "/dev/zero: is not a directory\n"
    assert main(["collect", str(tmp_path), "-o", str(tmp_path / "nodir" / "o.jsonl")]) == 3
    assert "output not writable" in capsys.readouterr().err
    (tmp_path / "vitis-tui.toml").write_text("suite = 1\n")
    assert main(["collect", str(tmp_path), "-o", str(tmp_path / "o.jsonl")]) == 2
    assert "configuration error" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["collect"])
    assert usage.value.code == 2


def test_output_file_is_never_collected_from_and_stays_sorted(tmp_path: Path) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    out = root / "Benchmarks" / "results.jsonl"
    assert main(["collect", str(root), "-o", str(out), "--quiet"]) == 0
    first = out.read_bytes()
    assert main(["collect", str(root), "-o", str(out), "--quiet"]) == 0
    assert out.read_bytes() == first
    assert not list(out.parent.glob(".vitis-tui-*"))  # no temporary file left behind


def test_validate_good_and_broken_lines(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    good = EXPECTED.read_text().splitlines()
    record = json.loads(good[0])
    broken = [
        good[0],
        '{"schema_version": "1.0", ',  # 2: JSON syntax
        json.dumps({**record, "schema_version": "2.0"}),  # 3: wrong version
        json.dumps({k: v for k, v in record.items() if k != "sw_run"}),  # 4: payload missing
        json.dumps({**record, "implementation": {**record["implementation"], "variant": None}}),  # 5
        json.dumps({**record, "run": {**record["run"], "target": "vitis.cosim"}}),  # 6: pair not allowed
        json.dumps({**record, "hls_synth": {"status": "pass"}}),  # 7: two payloads
        good[0],  # 8: duplicate key
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(broken) + "\n")
    assert main(["validate", str(path), str(EXPECTED)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"{path}:2: invalid JSON at column 27: Expecting property name enclosed in double quotes" in out
    assert f"{path}:3: $.schema_version: '1.0' was expected" in out
    assert f"{path}:4: $: 'sw_run' is a required property" in out
    assert f"{path}:5: $.implementation.variant: None is not of type 'object'" in out
    assert f"{path}:6: $.run.target: 'vitis.cosim' is not one of ['vitis.sw_emu', 'vitis.csim']" in out
    assert f"{path}:7: $.hls_synth: payload not allowed here: the one payload must be named by report_type" in out
    assert f"{path}:8: warning: record key repeats line 1" in out  # an error only with --strict
    assert f"{path}: 8 lines, 2 valid, 6 invalid, 1 warning (schema 1.0 contract)" in out
    assert f"{EXPECTED}: 11 lines, 11 valid, 0 invalid (schema 1.0 contract)" in out
    assert main(["validate", "--strict", "--quiet", str(path)]) == 1
    assert capsys.readouterr().out == f"{path}: 8 lines, 1 valid, 7 invalid (schema 1.0, strict)\n"


def test_validate_hls_synth_rules(tmp_path: Path) -> None:
    lines = [json.loads(line) for line in EXPECTED.read_text().splitlines()]
    synth = next(r for r in lines if r["report_type"] == "hls_synth" and r["hls_synth"]["status"] == "pass")
    numeric = json.loads(json.dumps(synth))
    numeric["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] = 7295
    nulls = json.loads(json.dumps(synth))
    nulls["hls_synth"]["AreaEstimates"] = None
    extra = json.loads(json.dumps(synth))
    extra["hls_synth"]["UserAssignments"]["PipelineType"] = "no"
    rtl = next(r for r in lines if r["report_type"] == "rtl_sim" and r["rtl_sim"]["kernel_runtime_cycles"])
    float_cycles = json.loads(json.dumps(rtl))
    float_cycles["rtl_sim"]["kernel_runtime_cycles"] = 2024.5
    text = "\n".join(json.dumps(r) for r in (numeric, nulls, extra, float_cycles)) + "\n"
    report = validate_stream("x", io.BytesIO(text.encode()))
    messages = [m for _, m in report.errors]
    assert "$.hls_synth.AreaEstimates.Resources.LUT: 7295 is not of type 'string', 'null'" in messages
    assert "$.hls_synth.AreaEstimates: None is not of type 'object'" in messages  # pass needs objects
    assert report.warnings() == [(None, "hls_synth.UserAssignments.PipelineType: not in schema 1.0 (1 line)")]
    strict = validate_stream("x", io.BytesIO(text.encode()), strict=True)
    assert (3, "hls_synth.UserAssignments.PipelineType: not in schema 1.0") in strict.errors
    assert "$.rtl_sim.kernel_runtime_cycles: 2024.5 is not of type 'integer', 'null'" in messages


def test_validate_reads_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "validate", "-"],
        input=EXPECTED.read_text(),
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 0
    assert done.stdout.strip() == "<stdin>: 11 lines, 11 valid, 0 invalid (schema 1.0 contract)"


def test_schema_is_draft_2020_12() -> None:
    assert load_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_headless_commands_never_import_textual(tmp_path: Path) -> None:
    code = (
        "import sys; from tui.cli import main; "
        f"main(['collect', {str(tmp_path)!r}, '-o', {str(tmp_path / 'o.jsonl')!r}, '--quiet']); "
        "main(['validate', '--quiet', " + repr(str(EXPECTED)) + "]); "
        "import collectors.collect.engine, collectors.demo; "
        "assert not [m for m in sys.modules if m.startswith('textual')], 'textual imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr


def test_fast_and_full_validators_agree() -> None:
    from collectors.records.validate import is_valid, record_errors

    good = [json.loads(line) for line in EXPECTED.read_text().splitlines()]
    broken = []
    for record in good:
        for mutate in (
            lambda r: r.update(schema_version="2.0"),
            lambda r: r["run"].update(target="vitis.hw"),
            lambda r: r["implementation"].update(variant=None),
            lambda r: r.update(extra=1),
            lambda r: r[r["report_type"]].update(status="ok"),
        ):
            copy = json.loads(json.dumps(record))
            mutate(copy)
            broken.append(copy)
    assert all(is_valid(r) and record_errors(r) == [] for r in good)
    assert all(not is_valid(r) and record_errors(r) for r in broken)
