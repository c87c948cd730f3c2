"""tests/realtrees/run.py on the small trees of tests/fixtures/realtrees (real shapes, data only)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from tests.realtrees.run import main

from ..conftest import FIXTURES

TREES = FIXTURES / "realtrees"
SCRIPT = Path(__file__).resolve().parents[1] / "realtrees" / "run.py"

# tree: projects (built), runs, sw_run, hls_synth, rtl_sim, extension records, problems
EXPECTED = {
    # v++ -c --mode hls work folder without vitis-comp.json, its drivers and packaged copy; a hw link
    "mode_hls_component": ("1 (1)", "2", "0", "1", "0", "0", "0"),
    # hw_emu profiles beside link summaries (two folders), and a hw-only folder
    "harness_results": ("3 (3)", "2", "0", "0", "2", "0", "0"),
    # Vivado HLS 2015.2: <top>_csynth.xml only
    "vivado_2015": ("1 (1)", "1", "0", "1", "1", "0", "0"),
    # vitis-comp.json naming work_dir "example"; the code analyzer's .internal recipe.json files
    "code_analyzer": ("1 (1)", "1", "0", "1", "1", "0", "0"),
    # include/ with a makefile beside a built solution
    "include_beside_solution": ("1 (1)", "1", "0", "1", "1", "0", "0"),
    # a csynth.xml copied out of a project that is not there: a problem, not a silent loss
    "report_in_no_project": ("0 (0)", "0", "0", "0", "0", "0", "1"),
    # a source tree without build output: listed, nothing collected
    "source_only": ("1 (0)", "0", "0", "0", "0", "0", "0"),
}


def rows(table: str) -> dict[str, list[str]]:
    lines = [line for line in table.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == ["tree", "projects", "runs", "sw_run", "hls_synth", "rtl_sim", "extension", "problems", "seconds"]
    found = {}
    for line in lines[1:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        float(cells[-1])  # seconds
        found[cells[0]] = cells[1:-1]
    return found


def test_counts_per_tree() -> None:
    out = io.StringIO()
    assert main([str(path) for path in sorted(TREES.iterdir())], out=out) == 0
    assert rows(out.getvalue()) == {tree: list(counts) for tree, counts in EXPECTED.items()}


def test_problems_and_records_written(tmp_path: Path) -> None:
    out = io.StringIO()
    assert main([str(TREES / "report_in_no_project"), "--problems", "--records", str(tmp_path)], out=out) == 0
    assert out.getvalue().endswith(
        f"report_in_no_project:\n  {TREES}/report_in_no_project/notes/report/csynth.xml: report in no project "
        "(no build evidence, nor a build marker with source, in its folder or above it): not collected\n"
    )
    assert (tmp_path / "report_in_no_project.jsonl").read_text() == ""
    assert (tmp_path / "report_in_no_project.problems.txt").read_text().count("\n") == 1


def test_runs_as_a_script() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(TREES / "vivado_2015")], capture_output=True, text=True, check=True
    )
    assert rows(done.stdout) == {"vivado_2015": list(EXPECTED["vivado_2015"])}
