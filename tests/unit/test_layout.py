"""The layout's guards: what each stage package may import, and how large a module or a
function may grow (docs/architecture.md says why)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60

# each stage and the stages it may import (itself included); the base is collectors' own modules
MAY_IMPORT = {
    "base": {"base"},
    "records": {"base", "records"},
    "collect": {"base", "records", "collect"},
    "live": {"base", "records", "collect", "live"},
    "compare": {"base", "records", "compare"},
    "tui": {"base", "records", "collect", "live", "compare", "tui"},
}
NEVER_TEXTUAL = {"base", "records", "collect", "live", "compare"}


def modules() -> list[Path]:
    return sorted(path for package in ("collectors", "tui") for path in (ROOT / package).rglob("*.py"))


def stage_of_file(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    if parts[0] == "tui":
        return "tui"
    return parts[1] if len(parts) > 2 else "base"


def stage_of_module(name: str) -> str | None:
    """The stage a dotted module name belongs to (None: not this project's)."""
    parts = name.split(".")
    if parts[0] == "tui":
        return "tui"
    if parts[0] != "collectors":
        return None
    return parts[1] if len(parts) > 1 and parts[1] in MAY_IMPORT else "base"


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import of the file, function-level ones included."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_module_imports_only_its_stage_and_those_under_it(path: Path) -> None:
    stage = stage_of_file(path)
    wrong = []
    for line, module in imported(path):
        if module.split(".")[0] == "textual" and stage in NEVER_TEXTUAL:
            wrong.append(f"line {line}: {module} (Textual)")
        target = stage_of_module(module)
        if target is not None and target not in MAY_IMPORT[stage]:
            wrong.append(f"line {line}: {module} ({target})")
    assert not wrong, f"{stage} may import {sorted(MAY_IMPORT[stage])} only"


def test_no_relative_import_crosses_a_package() -> None:
    """Imports are absolute: a moved module cannot silently import its new neighbour's namesake."""
    relative = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level > 1
    ]
    assert not relative


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_modules_and_functions_stay_small(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") <= MAX_MODULE_LINES
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long
