"""Project path to the record's `problem` and `implementation` (rules, section 2)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import Settings

VARIANT = re.compile(r"^(?:(.+?)_)?(\d+)_([A-Za-z].*)$")
DEFAULT_VARIANT = {"index": 0, "name": "implementation"}


@dataclass(frozen=True)
class Identity:
    """Who a project's records belong to: the `problem` and `implementation` objects."""
    problem: dict[str, Any]
    implementation: dict[str, Any]


def suite_root_of(project: Path, root: Path, settings: Settings) -> Path:
    if settings.suite_root is not None:
        return settings.suite_root
    for directory in [project, *project.parents]:
        if directory.name == "Benchmarks":
            return directory
    return root


def suite_name(suite_root: Path) -> str:
    base = suite_root.parent if suite_root.name == "Benchmarks" and suite_root.parent != suite_root else suite_root
    return (base.name or "suite").lower().replace("-", "_")


def split_rel(parts: list[str]) -> tuple[list[str], dict[str, Any]]:
    """Group path and variant from the components below the suite root (deepest match wins)."""
    for position in range(len(parts) - 1, -1, -1):
        match = VARIANT.match(parts[position])
        if match:
            variant = {"index": int(match.group(2)), "name": match.group(3)}
            return parts[:position] + parts[position + 1:], variant
    return list(parts), dict(DEFAULT_VARIANT)


def rel_parts(project: Path, root: Path, settings: Settings) -> list[str]:
    suite_root = suite_root_of(project, root, settings)
    try:
        parts = list(project.relative_to(suite_root).parts)
    except ValueError:
        parts = []
    return parts or [project.name]


def map_project(project: Path, root: Path, settings: Settings) -> Identity:
    # Logical (unresolved) paths: a symlinked suite keeps the names the user sees.
    project, root = Path(os.path.abspath(project)), Path(os.path.abspath(root))
    parts = rel_parts(project, root, settings)
    group, variant = None, None
    rel = "/".join(parts)
    for rule in settings.mappings:
        match = rule.pattern.fullmatch(rel)
        if match:
            group = [p for p in match.group("group").split("/") if p]
            found = match.groupdict()
            variant = {
                "index": int(found["index"]) if found.get("index") else 0,
                "name": found.get("name") or "implementation",
            }
            break
    if group is None or variant is None:
        group, variant = split_rel(parts)
    suite = settings.suite or suite_name(suite_root_of(project, root, settings))
    return Identity(
        problem={"suite": suite, "group_path": group},
        implementation={
            "origin": settings.origin or f"{suite}_benchmark",
            "origin_version": settings.origin_version,
            "origin_meta": settings.origin_meta,
            "variant": variant,
        },
    )
