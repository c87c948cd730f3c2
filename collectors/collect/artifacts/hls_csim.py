"""C simulation verdicts, as a log or a `<top>_csim.log` gives them: `CSim done with N errors`,
`CSim failed`, a test bench whose build failed, the Code Analyzer's run (hls_log.py reads the
sessions around them)."""

from __future__ import annotations

import re

_CSIM = re.compile(
    r"CSim (done|failed) with (?:(\d+) )?errors?|('csim_design' failed|Problem running csim):|Code Analyzer (finished)"
)
# the test bench's build (2016-2018: `CSim file generation failed: compilation error(s)`, where
# 2019+ says `'csim_design' failed:`); `done`, a simulation set up only, gives no verdict
GENERATION = "CSim file generation "
_BUILD_FAILED = " compilation error"  # after `'csim_design' failed:`: the test bench did not build
# (2023+: a simulation that crashed says only `ERROR: Problem running csim: child process exited
# abnormally`: lstm2's component, its csim summary CS_FAILED, had no sw_run)
# (2024.1+, `csim.code_analyzer=1`: the test bench runs under the Code Analyzer instead, and a
# run that ended well says only `INFO: [SIM 211-210] Code Analyzer finished`: kwt3/HLS-Models'
# Matrix-Multiplication, its csim summary CS_PASSED, had no sw_run; one that failed says
# `Code Analyzer execution failed` and `Problem running csim:`)
ANALYZED = "Code Analyzer finished"
_ANALYZER_RUN = "Executing Code Analyzer"  # (where the classic run writes `CSIM start`)
# what every release writes before the test bench runs, whose output a log then holds, any bytes
TESTBENCH_START = b"CSIM start"
_CSIM_STARTS = ("CSim ", "'csim_design' failed:", "Problem running csim:", ANALYZED)


def csim_status(text: str) -> str | None:
    """`pass`/`fail` from the last C simulation verdict in a log, or None without one; a test
    bench whose build failed after it (and was not built again since) is a `fail`
    (horizon-research/svr-sample-function's 2018.2 csim log: no sw_run was written)."""
    verdict = _last_csim_verdict(text)
    generation = text.rfind(GENERATION)
    after = generation > (verdict.start() if verdict is not None else -1)
    if after and text.startswith("failed", generation + len(GENERATION)):
        return "fail"
    while after and verdict is not None and text.startswith(_BUILD_FAILED, verdict.end()):
        # a test bench built since the build that failed (2019+ spelling): fixed; the verdict is
        # the one before (ganyunhan/IC-Design-Contest-ARM-CUP: compilation errors, then two
        # sessions that built it with 0 errors and ran nothing)
        verdict = _last_csim_verdict(text, before=verdict.start())  # (no copy of a long log)
    if verdict is None:
        return None
    word, count, failed, analyzed = verdict.groups()
    return "pass" if analyzed or (not failed and word == "done" and (count or "0") == "0") else "fail"


def analyzed_last(text: str) -> bool:
    """Whether the log's last C simulation ran under the Code Analyzer, which writes no csim
    report: a `<top>_csim.log` beside the log is of an earlier classic run."""
    return text.rfind(_ANALYZER_RUN) > text.rfind(TESTBENCH_START.decode())


def _last_csim_verdict(text: str, before: int | None = None) -> re.Match[str] | None:
    """The last match of _CSIM (what `findall` would give last: its matches never overlap) in
    the text up to `before` (all of it by default), looked for backwards from each literal a
    match starts with, not by scanning the whole log."""
    last: re.Match[str] | None = None
    limit = len(text) if before is None else before
    for start in _CSIM_STARTS:
        end = limit
        while (at := text.rfind(start, 0, end)) >= 0:
            match = _CSIM.match(text, at, limit)
            if match is not None:
                last = match if last is None or at > last.start() else last
                break
            end = at + len(start) - 1  # the next occurrence starts before this one
    return last
