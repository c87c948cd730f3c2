"""The collection rules' third edition on trees built in the shapes they describe: several
solutions of one HLS project, DSP primitive names, AI Engine run summaries, mapper snapshot files."""

from __future__ import annotations

from pathlib import Path

import pytest

from collectors.collect.config import load_settings
from collectors.collect.engine import Collection, Engine
from collectors.problems import Problem

from .. import trees_third as t3
from ..conftest import records_of
from ..trees import sources


def collect(root: Path) -> Collection:
    return Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)


def variant_rows(collection: Collection) -> list[tuple]:
    records, clashes = records_of(collection)
    assert clashes == []
    return [
        (
            r["implementation"]["variant"]["index"],
            r["implementation"]["variant"]["name"],
            r["report_type"],
            r["run"]["target"],
            r["run"]["device"],
            r[r["report_type"]]["status"],
        )
        for r in records
    ]


def test_three_solutions_are_three_variants_and_the_csim_one_keeps_its_verdict(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    t3.three_solutions(root)
    collection = collect(root)
    assert variant_rows(collection) == [
        (1, "solution1", "hls_synth", "vitis.cosim", "xc7z020clg400-1", "pass"),
        (1, "solution1", "rtl_sim", "vitis.cosim", "xc7z020clg400-1", "pass"),
        (2, "solution2", "hls_synth", "vitis.csynth", "xcvu11p-flga2577-1-e", "pass"),
        (3, "solution3", "sw_run", "vitis.csim", "unknown", "pass"),
    ]
    records, _ = records_of(collection)
    assert {r["problem"]["group_path"][0] for r in records} == {"gemm"}
    assert [r["hls_synth"]["AreaEstimates"]["Resources"]["DSP"] for r in records if "hls_synth" in r] == ["3", "8"]
    (result,) = collection.projects.values()
    assert [(run.variant, run.target) for run in result.runs][:1] == [
        ({"index": 1, "name": "solution1"}, "vitis.cosim")
    ]


def test_solutions_without_distinct_numbers_are_ranked_in_natural_order(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    p = t3.three_solutions(root)
    for old, new in (("solution1", "opt10"), ("solution2", "opt2"), ("solution3", "baseline")):
        (p / f"proj/{old}/{old}.aps").rename(p / f"proj/{old}/{new}.aps")
        (p / f"proj/{old}").rename(p / f"proj/{new}")
    rows = [row[:3] for row in variant_rows(collect(root))]
    # baseline ends in no number: ranks, with opt2 before opt10
    assert rows == [
        (0, "baseline", "sw_run"),
        (1, "opt2", "hls_synth"),
        (2, "opt10", "hls_synth"),
        (2, "opt10", "rtl_sim"),
    ]


def test_distinct_trailing_numbers_are_the_indexes(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    p = t3.three_solutions(root)
    (p / "proj/solution1/solution1.aps").rename(p / "proj/solution1/opt10.aps")
    (p / "proj/solution1").rename(p / "proj/opt10")
    rows = [row[:3] for row in variant_rows(collect(root))]
    assert rows == [
        (2, "solution2", "hls_synth"),
        (3, "solution3", "sw_run"),
        (10, "opt10", "hls_synth"),
        (10, "opt10", "rtl_sim"),
    ]


def test_path_gives_the_variant_so_the_other_solution_is_a_problem_line(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    p = t3.path_variant_two_solutions(root)
    collection = collect(root)
    assert variant_rows(collection) == [(2, "tiled", "hls_synth", "vitis.csynth", "xcvu11p-flga2577-1-e", "pass")]
    assert (
        Problem(
            str(p / "proj/solution1"),
            "solution1 not recorded: the path gives the variant (solution2 gives the records)",
        )
        in collection.problems()
    )


@pytest.mark.parametrize("primitive", ["DSP48E1", "DSP48A", "DSP48A1", "DSP48E2", "DSP58"])
def test_every_dsp_primitive_fills_dsp(tmp_path: Path, primitive: str) -> None:
    root = tmp_path / "suite"
    p = root / "Benchmarks/rgb/rgb_1_base"
    sources(p, "run_hls.tcl", "rgb.cpp")
    place_aps = p / "solution1/solution1.aps"
    place_aps.parent.mkdir(parents=True)
    place_aps.write_text("<solution/>\n")
    t3.csynth_with_dsp_name(p, "solution1/syn/report/csynth.xml", primitive)
    (record,), _ = records_of(collect(root))
    area = record["hls_synth"]["AreaEstimates"]
    assert (area["Resources"]["DSP"], area["AvailableResources"]["DSP"]) == ("3", "220")


def test_a_multiplier_primitive_is_not_a_dsp(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    p = root / "Benchmarks/rgb/rgb_1_base"
    sources(p, "run_hls.tcl", "rgb.cpp")
    t3.csynth_with_dsp_name(p, "solution1/syn/report/csynth.xml", "MULT18X18")
    (p / "solution1/solution1.aps").write_text("<solution/>\n")
    (record,), _ = records_of(collect(root))
    assert record["hls_synth"]["AreaEstimates"]["Resources"]["DSP"] is None


def test_aie_device_and_version_come_from_the_run_summary(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    t3.aie_with_run_summary(root)
    collection = collect(root)
    runs = sorted(
        (r["run"]["target"], r["run"]["device"], r["run"]["vitis_version"])
        for result in collection.projects.values()
        for r in result.extension_records
    )
    assert runs == [
        ("vitis.aiesimulator", t3.VCK190, "2023.2"),
        ("vitis.x86simulator", "unknown", None),  # its output folder has no summary
    ]


def test_every_file_in_mapper_snapshots_is_a_snapshot(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    t3.loom_with_snapshot_files(root)
    collection = collect(root)
    (result,) = collection.projects.values()
    (record,) = result.extension_records
    payload = record["cgra_map"]
    assert (payload["dfg"], payload["adg"], payload["state"]) == ("dfg", "fabric", "final")
    assert payload["snapshots"] == [
        {"sequence": 1, "trigger": "negotiated-iter", "ordinal": 1},
        {"sequence": 3, "trigger": "route-repair", "ordinal": 1},
    ]
