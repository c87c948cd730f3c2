"""Every number read from a file is finite and in range for its
field, else a problem naming the file and the field; never a crash, never a number that is not in
the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from collectors.numbers import CYCLES, MHZ, SECONDS, NumberError, checked

from .. import trees
from .conftest import records

LAT = "proj/solution2/sim/report/verilog/lat.rpt"
HLS_LOG = "vitis_hls.log"
X = f"_x.hw_emu.{trees.U250}"
PROFILE = ".run/1585848/hw_em/device0/binary_0/behav_waveform/xsim/profile_kernels.csv"
DIAGRAM = f"{X}/link/int/systemDiagramModel.json"
VPP_LOG = f"{X}/logs/link/v++.log"


def strict_records(path: Path) -> list[dict]:
    """The output read as strict JSON: NaN and Infinity are refused."""

    def refuse(token: str) -> None:
        raise AssertionError(f"non-standard JSON constant {token} written")

    return [json.loads(line, parse_constant=refuse) for line in path.read_text().splitlines()]


def edit(path: Path, old: str, new: str) -> None:
    data = path.read_bytes()  # real logs are not always UTF-8
    assert old.encode() in data
    path.write_bytes(data.replace(old.encode(), new.encode()))


def rtl_sim(out: Path, target: str) -> list[dict]:
    return [r["rtl_sim"] for r in strict_records(out) if r["report_type"] == "rtl_sim" and r["run"]["target"] == target]


@pytest.mark.parametrize("value", ["1e309", "inf", "NaN", "-inf", "98765x", "-5", "0x10", "1_000", "9" * 400])
def test_lat_rpt_total_that_is_not_a_usable_number_is_a_problem(tmp_path: Path, cli, value: str) -> None:
    project = trees.hls_two_solutions(tmp_path / "root")
    edit(project / LAT, '$TOTAL_EXECUTE_TIME = "74"', f'$TOTAL_EXECUTE_TIME = "{value}"')
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(tmp_path / "root"), "-o", str(out))
    assert ran.code == 0
    [problem] = [p for p in ran.problems if "lat.rpt" in p]
    assert problem.startswith(f"{project / LAT}: $TOTAL_EXECUTE_TIME ")
    assert rtl_sim(out, "vitis.cosim") == [
        {"status": "pass", "kernel_runtime_cycles": None, "kernel_runtime_us": None, "kernel_clock_freq_mhz": None}
    ]


@pytest.mark.parametrize("token", ["NA", "N/A", "-", "undef"])
def test_lat_rpt_not_available_token_is_silent(tmp_path: Path, cli, token: str) -> None:
    project = trees.hls_two_solutions(tmp_path / "root")
    edit(project / LAT, '$TOTAL_EXECUTE_TIME = "74"', f'$TOTAL_EXECUTE_TIME = "{token}"')
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(tmp_path / "root"), "-o", str(out))
    assert (ran.code, ran.problems) == (0, [])  # (but the line of the solution the path leaves out)
    assert rtl_sim(out, "vitis.cosim")[0]["kernel_runtime_cycles"] is None


@pytest.mark.parametrize("value", ["1e309", "inf", "NaN", "-1.0", "abc"])
def test_profile_running_time_out_of_range_refuses_the_profile(tmp_path: Path, cli, value: str) -> None:
    project = trees.hw_emu_build(tmp_path / "root")
    edit(project / PROFILE, "topKQueryScores_1,6.748,", f"topKQueryScores_1,{value},")
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(tmp_path / "root"), "-o", str(out))
    assert ran.code == 0
    assert f"{project / PROFILE}: line 3: Running Time (us) {value!r} is " in "\n".join(ran.problems)
    assert rtl_sim(out, "vitis.hw_emu") == []  # no record rather than one with a number not in a report


@pytest.mark.parametrize("value", ["1e309", "NaN", "Infinity", "-Infinity", "0", "-300", '"0x10"', "true", "1e400"])
def test_system_diagram_clock_out_of_range_is_a_problem(tmp_path: Path, cli, value: str) -> None:
    project = trees.hw_emu_build(tmp_path / "root")
    edit(project / DIAGRAM, '"spec_frequency": 300,', f'"spec_frequency": {value},')
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(tmp_path / "root"), "-o", str(out))
    assert ran.code == 0
    assert any(p.startswith(f"{project / DIAGRAM}: spec_frequency of clock 0 ") for p in ran.problems), ran.problems
    [payload] = rtl_sim(out, "vitis.hw_emu")  # the profile alone still gives the microseconds
    assert (payload["kernel_runtime_us"], payload["kernel_clock_freq_mhz"], payload["kernel_runtime_cycles"]) == (
        6.748,
        None,
        None,
    )


def test_huge_vpp_elapsed_time_is_a_problem_and_no_runtime(tmp_path: Path, cli) -> None:
    project = trees.hw_emu_build(tmp_path / "root")
    edit(project / VPP_LOG, "Total elapsed time: 0h 8m 18s", "Total elapsed time: " + "9" * 5000 + "h 8m 18s")
    # the same link invocation is also logged in the working directory: that copy too
    edit(project / "v++_krnl.link.hw_emu.log", "Total elapsed time: 0h 8m 18s", "Total elapsed time: 0h 8m 1e9s")
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(tmp_path / "root"), "-o", str(out))
    assert ran.code == 0
    assert any(p.startswith(f"{project / VPP_LOG}: Total elapsed time ") for p in ran.problems), ran.problems
    runtimes = {r["run"]["runtime_seconds"] for r in strict_records(out) if r["run"]["target"] == "vitis.hw_emu"}
    assert runtimes == {120.0}  # the compile step's own 0h 2m 0s; the link step's absurd time is left out


def test_hls_log_elapsed_of_400_nines_is_a_problem_never_infinity(tmp_path: Path, cli) -> None:
    project = trees.hls_two_solutions(tmp_path / "root")
    edit(project / HLS_LOG, "Total elapsed time: 51.173 seconds", "Total elapsed time: " + "9" * 400 + " seconds")
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(tmp_path / "root"), "-o", str(out))
    assert ran.code == 0
    assert any(p.startswith(f"{project / HLS_LOG}: Total elapsed time (seconds) ") for p in ran.problems)
    assert {r["run"]["runtime_seconds"] for r in strict_records(out)} == {None}
    assert "Infinity" not in out.read_text()


@pytest.mark.parametrize("stamp", ["T 1e300 s", "T 99999999999999999999 s", "T " + "9" * 5000 + " ps"])
def test_aie_timestamp_out_of_range_is_a_problem(tmp_path: Path, cli, stamp: str) -> None:
    project = trees.aie_project(tmp_path / "root")
    data = project / "aiesimulator_output/data/output_aie.txt"
    data.write_text(data.read_text().replace("T 1680 ns", stamp, 1))
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(tmp_path / "root"), "-o", str(out))
    assert ran.code == 0
    assert any(p.startswith(f"{data}: line 5: timestamp") for p in ran.problems), ran.problems


def test_csynth_number_out_of_range_refuses_the_report(tmp_path: Path, cli) -> None:
    project = trees.hls_two_solutions(tmp_path / "root")
    report = project / "proj/solution2/syn/report/csynth.xml"
    edit(report, "<LUT>15752</LUT>", "<LUT>1e309</LUT>")
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(tmp_path / "root"), "-o", str(out))
    assert f"{report}: AreaEstimates/Resources/LUT '1e309' is out of range (not finite)" in ran.problems
    luts = [
        r["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] for r in records(out) if r["report_type"] == "hls_synth"
    ]
    assert luts == []  # the chosen report is refused: no record rather than one from another solution


@pytest.mark.parametrize(
    ("value", "kind", "expected"),
    [("74", CYCLES, 74), (" 300 ", MHZ, 300.0), ("12.6", CYCLES, 13), ("NA", SECONDS, None), (2**62, CYCLES, 2**62)],
)
def test_checked_conversion_accepts(value: object, kind, expected: object) -> None:
    assert checked(value, "f", kind) == expected


@pytest.mark.parametrize(
    ("value", "kind", "message"),
    [
        ("1e309", CYCLES, "f '1e309' is out of range (not finite)"),
        ("0", MHZ, "f '0' is out of range (must be > 0 and <= 100000)"),
        ("0x10", CYCLES, "f '0x10' is not a number"),
        (True, MHZ, "f 'True' is not a number"),
        pytest.param(10**5000, SECONDS, "f a number of more than 40 digits is out of range (not finite)", id="huge"),
        (2e8, SECONDS, "f '200000000.0' is out of range (must be >= 0 and <= 1e+08)"),
    ],
)
def test_checked_conversion_refuses_naming_the_field(value: object, kind, message: str) -> None:
    with pytest.raises(NumberError) as refused:
        checked(value, "f", kind)
    assert str(refused.value) == message
