"""Every kind of bad input is a reported problem, never a crash or a wrong record."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from collectors.collect import engine as engine_module
from collectors.collect import results as results_module
from collectors.collect.config import load_settings
from collectors.collect.engine import Engine

from .. import trees
from ..conftest import VITIS, place, records_of

GOOD = "SherlockChristie-FFT__FFT_sol_2__opt1__syn__report__csynth.xml"
CSYNTH = "proj/solution1/syn/report/csynth.xml"


def hls_project(root: Path) -> Path:
    return trees.waiting_solution(root)


def scan(root: Path, wait: float = 0.0):
    engine = Engine(lambda r: load_settings(Path(r)))
    collection = engine.scan([str(root)], wait_for_writers=wait)
    records, _ = records_of(collection)
    return records, [str(p) for p in collection.problems()]


def assert_refused(root: Path, path: Path, reason: str) -> None:
    records, problems = scan(root)
    assert f"{path}: {reason}" in problems or any(p.startswith(f"{path}: ") and reason in p for p in problems), problems
    assert not [r for r in records if r["report_type"] == "hls_synth"]


def test_truncated_xml(tmp_path: Path) -> None:
    project = hls_project(tmp_path)
    data = (VITIS / GOOD).read_bytes()
    report = place(project, CSYNTH, text="")
    report.write_bytes(data[: len(data) // 2])
    time_ago = time.time() - 60
    os.utime(report, (time_ago, time_ago))
    assert_refused(tmp_path, report, "broken XML")


def test_file_cut_after_complete_sections_is_still_broken(tmp_path: Path) -> None:
    project = hls_project(tmp_path)
    data = (VITIS / GOOD).read_bytes()
    cut = data.index(b"</AreaEstimates>") + len(b"</AreaEstimates>")
    report = place(project, CSYNTH, text="")
    report.write_bytes(data[:cut])
    assert_refused(tmp_path, report, "broken XML")


def test_binary_junk_named_csynth(tmp_path: Path) -> None:
    report = place(hls_project(tmp_path), CSYNTH, text="")
    report.write_bytes(bytes(range(256)) * 64)
    assert_refused(tmp_path, report, "broken XML")


def test_git_lfs_pointer(tmp_path: Path) -> None:
    report = place(hls_project(tmp_path), CSYNTH, "Choocie-vitis-hls-bug-report-mve__build__v++_harness.log")
    assert_refused(tmp_path, report, "Git LFS pointer, not the report (run 'git lfs pull')")


def test_external_entity_is_not_expanded(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    report = place(
        hls_project(tmp_path),
        CSYNTH,
        text=(
            f'<?xml version="1.0"?>\n<!DOCTYPE profile [<!ENTITY xxe SYSTEM "file://{secret}">]>\n'
            "<profile><ReportVersion><Version>&xxe;</Version></ReportVersion></profile>\n"
        ),
    )
    records, problems = scan(tmp_path)
    assert f"{report}: XML declares a DTD or entities, refused (reports never do)" in problems
    assert "TOP-SECRET" not in repr(records)


def test_billion_laughs_is_refused_quickly(tmp_path: Path) -> None:
    entities = '<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10)
    )
    report = place(
        hls_project(tmp_path),
        CSYNTH,
        text=(
            f'<?xml version="1.0"?>\n<!DOCTYPE profile [{entities}]>\n'
            "<profile><ReportVersion><Version>&lol9;</Version></ReportVersion></profile>\n"
        ),
    )
    started = time.perf_counter()
    assert_refused(tmp_path, report, "XML declares a DTD or entities")
    assert time.perf_counter() - started < 5


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = place(hls_project(tmp_path), CSYNTH, GOOD)
    real_open = os.open

    def deny(path, *args, **kwargs):
        if str(path) == str(report):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    # Tests run as root in CI, where chmod 000 does not stop a read: deny it at open().
    monkeypatch.setattr(os, "open", deny)
    assert_refused(tmp_path, report, "permission denied")


def test_directory_symlink_loop_is_reported_and_not_followed(tmp_path: Path) -> None:
    project = hls_project(tmp_path)
    place(project, CSYNTH, GOOD)
    os.symlink(project, project / "proj" / "loop")
    records, problems = scan(tmp_path)
    assert f"{project / 'proj' / 'loop'}: symbolic link loop, not followed" in problems
    assert [r["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] for r in records] == ["15752"]


def test_file_symlink_loop(tmp_path: Path) -> None:
    project = hls_project(tmp_path)
    report = project / CSYNTH
    report.parent.mkdir(parents=True)
    os.symlink(report.parent / "other.xml", report)
    os.symlink(report, report.parent / "other.xml")
    assert_refused(tmp_path, report, "symbolic link loop")


def test_200mb_file_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = place(hls_project(tmp_path), CSYNTH, text="")
    with report.open("wb") as out:
        out.truncate(200 * 1024 * 1024)  # sparse: costs no disk
    monkeypatch.setattr("collectors.files.open", None, raising=False)  # opening it would be a bug
    assert_refused(tmp_path, report, "file too large (209715200 bytes > 67108864 bytes), refused unread")


def test_file_removed_during_the_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = place(hls_project(tmp_path), CSYNTH, GOOD)
    real = results_module.read_report

    def vanish(path: str) -> bytes:
        if path == str(report):
            os.unlink(path)
        return real(path)

    monkeypatch.setattr(results_module, "read_report", vanish)
    assert_refused(tmp_path, report, "file removed while it was being read")


def test_half_written_file_is_retried_until_it_stops_changing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = (VITIS / GOOD).read_bytes()
    report = place(hls_project(tmp_path), CSYNTH, text="")
    report.write_bytes(data[:1000])  # the writer is still at it: mtime is now
    finished = []

    def writer_finishes(seconds: float) -> None:
        if not finished:
            report.write_bytes(data)
            past = time.time() - 10
            os.utime(report, (past, past))
            finished.append(True)

    monkeypatch.setattr(engine_module.time, "sleep", writer_finishes)
    records, problems = scan(tmp_path, wait=5.0)
    assert finished and problems == []
    assert [r["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] for r in records] == ["15752"]


def test_malformed_profile_row_gives_no_rtl_record(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    project = trees.hw_emu_build(root)
    profile = project / ".run/1585848/hw_em/device0/binary_0/behav_waveform/xsim/profile_kernels.csv"
    profile.write_text(
        profile.read_text().replace("topKQueryScores_1,6.748,0.000,0.148,0.000", "topKQueryScores_1,6.748,0.000")
    )
    records, problems = scan(root)
    assert f"{profile}: line 3: 3 cells where the header has 5" in problems
    assert [r["report_type"] for r in records] == ["hls_synth"]


def test_a_csim_log_with_nul_bytes_from_its_testbench_is_read(tmp_path: Path) -> None:
    """nrakhlin/ece6775Final: an encryption testbench printed raw bytes, 63 NULs in a 21 KB log
    that ends `CSim failed with errors.`; it was 'binary data', and the failed sw_run lost."""
    project = hls_project(tmp_path)
    block = [f"Test vector {n:03d}: compiling and comparing the expected ciphertext\n" for n in range(20)]
    lines = [row for n in range(21) for row in (*block, f"Output string = efg{chr(0) * 3}{n}\n")]
    lines.append("ERR: [SIM 100] CSim failed with errors.\n")
    place(project, "proj/solution1/csim/report/k_csim.log", text="".join(lines))
    records, problems = scan(tmp_path)
    assert [(r["report_type"], r["sw_run"]["status"]) for r in records] == [("sw_run", "fail")]


def test_a_csim_log_of_a_testbench_printing_zero_bytes_is_read(tmp_path: Path) -> None:
    """sampathchanda/18643-Project's fifo_splitter (2015.2): the testbench printed `unsigned char`
    zeros, `\\0,` 619 times in a 4,279-byte log (14 % NULs), then `CSim done with 0 errors.`"""
    project = hls_project(tmp_path)
    log = "   Compiling ../../../fifo_splitter_tb.cpp in debug mode\n   Generating csim.exe\n"
    log += "\0," * 619 + "\n" + "read back 619 words\n" * 150 + "@I [SIM-1] CSim done with 0 errors.\n"
    place(project, "proj/solution1/csim/report/k_csim.log", text=log)
    records, _problems = scan(tmp_path)
    assert [(r["report_type"], r["sw_run"]["status"]) for r in records] == [("sw_run", "pass")]


def test_a_log_padded_with_nul_bytes_is_read(tmp_path: Path) -> None:
    """terenceza/AccelAutoencoderOnFPGA's vitis_hls.log: 530 bytes of text, then 190 NULs (a
    file Windows had grown before the session ended)."""
    project = hls_project(tmp_path)
    log = "INFO: [SIM 211-1] CSim done with 0 errors.\n" * 12
    place(project, "proj/solution1/csim/report/k_csim.log", text=log + "\0" * 190)
    records, _problems = scan(tmp_path)
    assert [(r["report_type"], r["sw_run"]["status"]) for r in records] == [("sw_run", "pass")]


def test_a_log_padded_with_nul_bytes_and_interrupts_is_read(tmp_path: Path) -> None:
    """danila-kuryakin/fpga_labs's lab3_z3/vitis_hls.log (2021.2, Windows GUI): a whole session in
    6,519 bytes, then 106,191 NULs in four runs parted by the console's `^C` echoes: it was
    'binary data' (38,455 of its first 65,536 bytes NUL)."""
    project = hls_project(tmp_path)
    log = "INFO: [SIM 211-1] CSim done with 0 errors.\n" * 150
    padding = "\0" * 15445 + "^C" + "\0" * 23010 + "^C^C" + "\0" * 32993 + "^C^C^C^C" + "\0" * 34743
    log_path = place(project, "proj/solution1/csim/report/k_csim.log", text=log + padding + "^C^C^C^C^C^C")
    records, problems = scan(tmp_path)
    assert [(r["report_type"], r["sw_run"]["status"]) for r in records] == [("sw_run", "pass")]
    assert not [line for line in problems if line.startswith(str(log_path))]


def test_a_session_transcript_named_like_a_csim_report_is_no_report(tmp_path: Path) -> None:
    """zhren711/fastvit_hls's fastvit_ip_v2/run_csim.log: `vitis_hls -f run_csim.tcl` captured,
    beside fifty transcripts of other names; named `<top>_csim.log` it was 'report that no run of
    this project takes' (of a function `run`), the only one of them said."""
    project = hls_project(tmp_path)
    place(project, "proj/solution1/csim/report/k_csim.log", text="INFO: [SIM 211-1] CSim done with 0 errors.\n")
    transcript = place(
        project,
        "run_csim.log",
        text="****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2024.2 (64-bit)\n"
        "Sourcing Tcl script 'run_csim.tcl'\nINFO: [SIM 211-1] CSim done with 0 errors.\n",
    )
    records, problems = scan(tmp_path)
    assert [(r["report_type"], r["sw_run"]["status"]) for r in records] == [("sw_run", "pass")]
    assert not [line for line in problems if line.startswith(str(transcript))]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (bytes(range(256)) * 64, "(1,792 of its first 16,384 bytes are control characters)"),
        (b"\0" * 4096, "(NUL bytes only)"),
        (b"MZ\x90\0\x03\0\0\0\x04\0" * 100, "(499 of its first 1,000 bytes are NUL)"),  # (the last one: padding)
        (b"\xff\xfe" + bytes(range(256)) * 64, "(a UTF-16 mark, then mostly no ASCII)"),
        (
            b"<ENTRY>{}</ENTRY>\n" * 300 + b"\0" * 6816 + b"<ENTRY>{}</ENTRY>\n",
            "(6,816 of its first 12,234 bytes are NUL)",
        ),
    ],
)
def test_binary_junk_named_like_a_log_is_refused(tmp_path: Path, content: bytes, why: str) -> None:
    """Each problem line says what made the file binary (nmavuso/ese5320_final_project's link
    summary: text, then 6,816 NUL bytes, then text again)."""
    report = place(hls_project(tmp_path), "proj/solution1/csim/report/k_csim.log", text="")
    report.write_bytes(content)
    assert_refused(tmp_path, report, f"binary data, not a text report {why}")


