"""Configuration discovery: flags over `vitis-tui.toml` over `[tool.vitis-tui]` in `pyproject.toml`.

The nearest file at or above the watched root wins; a flag overrides only its own key. Every
problem is a ConfigError whose message is one line naming the file, the key and what is wrong
(the values themselves are checked in `collectors/collect/config_values.py`).
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from collectors.aliases import NO_ALIASES, Aliases
from collectors.files import not_regular

CONFIG_NAME = "vitis-tui.toml"
STRING_KEYS = ("suite", "origin", "origin_version", "suite_root")
MAX_CONFIG_BYTES = 1024 * 1024  # a real configuration is a few hundred bytes
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)


class ConfigError(Exception):
    """A configuration that cannot be used: the message is one line, file and key first."""


@dataclass(frozen=True)
class MappingRule:
    """A regular expression over the project path below the suite root, matched by RE2 (linear
    time, whatever the pattern: `collectors/collect/config_values.py` compiles it).

    Named groups: `group` ('/'-separated group path, required), `index` (digits only) and `name`.
    """

    pattern: Any  # a compiled re2 pattern (re2 ships no type hints)
    number: int = 0  # its place in the file, from 1, for messages
    source: str = ""


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
    warnings: tuple[str, ...] = ()  # one line each (unknown keys): said, not fatal


def logical(path: Path | str) -> Path:
    """An absolute path without resolving symbolic links: a root given through a link has its
    configuration looked for along the path the user gave, not above the link's target."""
    return Path(os.path.abspath(path))


def find_config(root: Path) -> tuple[Path, dict[str, Any]] | None:
    """The nearest configuration at or above `root` (taken as given: see `logical`), with its table."""
    for directory in [root, *root.parents]:
        candidate = directory / CONFIG_NAME
        if os.path.lexists(candidate):  # a directory, FIFO or broken link so named is an error
            return candidate, load_toml(candidate)
        table = _pyproject_table(directory / "pyproject.toml")
        if table is not None:
            return directory / "pyproject.toml", table
    return None


def _pyproject_table(path: Path) -> dict[str, Any] | None:
    """`[tool.vitis-tui]` of a pyproject.toml, None when it has none (or is not a file)."""
    try:
        if not_regular(os.stat(path).st_mode) is not None:
            return None
    except OSError:
        return None
    data = read_bytes(path)
    if b"vitis-tui" not in data:
        return None  # some other project's file: never parsed, so its own errors are not ours
    tool = parse_toml(decode(data, path), path).get("tool", {})
    table = tool.get("vitis-tui") if isinstance(tool, dict) else None
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.vitis-tui: must be a table ([tool.vitis-tui]), not {type(table).__name__}")
    return table


