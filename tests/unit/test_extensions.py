"""The three extension families: AI Engine simulator output, XRT run recipes, LOOM mappings."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest

from collectors.collect.accounting import tree_accounts
from collectors.collect.artifacts.aie import parse_aie_output, plio_declarations, throughputs
from collectors.collect.artifacts.loom import load_loom_json, parse_config, parse_map, snapshot_of, split_name
from collectors.collect.artifacts.xrt_recipe import parse_recipe, runlists
from collectors.collect.config import load_settings
from collectors.collect.engine import Engine
from collectors.problems import ArtifactError, NotThisKind
from collectors.records.validate import record_errors, validate_stream
from tui.cli import main

from .. import trees
from ..conftest import FIXTURES, VITIS, extension_records_of, place

AIE, XRT, LOOM = trees.AIE, trees.XRT, trees.LOOM
RECIPE_EXAMPLES = FIXTURES / "xrt" / "recipe_examples"  # the recipe documentation's examples, one per file


def aie(text: bytes | str, per_sample: int = 2, plio_bits: int | None = 32) -> dict:
    data = text.encode() if isinstance(text, str) else text
    return throughputs(parse_aie_output(io.BytesIO(data)), per_sample, plio_bits)


# --- AI Engine --------------------------------------------------------------------------------


def test_real_fir_output_cint16_on_32_bit_plio_is_250_msps() -> None:
    raw = (AIE / "xup_aie_training__fir_lowpass__output_aie.txt").read_bytes()
    assert not raw.endswith(b"\n") and b" \nT " in raw  # no final newline, trailing spaces
    result = aie(raw)
    assert result["frame_throughput_sps"] == pytest.approx(250e6, rel=1e-12)
    assert (result["data_lines"], result["values_per_line"], result["samples"], result["frames"]) == (1024, 2, 1024, 4)
    assert (result["first_time_s"], result["last_time_s"]) == (pytest.approx(1.672e-6), pytest.approx(5.764e-6))
    assert result["raw_throughput_sps"] == pytest.approx(1024 / (5.764e-6 - 1.672e-6))


def test_hand_example_two_frames_is_100_msps() -> None:
    result = aie((AIE / "SYNTHETIC_hand_example_two_frames.txt").read_bytes())
    assert result["frame_throughput_sps"] == pytest.approx(100e6)  # 4 samples of frame 0 over 40 ns
    assert result["frames"] == 2 and result["samples"] == 8


def test_units_change_from_line_to_line() -> None:
    text = "T 999 ns\n1 2\nT 1 us\n3 4\nT 1001000 ps\n5 6\nT 0.000001002 ms\nTLAST\n7 8\nT 1004 ns\n9 10"
    result = aie(text)
    assert result["first_time_s"] == pytest.approx(999e-9) and result["last_time_s"] == pytest.approx(1004e-9)
    assert result["raw_throughput_sps"] == pytest.approx(5 / 5e-9)
    assert result["frame_throughput_sps"] == pytest.approx(4 / (1004e-9 - 999e-9))  # frame 0 until frame 1 starts


def test_x86sim_without_timestamps_and_real_values() -> None:
    golden = aie((AIE / "xup_aie_training__fir_lowpass__output_golden.txt").read_bytes())
    assert (golden["first_time_s"], golden["raw_throughput_sps"], golden["frame_throughput_sps"]) == (None, None, None)
    assert golden["data_lines"] == 1024
    floats = aie((AIE / "xup_aie_training__matmult__ref_outputc_float.txt").read_bytes(), per_sample=1)
    assert (floats["data_lines"], floats["values_per_line"], floats["samples"]) == (64, 2, 128)


def test_beats_and_bytes_per_second_need_no_sample_type() -> None:
    """1024 beats of a 32-bit PLIO between 1.672 us and 5.764 us; 4 bytes a beat."""
    for per_sample in (1, 2):
        result = aie((AIE / "xup_aie_training__fir_lowpass__output_aie.txt").read_bytes(), per_sample)
        assert result["beats_per_second"] == pytest.approx(1024 / 4.092e-6)
        assert result["bytes_per_second"] == pytest.approx(4 * 1024 / 4.092e-6)
    unknown_width = aie((AIE / "xup_aie_training__fir_lowpass__output_aie.txt").read_bytes(), plio_bits=None)
    assert unknown_width["beats_per_second"] == pytest.approx(1024 / 4.092e-6)
    assert unknown_width["bytes_per_second"] is None


def test_real_samples_count_every_value() -> None:
    result = aie((AIE / "SYNTHETIC_hand_example_two_frames.txt").read_bytes(), per_sample=1)
    assert result["samples"] == 16 and result["frame_throughput_sps"] == pytest.approx(200e6)


@pytest.mark.parametrize(
    "text",
    [
        "Function profiling report information for ::tl.aie_logical.aie_xtlm.math_engine.array.tile_1_3\n\n",
        "AIE_PKG_DIR=/home/x/SVD/FPGA_test/128/./Work\nAIE_PROFILE=All\n",
        "Trace of tile 1 3\n1 2\n",
    ],
)
def test_text_of_another_kind_is_not_plio_output(text: str) -> None:
    with pytest.raises(NotThisKind):
        parse_aie_output(io.BytesIO(text.encode()))


@pytest.mark.parametrize(
    "text,message",
    [
        ("T 10 ns\n1 2\nT 11 parsecs\n3 4\n", "line 3: not a timestamp"),
        ("T 10 ns\n1 two\n", "line 2: b'two' is not a number"),
        ("", "no data lines"),
        ("\x00\x01\x02garbage\n", "is not a number"),
    ],
)
def test_broken_aie_files(text: str, message: str) -> None:
    with pytest.raises(ArtifactError, match=re.escape(message)):
        parse_aie_output(io.BytesIO(text.encode()))


def test_plio_declarations() -> None:
    assert plio_declarations(trees.GRAPH_H) == {  # output ports only: inputs are not simulator output
        "output_aie.txt": {"port": "DataOut", "plio_bits": 32, "complex": True}
    }
    mixed = trees.GRAPH_H + "// output_buffer<int32>\n"
    assert plio_declarations(mixed)["output_aie.txt"]["complex"] is None


def test_plio_declarations_without_a_port_name() -> None:
    """The two-argument form (the Vitis StreamSwitchFIFO template: `output_plio::create(plio_32_bits,
    "data/output.txt")`) declared nothing: every value a sample ('assumed'), no width for two
    outputs of different widths."""
    graph = trees.GRAPH_H.replace('"DataOut", adf::plio_32_bits', "adf::plio_32_bits")
    graph += 'auto debug = adf::output_plio::create(adf::plio_128_bits, "data/debug.txt");\n'
    assert plio_declarations(graph) == {
        "output_aie.txt": {"port": None, "plio_bits": 32, "complex": True},
        "debug.txt": {"port": None, "plio_bits": 128, "complex": True},
    }


def test_a_graph_declared_in_project_h_is_read(tmp_path: Path) -> None:
    """SPIRE-GMU/aether-vck190 declares its PLIOs in src/project.h: the output's record had no
    port, width or bytes/s, and every value taken for a sample (2048 samples for 1024 cint16)."""
    root = tmp_path / "suite"
    project = trees.aie_project(root)
    (project / "aie/graph.h").rename(project / "aie/project.h")
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)
    records = {r["aie_sim"]["subject"]: r["aie_sim"] for r in extension_records_of(collection)}
    declared = records["aiesimulator_output/data/output_aie.txt"]
    assert (declared["port"], declared["plio_bits"], declared["sample_type"]) == ("DataOut", 32, "declared")
    assert declared["frame_throughput_sps"] == pytest.approx(250e6)


def test_aie_records_in_a_tree_and_configuration(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    project = trees.aie_project(root)
    plain = project / "aiesimulator_output" / "two.txt"
    plain.write_bytes((AIE / "SYNTHETIC_hand_example_two_frames.txt").read_bytes())
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)
    records = {r["aie_sim"]["subject"]: r["aie_sim"] for r in extension_records_of(collection)}
    declared = records["aiesimulator_output/data/output_aie.txt"]
    assert declared["frame_throughput_sps"] == pytest.approx(250e6)
    assert (declared["port"], declared["sample_type"], declared["values_per_sample"]) == ("DataOut", "declared", 2)
    two = records["aiesimulator_output/two.txt"]  # no declaration, no configuration: every value a sample
    assert (two["sample_type"], two["values_per_sample"]) == ("assumed", 1)
    assert two["frame_throughput_sps"] == pytest.approx(200e6)
    reasons = sorted(p.reason for p in collection.problems())  # (no run summary names the device)
    assert reasons == [UNKNOWN_DEVICE.format("aiesimulator"), UNKNOWN_DEVICE.format("x86simulator")]
    (root / "vitis-tui.toml").write_text('[aie]\ncomplex = ["two.txt"]\n')
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)
    records = {r["aie_sim"]["subject"]: r for r in extension_records_of(collection)}
    two = records["aiesimulator_output/two.txt"]["aie_sim"]
    assert (two["sample_type"], two["frame_throughput_sps"]) == ("configured", pytest.approx(100e6))
    assert all(record_errors(r) == [] for r in records.values())


UNKNOWN_DEVICE = (
    "vitis.{} run: device unknown (no simulator run summary in or above its output folder, and the runs of the "
    "project name no single device)"
)


def test_a_simulator_run_of_no_known_device_is_one_problem_line(tmp_path: Path) -> None:
    """COLLECTION_RULES 4.4: a device nothing names is written "unknown" and reported as a problem
    of that run. rverma999/Versal-Linux-cmd-clean (2024.1) kept no `.aierun_summary` for its
    gemm_multi_tile simulation: the aie_sim record said "unknown" and no line said so. One line
    per simulator run (its output folder), not one per port file; none once a summary names it."""
    root = tmp_path / "suite"
    project = trees.aie_project(root)
    extra = project / "aiesimulator_output" / "data" / "two.txt"
    extra.write_bytes((AIE / "SYNTHETIC_hand_example_two_frames.txt").read_bytes())
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)
    assert {r["run"]["device"] for r in extension_records_of(collection)} == {"unknown"}
    assert sorted(str(p) for p in collection.problems()) == [
        f"{project / 'aiesimulator_output'}: {UNKNOWN_DEVICE.format('aiesimulator')}",
        f"{project / 'x86simulator_output'}: {UNKNOWN_DEVICE.format('x86simulator')}",
    ]
    summary = {"hardwarePlatform": "/opt/xilinx_vck190_base_202410_1.xpfm", "toolVersion": "2024.1"}
    for simulator in ("aiesimulator", "x86simulator"):
        place(project, f"{simulator}_output/default.aierun_summary", text=json.dumps(summary))
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)
    assert {r["run"]["device"] for r in extension_records_of(collection)} == {"xilinx_vck190_base_202410_1"}
    assert collection.problems() == []


def test_an_adg_called_unknown_is_a_name_not_a_missing_device(tmp_path: Path) -> None:
    """A LOOM record's device is its ADG, taken from the file name: `dfg.unknown.map.json` is
    one called so (it once looked up a reason for a kind that has none, and the project failed)."""
    project = trees.loom_project(tmp_path / "suite")
    shutil.rmtree(project / "mapper-snapshots")
    for name in ("map", "config"):
        (project / f"dfg.fabric.{name}.json").rename(project / f"dfg.unknown.{name}.json")
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(tmp_path / "suite")], wait_for_writers=0)
    [record] = extension_records_of(collection)
    assert (record["run"]["device"], record["cgra_map"]["state"]) == ("unknown", "final")
    assert collection.problems() == []


def test_a_recipe_of_no_configuration_is_a_problem_line(tmp_path: Path) -> None:
    project = trees.xrt_project(tmp_path / "suite")
    recipe = json.loads((project / "recipe.json").read_text())
    del recipe["header"]
    (project / "recipe.json").write_text(json.dumps(recipe))
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(tmp_path / "suite")], wait_for_writers=0)
    [record] = extension_records_of(collection)
    assert record["run"]["device"] == "unknown"
    assert f"{project / 'recipe.json'}: xrt.runner run: device unknown (the recipe names no xclbin or program)" in [
        str(p) for p in collection.problems()
    ]


# HeteroSVD FPGA_test/128/aie/TopGraph.h: the PLIO file names are built at run time
GRAPH_WITH_VARIABLE_NAMES = """class TopGraph : public graph {
    input_plio in[1];
    output_plio out[1];
    TopGraph() {
        for (int j = 0; j < 1; j++) {
            in[j] = input_plio::create(plIn, plio_128_bits, fileIn);
            out[j] = output_plio::create(plout, plio_128_bits, fileOut);
        }
    }
};
"""
# the first ten beats of aiesimulator_output/aie/data/1_sweep_out_0.txt there (four 32-bit values a beat)
SWEEP_OUT = """T 12478752 ps
48365571 3204907318 1052531742 1058493616
T 12483196 ps
1052450096 1052646878 3187213419 965528064
T 12485418 ps
3205351786 1054914901 3204550654 1042343777
T 12489862 ps
1049876993 3188425501 1051635662 1052636604
T 12492084 ps
3159327552 1031403616 3198932874 1052031393
T 12496528 ps
3195241352 3193314104 1039007751 3207819237
T 12498750 ps
1035008810 3216847326 1059837808 1030479384
T 12500972 ps
3204271870 3149674103 1064923758 1055838107
T 12505416 ps
1060575388 1043757589 3172667934 3171150555
T 12507638 ps
1055914653 3187558822 3176067701 3205406716
"""
# the simulator ends each data line with a space
SWEEP_OUT = "".join(line + ("" if line.startswith("T ") else " ") + "\n" for line in SWEEP_OUT.splitlines())


def test_heterosvd_shaped_output_beside_simulator_profiles(tmp_path: Path) -> None:
    project = tmp_path / "HeteroSVD/FPGA_test/128"
    place(project, "Makefile", text="all:\n")
    place(project, "aie/TopGraph.h", text=GRAPH_WITH_VARIABLE_NAMES)
    place(project, "aie/TopGraph.cpp", text="TopGraph g;\n")
    sim = project / "aiesimulator_output"
    place(sim, "aie/data/1_sweep_out_0.txt", text=SWEEP_OUT)
    place(sim, "aiesim_options.txt", text="AIE_PKG_DIR=/home/x/SVD/FPGA_test/128/./Work\nAIE_PROFILE=All\n")
    for tile in ("1_2", "6_3"):
        place(sim, f"profile_funct_{tile}.txt", text="Function profiling report information for ::tl.aie\n")
        place(sim, f"profile_instr_{tile}.txt", text="Profiling report\n")
    place(project, "Work/aie/0_0/0_0.log", text="INFO: compiling tile 0_0\n")  # the AIE compiler's, not HLS
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(tmp_path)], wait_for_writers=0)
    assert [str(p) for p in collection.problems()] == [f"{sim}: {UNKNOWN_DEVICE.format('aiesimulator')}"]
    assert [result.runs for result in collection.projects.values()] == [[]]
    [record] = extension_records_of(collection)
    payload = record["aie_sim"]
    span = (12507638 - 12478752) * 1e-12
    assert (payload["data_lines"], payload["values_per_line"], payload["plio_bits"]) == (10, 4, 128)
    assert (payload["sample_type"], payload["values_per_sample"], payload["samples"]) == ("assumed", 1, 40)
    assert payload["beats_per_second"] == pytest.approx(10 / span)
    assert payload["bytes_per_second"] == pytest.approx(16 * 10 / span)
    assert payload["raw_throughput_sps"] == pytest.approx(40 / span)
    assert record_errors(record) == []


def test_an_ide_applications_simulator_configurations_are_one_design(tmp_path: Path) -> None:
    """Fahim-103/Parallel_Implementation_of_NTT (2023.1): a classic Vitis IDE AI Engine application
    kept its aiesimulator output in Emulation-AIE/ (x86simulator's configuration is Emulation-SW).
    The configuration folder was the design (group ["Emulation-AIE"]), apart from the application
    whose src/ declares the PLIOs: the port's width was unknown, and an x86simulator run of the
    same application was a design of its own."""
    app = tmp_path / "repo/ntt_aie"
    place(app, ".project", text="<projectDescription><name>ntt_aie</name></projectDescription>\n")
    place(app, "src/graph.h", text=trees.GRAPH_H)
    for configuration, simulator, fixture in (
        ("Emulation-AIE", "aiesimulator", "xup_aie_training__fir_lowpass__output_aie.txt"),
        ("Emulation-SW", "x86simulator", "xup_aie_training__fir_lowpass__output_golden.txt"),
    ):
        place(app, f"{configuration}/makefile", text="all:\n")
        output = app / f"{configuration}/{simulator}_output/data/output_aie.txt"
        output.parent.mkdir(parents=True)
        output.write_bytes((AIE / fixture).read_bytes())
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(tmp_path / "repo")], wait_for_writers=0)
    records = extension_records_of(collection)
    found = [(r["problem"]["group_path"], r["aie_sim"]["simulator"], r["aie_sim"]["plio_bits"]) for r in records]
    assert found == [(["ntt_aie"], "aiesimulator", 32), (["ntt_aie"], "x86simulator", 32)]
    assert sorted(p.path for p in collection.problems()) == [  # (no run summary names the device)
        str(app / "Emulation-AIE/aiesimulator_output"),
        str(app / "Emulation-SW/x86simulator_output"),
    ]


# --- XRT recipes --------------------------------------------------------------------------------


def test_fixture_recipe_counts() -> None:
    """XRT's own test recipe still names its cpu library with library_path, as the recipe
    documentation does; the runner (runner.cpp, create_cpu) reads library_name only."""
    result = parse_recipe((XRT / "test_recipe.json").read_bytes())
    wrong_key = "gives library_path, which the runner does not read: it needs library_name"
    assert result == {
        "valid": False,
        "errors": [f"resources.cpus: 'convert_ifm' {wrong_key}", f"resources.cpus: 'convert_ofm' {wrong_key}"],
        "schema_warnings": [],
        "configuration": "design.xclbin",
        "buffers": {"input": 2, "internal": 2, "output": 1},
        "buffers_total": 5,
        "kernels": 1,
        "cpu_functions": 2,
        "runs": 3,
        "cpu_runlists": 2,
        "npu_runlists": 1,
    }


def seed_examples() -> list[str]:
    return [path.read_text() for path in sorted(RECIPE_EXAMPLES.glob("*.json"))]


def test_seed_examples_syntax_errors_have_line_and_column() -> None:
    outcomes = []
    for example in seed_examples():
        try:
            outcomes.append(parse_recipe(example.encode())["errors"])
        except (ArtifactError, NotThisKind) as exc:
            outcomes.append(f"{type(exc).__name__}: {exc}")
    syntax = "ArtifactError: recipe: JSON syntax error at line"
    assert outcomes[0] == f"{syntax} 4 column 3: Expecting property name enclosed in double quotes"
    # a buffer excerpt of the documentation has none of a recipe's sections: it is no recipe
    assert outcomes[4] == "NotThisKind: no header, resources or execution section: not a run recipe"
    assert outcomes[5] == "ArtifactError: recipe: JSON syntax error at line 20 column 28: Invalid control character at"
    assert outcomes[6] == "ArtifactError: recipe: JSON syntax error at line 13 column 9: Expecting ',' delimiter"
    assert outcomes[8] == outcomes[0]  # the "complete" example has the header's trailing comma too
    assert "execution.runs[0] (k1): int constant at argidx 0 is given as the string '3'" in outcomes[7]


def recipe(**changes) -> bytes:
    data = json.loads((XRT / "test_recipe.json").read_text())
    for path, value in changes.items():
        target = data
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(keys[-1]) if keys[-1].isdigit() else keys[-1]] = value
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    "changes,error",
    [
        ({"execution__runs__1__name": "k9"}, "execution.runs[1] (k9): no kernel 'k9' in resources.kernels"),
        ({"execution__runs__0__name": "nope"}, "execution.runs[0] (nope): no cpu function 'nope' in resources.cpus"),
        (
            {"execution__runs__1__arguments__0__name": "w"},
            "execution.runs[1] (k1): argument buffer 'w' is not in resources.buffers",
        ),
        (
            {"resources__buffers__2": {"name": "ifm_int", "type": "internal"}},
            "resources.buffers: internal buffer 'ifm_int' has no size",
        ),
        ({"resources__buffers__1__name": "wts"}, "resources.buffers: duplicate name 'wts'"),
        (
            {"execution__runs__1__constants__0__argidx": 4},
            "execution.runs[1] (k1): argidx 4 is both a argument and a constant",
        ),
        (
            {"execution__runs__1__constants__0__value": "3"},
            "execution.runs[1] (k1): int constant at argidx 0 is given as the string '3'",
        ),
        (
            {"resources__cpus__0": {"name": "convert_ifm", "library_path": "cpulib"}},
            "resources.cpus: 'convert_ifm' gives library_path, which the runner does not read: it needs library_name",
        ),
        (
            {"resources__cpus__0": {"name": "convert_ifm"}},
            "resources.cpus: 'convert_ifm' has no library_name",
        ),
    ],
)
def test_runner_load_time_errors(changes: dict, error: str) -> None:
    result = parse_recipe(recipe(**changes))
    assert result["valid"] is False and error in result["errors"]


def test_library_name_is_what_the_runner_loads() -> None:
    fixed = {"name": "convert_ifm", "library_name": "cpulib"}
    other = {"name": "convert_ofm", "library_name": "cpulib"}
    result = parse_recipe(recipe(resources__cpus__0=fixed, resources__cpus__1=other))
    assert result["valid"] is True and result["errors"] == []


def test_schema_failures_are_warnings_only() -> None:
    fixed = {"resources__cpus__0__library_name": "cpulib", "resources__cpus__1__library_name": "cpulib"}
    result = parse_recipe(recipe(resources__buffers__0__type="scratch", **fixed))
    assert result["valid"] is True and result["errors"] == []
    assert result["schema_warnings"] and "scratch" in result["schema_warnings"][0]


def test_runlists_group_contiguous_runs() -> None:
    runs = [{"where": "cpu"}, {}, {"where": "npu"}, {"where": "cpu"}, {"where": "cpu"}, {}]
    assert runlists(runs) == (2, 2)


# --- LOOM ---------------------------------------------------------------------------------------


def test_final_map_and_config() -> None:
    result = parse_map((LOOM / "SYNTHETIC_dfg.fabric.map.json").read_bytes())
    assert result["mapped_nodes"] == 2 and result["edges"] == {
        "routed": 3,
        "unrouted": 1,
        "intra_fu": 1,
        "temporal_reg": 1,
    }
    assert result["timing"] == {  # every figure the writer exports
        "critical_path_delay": 2.3,
        "clock_period": 2.3,
        "initiation_interval": 1,
        "throughput_cost": 2.3,
        "recurrence_pressure": 0.0,
        "critical_path_edges": [0, 1],
        "fifo_buffer_count": 1,
        "forced_buffered_fifo_count": 1,
        "forced_buffered_fifo_nodes": [7],
        "forced_buffered_fifo_depths": [4],
        "mapper_selected_buffered_fifo_count": 1,
        "mapper_selected_buffered_fifo_nodes": [7],
        "mapper_selected_buffered_fifo_depths": [4],
        "bufferized_edges": [1],
        "recurrence_cycles": [
            {
                "cycle_id": 0,
                "sw_nodes": [2, 3],
                "sw_edges": [2, 3],
                "recurrence_distance": 1,
                "sequential_latency_cycles": 1,
                "fifo_stage_cut_contribution": 0,
                "max_interval_on_cycle": 1,
                "estimated_cycle_ii": 1,
                "combinational_delay": 1.0,
            }
        ],
    }
    assert result["techmap"]["handoff_status"] == "unverified_oracle_disabled"
    assert result["techmap"]["handoff_blockers"] == ["legacy_oracle_disabled"]
    assert result["search"]["placement_seed_lane_count"] == 4 and result["memory_regions"] == 1
    assert parse_config((LOOM / "SYNTHETIC_dfg.fabric.config.json").read_bytes()) == {
        "word_count": 15,
        "words_present": 15,
        "slices": 6,
        "incomplete_slices": 0,
        "complete": True,
    }


# The AI Engine compiler's `<...>.control.config.json` and `.trace.config.json` (AkshayMalige/
# rtda_demo's _x/package/libadf/cfg/): named as a LOOM configuration is, holding none of its keys.
AIE_CONTROL_CONFIG = b"""{
    "schema_version": {"major": "1", "minor": "0", "patch": "0"},
    "aie_metadata": {"driver_config": {"hw_gen": 2, "num_rows": 11, "num_columns": 38}}
}"""


def test_another_tools_config_json_is_not_a_loom_configuration() -> None:
    with pytest.raises(NotThisKind):
        parse_config(AIE_CONTROL_CONFIG)
    with pytest.raises(ArtifactError, match="no words or slices"):
        parse_config(b'{"word_count": 3, "complete": false}')  # (a LOOM configuration that lost its words)


def test_snapshot_names_and_partial_sections() -> None:
    name = "dfg.fabric.snapshot-0001.negotiated-iter.mapper-0001.map.json"
    assert split_name(name) == ("dfg", "fabric")
    assert snapshot_of(name) == {"sequence": 1, "trigger": "negotiated-iter", "ordinal": 1}
    snapshot = parse_map((LOOM / f"SYNTHETIC_mapper-snapshots__{name}").read_bytes())
    assert snapshot["timing"] is None and snapshot["search"] is None
    assert split_name("my.graph.v2.fabric.map.json") == ("my.graph.v2", "fabric")


def test_bare_nan_inf_and_sentinel_ids() -> None:
    text = (
        b'{"node_mappings": [{"sw_node": 1, "hw_node": 4294967295}, {"sw_node": 2, "hw_node": -1}, {"hw_node": 7}],'
        b' "timing": {"available": true, "estimated_clock_period": nan, "estimated_critical_path_delay": INF,'
        b' "estimated_initiation_interval": -inf, "estimated_throughput_cost": 1.000000e+00}, "note": "nan INF"}'
    )
    result = parse_map(text)
    assert (result["mapped_nodes"], result["unmapped_nodes"]) == (1, 2)
    assert result["timing"] == {
        "critical_path_delay": None,
        "clock_period": None,
        "initiation_interval": None,
        "throughput_cost": 1.0,
        **dict.fromkeys(("recurrence_pressure", "fifo_buffer_count", "forced_buffered_fifo_count")),
        **dict.fromkeys(("mapper_selected_buffered_fifo_count", "critical_path_edges", "bufferized_edges")),
        **dict.fromkeys(("forced_buffered_fifo_nodes", "forced_buffered_fifo_depths", "recurrence_cycles")),
        **dict.fromkeys(("mapper_selected_buffered_fifo_nodes", "mapper_selected_buffered_fifo_depths")),
    }
    assert load_loom_json(text)["note"] == "nan INF"  # strings are left alone
    assert result["edges"] == {"routed": 0, "unrouted": 0, "intra_fu": 0, "temporal_reg": 0}


@pytest.mark.parametrize(
    "text,message",
    [
        (b'{"node_mappings": [', "JSON syntax error at line 1 column 20"),
        (b'{"words": 1}'[:0] + b"[1, 2]", "not a JSON object"),
        (b'{"something": "else"}', "not a LOOM mapping"),
    ],
)
def test_broken_maps(text: bytes, message: str) -> None:
    with pytest.raises(ArtifactError, match=re.escape(message)):
        parse_map(text)


def test_snapshots_update_the_record_while_the_mapper_runs(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    project = trees.loom_project(root)
    (project / "dfg.fabric.map.json").unlink()
    engine = Engine(lambda r: load_settings(Path(r)))
    first = extension_records_of(engine.scan([str(root)], wait_for_writers=0))
    assert [(r["cgra_map"]["state"], [s["sequence"] for s in r["cgra_map"]["snapshots"]]) for r in first] == [
        ("in_progress", [1])
    ]
    assert first[0]["run"]["device"] == "fabric" and first[0]["problem"]["group_path"] == ["cgra", "dfg"]
    snapshot = project / "mapper-snapshots" / "dfg.fabric.snapshot-0002.route-repair.mapper-0003.map.json"
    snapshot.write_text(
        (project / "mapper-snapshots" / "dfg.fabric.snapshot-0001.negotiated-iter.mapper-0001.map.json")
        .read_text()
        .replace('"sw_node": 3, "hw_node": 6', '"sw_node": 3, "hw_node": 4294967295')
    )
    second = engine.recollect(str(project), str(root)).extension_records
    assert second[0]["cgra_map"]["snapshots"][-1] == {"sequence": 2, "trigger": "route-repair", "ordinal": 3}
    assert second[0]["cgra_map"]["mapped_nodes"] == 1  # the latest snapshot's mapping


def test_snapshots_never_form_a_record_of_their_own(tmp_path: Path) -> None:
    """Beside the final map.json: snapshots whose trigger has a dot, or whose DFG name has dots,
    still belong to the (DFG, ADG) of the final mapping; the record is the final one."""
    root = tmp_path / "suite"
    project = trees.loom_project(root)
    snapshots = project / "mapper-snapshots"
    first = snapshots / "dfg.fabric.snapshot-0001.negotiated-iter.mapper-0001.map.json"
    (snapshots / "dfg.fabric.snapshot-0002.route.repair.mapper-0003.map.json").write_bytes(first.read_bytes())
    (snapshots / "dfg.fabric.snapshot-0003.map.json").write_bytes(first.read_bytes())  # no trigger: still a snapshot
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)
    [record] = extension_records_of(collection)
    payload = record["cgra_map"]
    assert (payload["dfg"], payload["adg"], payload["state"]) == ("dfg", "fabric", "final")
    assert payload["snapshots"] == [
        {"sequence": 1, "trigger": "negotiated-iter", "ordinal": 1},
        {"sequence": 2, "trigger": "route.repair", "ordinal": 3},
        {"sequence": 3, "trigger": None, "ordinal": None},
    ]
    assert payload["timing"]["recurrence_pressure"] == 0.0
    assert record_errors(record) == [] and collection.problems() == []


# --- the second file --------------------------------------------------------------------------


def test_collect_writes_extension_file_beside_and_validate_checks_it(tmp_path: Path, capsys) -> None:
    root = tmp_path / "suite"
    trees.aie_project(root)
    trees.xrt_project(root)
    trees.loom_project(root)
    trees.runner_timeout(root)
    out = tmp_path / "results.jsonl"
    assert main(["collect", str(root), "-o", str(out)]) == 0
    ext = tmp_path / "results.ext.jsonl"
    kinds = [json.loads(line)["report_type"] for line in ext.read_text().splitlines()]
    assert sorted(kinds) == ["aie_sim", "aie_sim", "cgra_map", "xrt_recipe"]
    assert {json.loads(line)["report_type"] for line in out.read_text().splitlines()} == {"hls_synth", "rtl_sim"}
    capsys.readouterr()
    assert main(["validate", str(out), str(ext)]) == 0
    broken = next(r for r in map(json.loads, ext.read_text().splitlines()) if r["report_type"] == "aie_sim")
    broken[broken["report_type"]]["values_per_sample"] = 3
    report = validate_stream("x", io.BytesIO(json.dumps(broken).encode() + b"\n"))
    assert report.errors and report.errors[0][1].startswith("$.aie_sim.values_per_sample: 3 is not one of")
    custom = tmp_path / "other.ext"
    assert main(["collect", str(root), "-o", str(out), "--ext-output", str(custom), "--quiet"]) == 0
    assert custom.read_text() == ext.read_text()


def test_bad_extension_input_is_a_problem_not_a_record(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    project = trees.loom_project(root)
    (project / "dfg.fabric.map.json").write_text('{"node_mappings": [')
    shutil.rmtree(project / "mapper-snapshots")
    place(project, "recipe.json", text='{"version": "1.0",,}')
    lfs = project / "aiesimulator_output" / "out.txt"
    lfs.parent.mkdir()
    lfs.write_bytes((VITIS / "Choocie-vitis-hls-bug-report-mve__build__v++_harness.log").read_bytes())
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)
    problems = [str(p) for p in collection.problems()]
    assert f"{project / 'dfg.fabric.map.json'}: JSON syntax error at line 1 column 20: Expecting value" in problems
    assert (
        f"{project / 'recipe.json'}: recipe: JSON syntax error at line 1 column 19: Expecting property name "
        "enclosed in double quotes" in problems
    )
    assert f"{lfs}: Git LFS pointer, not the report (run 'git lfs pull')" in problems
    records = extension_records_of(collection)
    assert [r["cgra_map"]["state"] for r in records] == ["config_only"]  # the config alone, no wrong mapping


@pytest.mark.parametrize("line", ["- 5", "5 -", "--5", "1 2e", "0x1f 2"])
def test_malformed_numbers_are_refused(line: str) -> None:
    with pytest.raises(ArtifactError, match="is not a number"):
        parse_aie_output(io.BytesIO(f"T 1 ns\n{line}\n".encode()))


def test_runner_report_beside_the_recipe(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    project = trees.xrt_project(root)
    (project / "jobs.report.json").write_text(
        json.dumps(
            {
                "jobs": {
                    "resnet": {
                        "cpu": {"elapsed": 491726, "iterations": 100, "latency": 21, "throughput": 45793},
                        "hwctx": {"columns": 0},
                        "resources": {
                            "buffers": 5,
                            "kernels": 1,
                            "runlist": True,
                            "runlist_threshold": 6,
                            "runs": 9,
                            "total_buffer_size": 100,
                        },
                        "xclbin": {"uuid": "44968c89-7cfa-a9d6-38e0-17cfa13445f2"},
                    }
                }
            }
        )
    )
    (project / "unrelated_report.json").write_text('{"whatever": 1}')  # not a runner report: no problem
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)
    [record] = extension_records_of(collection)
    assert record["xrt_recipe"]["runner_report"] == {
        "resnet": {
            "elapsed_us": 491726,
            "latency_us": 21,
            "throughput_ops": 45793,
            "iterations": 100,
            "runs": 9,
            "buffers": 5,
        }
    }
    assert record_errors(record) == [] and collection.problems() == []
    accounts = tree_accounts({p: r.accounts for p, r in collection.projects.items()}, collection.walk_problems)
    # (HeteroCL's csynth-as-JSON report.json was "facts: describes the project (xrt_report)")
    assert accounts[str(project / "unrelated_report.json")] == (
        "skipped: another tool's file of the same name, not a xrt_report"
    )
