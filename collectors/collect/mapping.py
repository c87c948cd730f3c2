"""Project path to the record's `problem` and `implementation` (README, "Configuration")."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from collectors.collect.config import MappingRule, Settings

VARIANT = re.compile(r"^(?:(.+?)_)?(\d+)_([A-Za-z].*)$")
DEFAULT_VARIANT = {"index": 0, "name": "implementation"}


@dataclass(frozen=True)
class Identity:
    """Who a project's records belong to: the `problem` and `implementation` objects."""

    problem: dict[str, Any]
    implementation: dict[str, Any]


def suite_root_of(project: str, root: str, settings: Settings) -> str:
    """The suite root: configured, else the nearest ancestor named Benchmarks, else the root."""
    if settings.suite_root is not None:
        return str(settings.suite_root)
    parts = project.split(os.sep)
    for position in range(len(parts) - 1, 0, -1):
        if parts[position] == "Benchmarks":
            return os.sep.join(parts[: position + 1])
    return root


def suite_name(suite_root: str) -> str:
    head, name = os.path.split(suite_root)
    if name == "Benchmarks" and os.path.basename(head):
        name = os.path.basename(head)
    return (name or "suite").lower().replace("-", "_")


def split_rel(parts: list[str]) -> tuple[list[str], dict[str, Any]]:
    """Group path and variant from the components below the suite root (deepest match wins)."""
    for position in range(len(parts) - 1, -1, -1):
        match = VARIANT.match(parts[position])
        if match:
            variant = {"index": int(match.group(2)), "name": match.group(3)}
            return parts[:position] + parts[position + 1 :], variant
    return list(parts), dict(DEFAULT_VARIANT)


def rel_parts(project: str, suite_root: str) -> list[str]:
    if project.startswith(suite_root + os.sep):
        return project[len(suite_root) + 1 :].split(os.sep)
    return [os.path.basename(project)]  # the project is the suite root itself (or outside it)


def _fullmatch(rule: MappingRule, rel: str) -> Any:
    try:
        return rule.pattern.fullmatch(rel)
    except UnicodeEncodeError:
        return None  # a name that is not UTF-8 on disk: its records are refused as problems anyway


def map_project(project: str | Path, root: str | Path, settings: Settings) -> Identity:
    # Logical (unresolved) paths: a symlinked suite keeps the names the user sees.
    project, root = os.path.abspath(project), os.path.abspath(root)
    suite_root = suite_root_of(project, root, settings)
    parts = rel_parts(project, suite_root)
    rel = "/".join(parts)
    group, variant = None, None
    for rule in settings.mappings:
        match = _fullmatch(rule, rel)
        if match:
            group = [p for p in (match.group("group") or "").split("/") if p]  # (an optional group: None)
            found = match.groupdict()
            index = found.get("index") or "0"
            variant = {
                # (the configuration refuses an index group that may match more than digits)
                "index": int(index) if index.isascii() and index.isdigit() else 0,
                "name": found.get("name") or "implementation",
            }
            break
    if group is None or variant is None:
        group, variant = split_rel(parts)
    suite = settings.suite or suite_name(suite_root)
    return Identity(
        problem={"suite": suite, "group_path": group},
        implementation={
            "origin": settings.origin or f"{suite}_benchmark",
            "origin_version": settings.origin_version,
            "origin_meta": settings.origin_meta,
            "variant": variant,
        },
    )
