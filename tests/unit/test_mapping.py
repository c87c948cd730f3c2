"""Project paths to problem/implementation, and configuration discovery."""

from __future__ import annotations

from pathlib import Path

import pytest

from collectors.collect.config import ConfigError, load_settings
from collectors.collect.mapping import map_project

from ..conftest import LAYOUTS

ROWS = [line.split("\t") for line in (LAYOUTS / "rodinia_hls_project_mapping.tsv").read_text().splitlines() if line]


def test_mapping_file_has_96_rows() -> None:
    assert len(ROWS) == 96


@pytest.mark.parametrize("row", ROWS, ids=[row[0] for row in ROWS])
def test_rodinia_mapping(row: list[str], tmp_path: Path) -> None:
    path, group, index, name = row[:4]
    project = tmp_path / "rodinia-hls" / path
    identity = map_project(project, tmp_path / "rodinia-hls", load_settings(tmp_path))
    assert identity.problem == {"suite": "rodinia_hls", "group_path": group.split("/")}
    assert identity.implementation["variant"] == {"index": int(index), "name": name}
    assert identity.implementation["origin"] == "rodinia_hls_benchmark"
    assert identity.implementation["origin_version"] is None


def test_rules_examples(tmp_path: Path) -> None:
    root = tmp_path / "rodinia-hls"
    settings = load_settings(tmp_path)
    spaced = map_project(root / "Benchmarks/StreamCluster/memory coalescing", root, settings)
    assert spaced.problem["group_path"] == ["StreamCluster", "memory coalescing"]
    assert spaced.implementation["variant"] == {"index": 0, "name": "implementation"}
    nested = map_project(root / "Benchmarks/backprop/backprop_6_multiddr/forward", root, settings)
    assert nested.problem["group_path"] == ["backprop", "forward"]
    assert nested.implementation["variant"] == {"index": 6, "name": "multiddr"}


def test_watching_a_subfolder_gives_the_same_identity(tmp_path: Path) -> None:
    root = tmp_path / "rodinia-hls"
    project = root / "Benchmarks/hotspot/hotspot_3_unrolll"
    whole = map_project(project, root, load_settings(tmp_path))
    part = map_project(project, root / "Benchmarks/hotspot", load_settings(tmp_path))
    assert whole == part


def test_project_is_root_without_benchmarks(tmp_path: Path) -> None:
    root = tmp_path / "My-Kernel"
    identity = map_project(root, root, load_settings(tmp_path))
    assert identity.problem == {"suite": "my_kernel", "group_path": ["My-Kernel"]}
    assert identity.implementation["origin"] == "my_kernel_benchmark"


def test_config_file_flags_and_mapping_rules(tmp_path: Path) -> None:
    (tmp_path / "vitis-tui.toml").write_text(
        'suite = "agent_eval"\norigin = "hls-agent"\norigin_version = "abc123"\nsuite_root = "runs"\n'
        '[origin_meta]\nmodel = "m1"\n'
        '[[mapping]]\npattern = "(?P<group>[^/]+)/attempt(?P<index>\\\\d+)-(?P<name>.+)"\n'
    )
    root = tmp_path / "runs"
    root.mkdir()  # a suite root must be a directory
    settings = load_settings(root, {"origin_version": "flag-wins", "suite": None})
    identity = map_project(root / "gemm" / "attempt3-tiled", root, settings)
    assert identity.problem == {"suite": "agent_eval", "group_path": ["gemm"]}
    assert identity.implementation == {
        "origin": "hls-agent",
        "origin_version": "flag-wins",
        "origin_meta": {"model": "m1"},
        "variant": {"index": 3, "name": "tiled"},
    }


def test_pyproject_table_and_nearest_wins(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.vitis-tui]\nsuite = "outer"\n')
    inner = tmp_path / "inner"
    inner.mkdir()
    assert load_settings(inner).suite == "outer"
    (inner / "vitis-tui.toml").write_text('suite = "inner"\n')
    assert load_settings(inner).suite == "inner"


@pytest.mark.parametrize(
    "text,message",
    [
        ("suite = 3\n", "suite: must be a non-empty string"),
        ("suite = [\n", "vitis-tui.toml"),
        ('[[mapping]]\npattern = "(unclosed"\n', "mapping #1: pattern: missing"),
        ('[[mapping]]\npattern = "(?P<x>.*)"\n', "named group 'group'"),
    ],
)
def test_bad_configuration_is_reported(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "vitis-tui.toml").write_text(text)
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_settings(tmp_path)