def test_a_csim_log_written_as_utf16_is_read(tmp_path: Path) -> None:
    """Windows PowerShell 5's `>` writes UTF-16 with a byte-order mark: a csim log redirected
    there is half NULs, and was refused as binary data (its verdict lost)."""
    project = hls_project(tmp_path)
    log = "   Compiling ../../../tb.cpp in debug mode\r\n" * 20 + "INFO: [SIM 211-1] CSim done with 0 errors.\r\n"
    report = place(project, "proj/solution1/csim/report/k_csim.log", text="")
    report.write_bytes(log.encode("utf-16"))  # (with its BOM, little-endian here)
    records, _problems = scan(tmp_path)
    assert [(r["report_type"], r["sw_run"]["status"]) for r in records] == [("sw_run", "pass")]


def test_the_tools_own_blackbox_file_named_like_a_cosim_report_is_no_report(tmp_path: Path) -> None:
    """itsruthwik/vitis-hls-blackbox: `.autopilot/db/blackbox_cosim.rpt` holds the path of an RTL
    blackbox's JSON (no simulation ran); it was a 'no RTL result rows' problem line."""
    project = hls_project(tmp_path)
    place(project, "proj/solution1/.autopilot/db/blackbox_cosim.rpt", text="/mnt/vault0/k/int8_wrapper.json\n")
    _records, problems = scan(tmp_path)
    assert not [p for p in problems if "blackbox_cosim.rpt" in p]


