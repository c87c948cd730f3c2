"""The values of a configuration table, checked where they are read: each problem is a
ConfigError naming the file, the key and what is wrong, so nothing is collected with a value
that cannot be written to JSON or a pattern that cannot be matched."""

from __future__ import annotations

import datetime
import difflib
import math
import os
from pathlib import Path
from typing import Any

import re2

from collectors.aliases import aliases_from
from collectors.collect.config import STRING_KEYS, ConfigError, MappingRule, Settings
from collectors.files import not_a_directory

KNOWN_KEYS = (*STRING_KEYS, "origin_meta", "mapping", "aie", "aliases")
RULE_KEYS = ("pattern",)
AIE_KEYS = ("complex", "real")
MAX_META_DEPTH = 16  # origin_meta nested deeper would pass the records reader's own depth limit
RE2_NOTE = "patterns are matched by RE2, in linear time: lookarounds and backreferences are not available"

_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False  # (RE2 would print its own copy of the error on stderr)


def settings_from(table: dict[str, Any], source: Path) -> Settings:
    """Settings from a configuration table read from `source`."""
    warnings = unknown_keys(table, KNOWN_KEYS, source, "")
    values: dict[str, Any] = {}
    for key in STRING_KEYS:
        if key in table:
            if not isinstance(table[key], str) or not table[key]:
                raise ConfigError(f"{source}: {key}: must be a non-empty string, not {shown(table[key])}")
            values[key] = table[key]
    meta = table.get("origin_meta")
    if meta is not None and not isinstance(meta, dict):
        raise ConfigError(f"{source}: origin_meta: must be a table ([origin_meta]), not {shown(meta)}")
    if meta is not None:
        check_json_value(meta, "origin_meta", source, 0)
    rules = table.get("mapping", [])
    if not isinstance(rules, list):
        raise ConfigError(f"{source}: mapping: must be an array of tables ([[mapping]]), not {shown(rules)}")
    mappings = tuple(compile_rule(rule, number, source, warnings) for number, rule in enumerate(rules, 1))
    complex_globs, real_globs = aie_globs(table.get("aie", {}), source, warnings)
    suite_root = values.pop("suite_root", None)
    try:
        aliases = aliases_from(table.get("aliases"), str(source))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return Settings(
        aliases=aliases,
        **values,
        aie_complex=complex_globs,
        aie_real=real_globs,
        origin_meta=meta,
        # beside the file, along the path it was found by (never through a link's target)
        suite_root=Path(os.path.normpath(source.parent / suite_root)) if suite_root else None,
        mappings=mappings,
        source=source,
        warnings=tuple(warnings),
    )


def shown(value: Any) -> str:
    """A value's TOML kind, for messages (the value itself may be long)."""
    kinds = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array", dict: "a table"}
    return next((name for kind, name in kinds.items() if type(value) is kind), type(value).__name__)


def unknown_keys(table: dict[str, Any], known: tuple[str, ...], source: Path, where: str) -> list[str]:
    """One warning per key nothing reads (a misspelling would otherwise be ignored in silence)."""
    warnings = []
    for key in table:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (known: {', '.join(known)})"
            warnings.append(f"{source}: {where}{key}: unknown key, ignored{hint}")
    return warnings


def check_json_value(value: Any, key: str, source: Path, depth: int) -> None:
    """Refuse what JSON cannot hold: TOML dates and times, nan and inf, deep nesting."""
    if depth > MAX_META_DEPTH:
        raise ConfigError(f"{source}: {key}: nested more than {MAX_META_DEPTH} deep")
    if isinstance(value, datetime.date | datetime.time):
        kind = {datetime.datetime: "date-time", datetime.date: "date", datetime.time: "time"}[type(value)]
        raise ConfigError(f'{source}: {key}: a TOML {kind} cannot be written to JSON; quote it ("{value.isoformat()}")')
    if type(value) is int and not -(2**63) <= value < 2**63:  # TOML's own limit: 64-bit integers
        raise ConfigError(f"{source}: {key}: {value} is past the 64-bit range TOML integers have; give a string")
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{source}: {key}: {value} is not a number JSON can hold; give a finite number or a string")
    if isinstance(value, dict):
        for name, item in value.items():
            check_json_value(item, f"{key}.{name}", source, depth + 1)
    elif isinstance(value, list):
        for position, item in enumerate(value):
            check_json_value(item, f"{key}[{position}]", source, depth + 1)


