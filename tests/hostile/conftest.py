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
        """stderr lines except the summary line."""
        return [line for line in self.err.splitlines() if " projects, " not in line]


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
