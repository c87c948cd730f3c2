"""The demo tree (and the benchmarks' trees built with it) is the same whether one process
writes it or several."""

from __future__ import annotations

import shutil
from pathlib import Path

from collectors.demo import build_demo_tree


def contents(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def test_the_demo_tree_is_the_same_written_by_several_processes(tmp_path: Path) -> None:
    root = Path(build_demo_tree(str(tmp_path), projects=30, noise=4))
    written_by_one = contents(root)
    # 20 v++ hw_emu builds of 8 files, 10 vitis_hls projects of 9; each with 4 noise files
    assert len(written_by_one) == 20 * (8 + 4) + 10 * (9 + 4)
    shutil.rmtree(tmp_path / "rodinia-hls")
    assert build_demo_tree(str(tmp_path), projects=30, noise=4, processes=3) == str(root)
    assert contents(root) == written_by_one
