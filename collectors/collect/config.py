"""Configuration discovery: flags over `vitis-tui.toml` over `[tool.vitis-tui]` in `pyproject.toml`.

The nearest file at or above the watched root wins; a flag overrides only its own key.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from collectors.aliases import NO_ALIASES, Aliases, aliases_from

CONFIG_NAME = "vitis-tui.toml"
STRING_KEYS = ("suite", "origin", "origin_version", "suite_root")


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class MappingRule:
    """A regular expression over the project path below the suite root.

    Named groups: `group` ('/'-separated group path, required), `index` and `name` (variant).
    """

    pattern: re.Pattern[str]


@dataclass(frozen=True)
class Settings:
    suite: str | None = None
    origin: str | None = None
    origin_version: str | None = None
    origin_meta: dict[str, Any] | None = None
    suite_root: Path | None = None
    mappings: tuple[MappingRule, ...] = ()
    source: Path | None = None  # the file the settings came from, for messages
    aie_complex: tuple[str, ...] = ()  # port files (globs) holding complex samples (two values each)
    aie_real: tuple[str, ...] = ()
    follow_outside: bool = False  # follow symbolic links that lead outside the roots (--follow-outside)
    extra: dict[str, Any] = field(default_factory=dict)
    aliases: Aliases = NO_ALIASES  # how records are matched and shown (browse, export, compare)


def find_config(root: Path) -> tuple[Path, dict[str, Any]] | None:
    """The nearest configuration at or above `root`, with its table."""
    for directory in [root, *root.parents]:
        candidate = directory / CONFIG_NAME
        if candidate.is_file():
            return candidate, _load(candidate)
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file():
            table = _load(pyproject).get("tool", {}).get("vitis-tui")
            if isinstance(table, dict):
                return pyproject, table
    return None


def _load(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None


def _settings_from(table: dict[str, Any], source: Path) -> Settings:
    values: dict[str, Any] = {}
    for key in STRING_KEYS:
        if key in table:
            if not isinstance(table[key], str) or not table[key]:
                raise ConfigError(f"{source}: '{key}' must be a non-empty string")
            values[key] = table[key]
    meta = table.get("origin_meta")
    if meta is not None and not isinstance(meta, dict):
        raise ConfigError(f"{source}: 'origin_meta' must be a table")
    rules = []
    for number, rule in enumerate(table.get("mapping", []), 1):
        pattern = rule.get("pattern") if isinstance(rule, dict) else None
        if not isinstance(pattern, str):
            raise ConfigError(f"{source}: mapping #{number} needs a 'pattern' string")
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise ConfigError(f"{source}: mapping #{number}: bad pattern: {exc}") from None
        if "group" not in compiled.groupindex:
            raise ConfigError(f"{source}: mapping #{number}: pattern needs a named group 'group'")
        rules.append(MappingRule(compiled))
    aie = table.get("aie", {})
    globs = [aie.get(k, []) for k in ("complex", "real")] if isinstance(aie, dict) else [None]
    if not all(isinstance(g, list) and all(isinstance(x, str) for x in g) for g in globs):
        raise ConfigError(f"{source}: [aie] takes 'complex' and 'real', lists of file name globs")
    suite_root = values.pop("suite_root", None)
    try:
        aliases = aliases_from(table.get("aliases"), str(source))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return Settings(
        aliases=aliases,
        **values,
        aie_complex=tuple(aie.get("complex", [])),
        aie_real=tuple(aie.get("real", [])),
        origin_meta=meta,
        suite_root=(source.parent / suite_root).resolve() if suite_root else None,
        mappings=tuple(rules),
        source=source,
    )


def load_settings(root: Path, overrides: dict[str, Any] | None = None) -> Settings:
    """Settings for a watched root; `overrides` holds the command-line flags that were given."""
    found = find_config(root.resolve())
    settings = _settings_from(*reversed(found)) if found else Settings()
    flags = {key: value for key, value in (overrides or {}).items() if value is not None}
    if "suite_root" in flags:
        flags["suite_root"] = Path(flags["suite_root"]).resolve()
    return Settings(**{**settings.__dict__, **flags})


def load_config_file(path: Path) -> Settings:
    """Settings from a file named on the command line (`--config FILE`): a `vitis-tui.toml`, or any
    TOML file whose `[tool.vitis-tui]` table holds them (a pyproject.toml)."""
    if not path.is_file():
        raise ConfigError(f"{path}: no such file")
    table = _load(path)
    nested = table.get("tool", {}).get("vitis-tui")
    return _settings_from(nested if isinstance(nested, dict) else table, path)


def settings_for_records(config: str | None, start: Path | None = None) -> Settings:
    """Settings for commands that read records (browse, export, compare): `--config FILE` when
    given, else the nearest configuration at or above `start` (the current directory)."""
    if config is not None:
        return load_config_file(Path(config))
    found = find_config((start or Path.cwd()).resolve())
    return _settings_from(*reversed(found)) if found else Settings()