def read_bytes(path: Path) -> bytes:
    """A configuration file's bytes: a regular file, at most MAX_CONFIG_BYTES."""
    try:
        descriptor = os.open(path, _OPEN_FLAGS)  # a FIFO opens at once, and is refused below
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(descriptor)
        reason = not_regular(info.st_mode)
        if reason is not None:
            raise ConfigError(f"{path}: {reason}")
        if info.st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: {info.st_size} bytes, more than a configuration may hold ({MAX_CONFIG_BYTES})")
        data = os.read(descriptor, MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(descriptor)
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: grew past {MAX_CONFIG_BYTES} bytes while being read")
    return data


def decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8-sig")  # (a byte order mark, as some editors write, is allowed)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        start = data.rfind(b"\n", 0, exc.start) + 1
        text = data[start : exc.start].decode("utf-8", "replace")
        key = text.split("=", 1)[0].strip() + ": " if "=" in text else ""  # the key whose value holds it
        byte = f"byte 0x{data[exc.start]:02x}"
        raise ConfigError(
            f"{path}: line {line}: {key}{byte} is not UTF-8 (TOML files are UTF-8: save it as UTF-8)"
        ) from None


def parse_toml(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        twice = _repeated_key(text) if str(exc).startswith("Cannot overwrite a value") else None
        if twice is not None:  # tomllib says neither which key nor where
            raise ConfigError(f"{path}: line {twice[0]}: {twice[1]}: given twice") from None
        raise ConfigError(f"{path}: {exc}") from None
    except RecursionError:
        line, key = _deepest_nesting(text)
        raise ConfigError(f"{path}: line {line}: {key}: arrays or inline tables nested too deeply") from None


_ASSIGNMENT = re.compile(r"""\s*([A-Za-z0-9_\-."' ]+?)\s*=""")


def _repeated_key(text: str) -> tuple[int, str] | None:
    """The line and name of the first key assigned twice in one table (for the message only: a
    multi-line string that looks like assignments may mislead it)."""
    table, seen = "", set()
    for number, line in enumerate(text.splitlines(), 1):
        header = line.strip()
        if header.startswith("["):
            # an array of tables starts a new table at each header: its line tells them apart
            table = header.strip("[] ") + (f"#{number}" if header.startswith("[[") else "")
            continue
        match = _ASSIGNMENT.match(line)
        if match is None:
            continue
        key = ".".join(part.strip().strip("\"'") for part in match.group(1).split("."))
        if (table, key) in seen:
            return number, f"{table.split('#')[0]}.{key}" if table else key
        seen.add((table, key))
    return None


def _deepest_nesting(text: str) -> tuple[int, str]:
    """Where brackets first nest past any sensible depth (for the message only: strings holding
    brackets may mislead it), and the key that line assigns."""
    depth = 0
    for number, line in enumerate(text.splitlines(), 1):
        for character in line:
            depth += (character in "[{") - (character in "]}")
            if depth > 64:
                key = line.split("=", 1)[0].strip() if "=" in line else ""
                return number, key[:40] or "value"
    return 1, "value"


def load_toml(path: Path) -> dict[str, Any]:
    return parse_toml(decode(read_bytes(path), path), path)


def load_settings(root: Path, overrides: dict[str, Any] | None = None) -> Settings:
    """Settings for a watched root; `overrides` holds the command-line flags that were given.

    The root is taken as the user gave it (see `logical`); `suite_root`, configured or given,
    must be a directory."""
    from collectors.collect.config_values import check_suite_root, settings_from

    found = find_config(logical(root))
    settings = settings_from(found[1], found[0]) if found else Settings()
    flags = {key: value for key, value in (overrides or {}).items() if value is not None}
    if "suite_root" in flags:
        flags["suite_root"] = logical(flags["suite_root"])
        check_suite_root(flags["suite_root"], "--suite-root")
    elif settings.suite_root is not None:
        check_suite_root(settings.suite_root, f"{settings.source}: suite_root")
    return Settings(**{**settings.__dict__, **flags})


def load_config_file(path: Path) -> Settings:
    """Settings from a file named on the command line (`--config FILE`): a `vitis-tui.toml`, or any
    TOML file whose `[tool.vitis-tui]` table holds them (a pyproject.toml)."""
    from collectors.collect.config_values import settings_from

    if not os.path.lexists(path):
        raise ConfigError(f"{path}: no such file")
    table = load_toml(path)
    tool = table.get("tool")
    nested = tool.get("vitis-tui") if isinstance(tool, dict) else None
    if nested is not None and not isinstance(nested, dict):
        raise ConfigError(f"{path}: tool.vitis-tui: must be a table ([tool.vitis-tui]), not {type(nested).__name__}")
    if isinstance(nested, dict):
        return settings_from(nested, path)
    return settings_from({} if path.name == "pyproject.toml" else table, path)


def settings_for_records(config: str | None, start: Path | None = None) -> Settings:
    """Settings for commands that read records (browse, export, compare): `--config FILE` when
    given, else the nearest configuration at or above `start` (the current directory)."""
    from collectors.collect.config_values import settings_from

    if config is not None:
        return load_config_file(Path(config))
    found = find_config(logical(start or Path.cwd()))
    return settings_from(found[1], found[0]) if found else Settings()
