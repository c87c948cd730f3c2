from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
VITIS = FIXTURES / "vitis"
LAYOUTS = FIXTURES / "layouts"
EXPECTED_TREE = FIXTURES / "expected_tree.jsonl"  # what collect writes for trees.build_all


def fixture_bytes(name: str) -> bytes:
    return (VITIS / name).read_bytes()


def place(tree: Path, rel: str, fixture: str | None = None, text: str | None = None) -> Path:
    """Put a real fixture file (or a text) at `rel` inside a temporary tree."""
    target = tree / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    if fixture is not None:
        shutil.copyfile(VITIS / fixture, target)
    else:
        target.write_text(text or "", encoding="utf-8")
    return target


def set_mtime(path: Path, seconds_ago: float) -> None:
    import time

    when = time.time() - seconds_ago
    os.utime(path, (when, when))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return tmp_path / "tree"


@contextmanager
def cores_kept_busy(count: int = 2) -> Iterator[None]:
    """Processes that keep the cores busy, as builds do on a build host."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def until(condition: Callable[[], bool], seconds: float = 20.0) -> bool:
    """Whether `condition` comes to hold within `seconds` (looked at every 50 ms), for threads."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


async def wait_until(pilot, condition, timeout: float = 30.0) -> None:
    """Let a Textual app run until `condition` holds; fail after `timeout` seconds."""
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await pilot.pause(0.05)


def records_of(collection: Any) -> tuple[list[dict[str, Any]], list[Any]]:
    """The records a collection writes, in file order, and its key clashes."""
    output = collection.output("", "")
    return [json.loads(line) for line in output.records.render().splitlines()], output.clashes()


def extension_records_of(collection: Any) -> list[dict[str, Any]]:
    """The extension records a collection writes, in file order."""
    return [json.loads(line) for line in collection.output("", "").extensions.render().splitlines()]