@pytest.mark.parametrize("content", [b"\xff\xfe", b"\xef\xbb\xbf\n", "\n".encode("utf-16")])
def test_a_byte_order_mark_alone_is_an_empty_file(tmp_path: Path, content: bytes) -> None:
    report = place(hls_project(tmp_path), "proj/solution1/csim/report/k_csim.log", text="")
    report.write_bytes(content)
    assert_refused(tmp_path, report, "empty file")


LFS_POINTER = "version https://git-lfs.github.com/spec/v1\noid sha256:{}\nsize 20931\n".format("0" * 64)


@pytest.mark.parametrize(
    ("log", "content"),
    [
        ("logs/hls_run_csim.log", LFS_POINTER.encode()),  # ZShyKa/deeplearningonfpga: `*.log` in LFS
        ("logs/hls_run_csim.log", bytes(range(256)) * 64),
        ("logs/hls_compile.log", b"\0\0\0"),
    ],
)
def test_a_component_step_log_that_cannot_be_read_costs_only_itself(tmp_path: Path, log: str, content: bytes) -> None:
    """A unified component whose step log is unreadable and that has no C simulation report: the
    run grouping asked the log what its C simulation said, and the whole collection stopped."""
    component = tmp_path / "Benchmarks/comp"
    config = {"name": "comp", "type": "HLS", "configuration": {"configFiles": ["hls_config.cfg"], "work_dir": "comp"}}
    place(component, "vitis-comp.json", text=json.dumps(config))
    place(component, "hls_config.cfg", text="part=xc7z020clg400-1\n[hls]\nsyn.top=top\n")
    (component / "comp" / log).parent.mkdir(parents=True)
    (component / "comp" / log).write_bytes(content)
    place(trees.waiting_solution(tmp_path), CSYNTH, GOOD)
    records, problems = scan(tmp_path)
    assert [r["report_type"] for r in records] == ["hls_synth"]
    assert [p for p in problems if p.startswith(str(component / "comp" / log))], problems


