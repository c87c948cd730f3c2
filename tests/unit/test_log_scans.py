"""The fast scans of large logs give what the plain ones (whole-text `findall`, a loop over every
line) give: on texts made of the fragments the patterns look for, in any order and overlap."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from collectors.collect.artifacts import hls_csim, hls_log, hls_opened
from collectors.collect.artifacts.vpp_log import error_lines

FRAGMENTS = [
    "CSim done with 0 errors.",
    "CSim done with 3 errors",
    "CSim failed with errors.",
    "CSim done with",
    "CSim ",
    "CSim CSim done with 1 error",
    "ERROR: [SIM 211-100] 'csim_design' failed: nonzero return value.",
    "'csim_design' failed):",
    'Running: open_solution -reset "solution2"',
    "Running: open_solution ",
    "Running: open_solution -flow_target vitis C:\\work\\prj\\sol",
    "Opening solution 'prj/solution1'",
    "Opening and resetting solution '/tmp/prj/s3'",
    "Creating and opening solution 'x'",
    "Opening solution '",
    "Opening solution 'Opening solution 'y''",
    "ERROR: [HLS 207-1398] bad",
    "INFO: [SIM 211-210] Code Analyzer finished",
    "Code Analyzer ",
    "ERROR:",
    "INFO: [XFORM 203-1] done",
    "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.2 (64-bit)",
    "v2023.2.1 (64-bit)",
    " (64-bit)",
    "****** HLS Build v2024.1.1 ",
    "**** HLS Build v",
    "Version: 2019.1",
    "Version: ",
    "\n",
    "\r\n",
    " ",
    "'",
    "x",
]
texts = st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join)


def plain_csim_status(text: str) -> str | None:
    verdicts = hls_csim._CSIM.findall(text)
    if not verdicts:
        return None
    word, count, failed, analyzed = verdicts[-1]
    return "pass" if analyzed or (not failed and word == "done" and (count or "0") == "0") else "fail"


@settings(max_examples=400)
@given(texts)
def test_the_last_csim_verdict_is_the_one_findall_gives_last(text: str) -> None:
    assert hls_log.csim_status(text) == plain_csim_status(text)


@settings(max_examples=400)
@given(texts)
def test_opened_solutions_are_what_findall_finds(text: str) -> None:
    found = hls_opened.opened_at(text)
    assert [path for _at, path in found] == [a or b for a, b in hls_opened._OPENED.findall(text)]
    assert [at for at, _path in found] == [m.start() for m in hls_opened._OPENED.finditer(text)]


@settings(max_examples=200)
@given(texts)
def test_error_lines_are_the_lines_starting_with_error(text: str) -> None:
    assert error_lines(text) == [line.strip() for line in text.splitlines() if line.startswith("ERROR:")][:20]
    if "ERROR:" not in text:
        assert hls_log.errors_by_step(text) == {}


def plain_version(text: str) -> str | None:
    banner = hls_log._BANNER.search(text)
    header = hls_log._OLD_HEADER.search(text)
    return (banner.group(1) or banner.group(2)) if banner else header.group(1) if header else None


@settings(max_examples=400)
@given(texts)
def test_the_version_is_the_one_the_plain_searches_give(text: str) -> None:
    assert hls_log.parse_hls_log(text.encode())["vitis_version"] == plain_version(text)


def test_a_log_of_a_thousand_lines_gives_the_same_facts_by_both_scans() -> None:
    text = (
        "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.2 (64-bit)\n"
        "INFO: [HLS 200-10] Opening solution '/w/prj/solution1'.\n"
        "INFO: [SIM 211-1] CSim done with 0 errors.\n" + "INFO: [HLS 200-1] a step finished\n" * 1000
    )
    assert hls_log.csim_status(text) == plain_csim_status(text) == "pass"
    assert hls_log.parse_hls_log(text.encode())["opened"] == ["solution1"]