def compile_rule(rule: Any, number: int, source: Path, warnings: list[str]) -> MappingRule:
    """A `[[mapping]]` table's pattern, compiled by RE2 (no pattern can make a match slow) and
    checked: a `group` group, and an `index` group that matches digits only."""
    where = f"{source}: mapping #{number}"
    pattern = rule.get("pattern") if isinstance(rule, dict) else None
    if not isinstance(pattern, str):
        raise ConfigError(f"{where}: needs a 'pattern' string")
    warnings += unknown_keys(rule, RULE_KEYS, source, f"mapping #{number}: ")
    try:
        compiled = re2.compile(pattern, _RE2_OPTIONS)
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise ConfigError(f"{where}: pattern: {reason} ({RE2_NOTE})") from None
    if "group" not in compiled.groupindex:
        raise ConfigError(f"{where}: pattern: needs a named group 'group', as in (?P<group>[^/]+)")
    if "index" in compiled.groupindex and not index_is_digits(pattern):
        raise ConfigError(
            f"{where}: pattern: group 'index' may match other characters than digits; "
            r"write it with digits only, as in (?P<index>\d+)"
        )
    return MappingRule(compiled, number, str(source))


def index_is_digits(pattern: str) -> bool:
    """Whether the pattern's `index` group can only ever match digits (read with Python's own
    parser; a pattern it cannot read is not proven so)."""
    from re import _constants as c  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]

    try:
        parsed = _parser.parse(pattern)
    except Exception:  # re.error, or RE2-only syntax
        return False
    group = parsed.state.groupdict["index"]
    body = _find_group(parsed, group, c)
    return body is not None and _digits_only(body, c)


def _find_group(items: Any, group: int, c: Any) -> Any:
    for op, av in items:
        if op is c.SUBPATTERN and av[0] == group:
            return av[3]
        for child in _children(op, av, c):
            found = _find_group(child, group, c)
            if found is not None:
                return found
    return None


def _children(op: Any, av: Any, c: Any) -> list[Any]:
    if op is c.SUBPATTERN:
        return [av[3]]
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
        return [av[2]]
    if op is c.BRANCH:
        return list(av[1])
    if op in (c.ATOMIC_GROUP, c.ASSERT, c.ASSERT_NOT):
        return [av] if op is c.ATOMIC_GROUP else [av[1]]
    return []


def _digits_only(items: Any, c: Any) -> bool:
    for op, av in items:
        if op is c.LITERAL:
            ok = chr(av).isascii() and chr(av).isdigit()
        elif op is c.IN:
            ok = all(_digit_member(member, c) for member in av)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT, c.SUBPATTERN, c.BRANCH):
            ok = all(_digits_only(child, c) for child in _children(op, av, c))
        else:
            ok = op is c.AT  # an anchor matches no character
        if not ok:
            return False
    return True


def _digit_member(member: tuple[Any, Any], c: Any) -> bool:
    op, av = member
    if op is c.LITERAL:
        return "0" <= chr(av) <= "9"
    if op is c.RANGE:
        return ord("0") <= av[0] <= av[1] <= ord("9")
    return op is c.CATEGORY and av is c.CATEGORY_DIGIT


def aie_globs(aie: Any, source: Path, warnings: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`[aie]`'s `complex` and `real`: lists of file name globs."""
    if not isinstance(aie, dict):
        raise ConfigError(f"{source}: aie: must be a table ([aie]), not {shown(aie)}")
    warnings += unknown_keys(aie, AIE_KEYS, source, "aie.")
    globs = []
    for key in AIE_KEYS:
        value = aie.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{source}: aie.{key}: must be a list of file name globs (strings)")
        globs.append(tuple(value))
    return globs[0], globs[1]


def check_suite_root(path: Path, key: str) -> None:
    """A suite root that is not a directory would put every project's group path in its name."""
    why = not_a_directory(path)
    if why is not None:
        raise ConfigError(f"{key}: {path}: {why}")