def test_a_fault_of_the_collector_on_one_project_costs_that_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug met on one project's files (the step log above, before its fix) is one problem line;
    the other projects are collected."""
    build_runs = results_module.build_runs

    def failing(project_path: str, *args, **kwargs):
        if project_path.endswith("k_1_b"):
            raise KeyError("csim_status")
        return build_runs(project_path, *args, **kwargs)

    monkeypatch.setattr(results_module, "build_runs", failing)
    for variant in ("k_1_a", "k_1_b"):
        place(trees.waiting_solution(tmp_path, variant=variant), CSYNTH, GOOD)
    records, problems = scan(tmp_path)
    assert [r["implementation"]["variant"]["name"] for r in records] == ["a"]
    broken = tmp_path / "Benchmarks/k/k_1_b"
    assert problems == [f"{broken}: not collected: vitis-tui failed on it (KeyError: 'csim_status'), a bug to report"]


def test_a_log_holding_a_merge_conflict_is_refused_not_read(tmp_path: Path) -> None:
    """Karniela/RSA_Implementation_on_PYNQ committed a vitis_hls.log with git's conflict markers:
    this side's session (29.08 s), the other side's of another project (31.01 s); the record
    took 31.01 s. Two histories of one log are no run's: a problem line, the log unread."""
    project = hls_project(tmp_path)
    place(project, CSYNTH, GOOD)
    session = "INFO: [HLS 200-1510] Running: csynth_design \nINFO: [HLS 200-112] Total elapsed time: {} seconds;\n"
    log = "<<<<<<< HEAD\n" + session.format("29.08") + "=======\n" + session.format("31.01") + ">>>>>>> origin/b2\n"
    conflicted = place(project, "vitis_hls.log", text="Vitis HLS v2022.2 (64-bit)\n" + log)
    records, problems = scan(tmp_path)
    assert [r["run"]["runtime_seconds"] for r in records] == [None]
    assert problems == [f"{conflicted}: a merge conflict left in the file ('<<<<<<<' at line 2), not read"]
    conflicted.write_text(session.format("29.08") + "<<<<<<< not a marker alone\n")  # (no ======= nor >>>>>>>)
    records, problems = scan(tmp_path)
    assert [r["run"]["runtime_seconds"] for r in records] == [29.08] and problems == []
