"""Helpers for the hostile-input tests: run the command line in-process and read what it wrote."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from tui.cli import main


@dataclass
class Ran:
    code: int
    out: str
    err: str

    @property
    def problems(self) -> list[str]:
        """stderr lines except the summary line, and the line of a solution that tests/trees.py
        hls_two_solutions leaves out by design (its path gives the variant: one solution speaks)."""
        return [
            line
            for line in self.err.splitlines()
            if " runs, " not in line and not line.endswith(": the path gives the variant (solution2 gives the records)")
        ]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    def run(*args: str) -> Ran:
        capsys.readouterr()
        code = main(list(args))
        captured = capsys.readouterr()
        return Ran(code, captured.out, captured.err)

    return run


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
