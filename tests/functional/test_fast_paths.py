"""The fast paths of a scan write the same bytes as the plain one: the walk and the parsing shared
out between 1 to 4 processes, on the benchmark's deep hw_emu tree and on the test trees."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from collectors.config import load_settings
from collectors.engine import Engine

from .. import trees
from ..bench.deep_tree import build_deep_tree
from ..conftest import EXPECTED_TREE


def collect(root: Path, processes: int) -> tuple[bytes, list[str]]:
    engine = Engine(lambda r: load_settings(Path(r)))
    engine.processes = processes
    collection = engine.scan([str(root)], wait_for_writers=0)
    problems = [str(p) for p in collection.problems()]
    return collection.output("", "").records.render(), problems


def collect_in_one_walk(root: Path) -> tuple[bytes, list[str]]:
    """The plain path: beside another thread a scan never forks, one walker sees everything."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        return collect(root, processes=4)
    finally:
        stop.set()
        other.join()


@pytest.fixture(scope="module")
def deep_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(build_deep_tree(str(tmp_path_factory.mktemp("deep")), projects=9, log_lines=60))


def test_the_deep_tree_gives_the_same_bytes_by_every_path(deep_tree: Path) -> None:
    plain, plain_problems = collect_in_one_walk(deep_tree)
    lines = [json.loads(line) for line in plain.splitlines()]
    assert len(lines) == 18 and plain_problems == []
    # the canonical report wins over its packaged copies (they hold 999 more LUTs)
    first = lines[0]
    assert first["problem"]["group_path"] == ["group00", "design_00000"]
    canonical = next(deep_tree.glob("group00/design_00000/_x.*/*/*/*/solution/syn/report/csynth.xml"))
    lut = canonical.read_text().split("<LUT>")[1].split("<")[0]
    assert first["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] == lut
    for processes in (1, 2, 3, 4):
        assert collect(deep_tree, processes) == (plain, plain_problems), processes


def test_the_test_trees_give_the_expected_file_by_every_path(tmp_path: Path) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    assert collect_in_one_walk(root)[0] == EXPECTED_TREE.read_bytes()
    for processes in (1, 2, 3, 4):
        assert collect(root, processes)[0] == EXPECTED_TREE.read_bytes(), processes
