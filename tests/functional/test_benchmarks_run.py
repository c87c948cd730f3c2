"""Every benchmark script still runs, at a tiny size (its figures are not looked at: only that it
ends well and prints them). A benchmark that drifts from the code it measures fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
TINY = {
    "bench_aie.py": ["--lines", "2000"],
    "bench_browse.py": ["--records", "300"],
    "bench_browse_scale.py": ["--records", "300"],
    "bench_collect.py": ["--projects", "12", "--noise", "3", "--rounds", "1"],
    "bench_collect_deep.py": ["--projects", "6", "--log-lines", "40", "--rounds", "1"],
    "bench_collect_light.py": ["--projects", "30", "--deep", "2", "--cores", "1,2", "--rounds", "1"],
    "bench_compare.py": ["--problems", "3", "--arms", "2", "--variants", "2"],
    "bench_watch.py": ["--trees", "demo", "--projects", "6", "--noise", "2", "--edits", "3", "--early", "1"],
}


@pytest.mark.parametrize("script", sorted(TINY))
def test_benchmark_runs_at_a_tiny_size(script: str) -> None:
    ran = subprocess.run(
        [sys.executable, str(BENCH / script), *TINY[script]], capture_output=True, text=True, timeout=240
    )
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    assert ran.stdout.strip()


def test_every_benchmark_is_run_here() -> None:
    assert sorted(path.name for path in BENCH.glob("bench_*.py")) == sorted(TINY)
