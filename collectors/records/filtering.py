"""Filtering and sorting the records table: a parsed query to a 0/1 byte per row, kept per
sub-query; sorts kept per column, taking appended rows into the order already made."""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from itertools import compress, repeat
from operator import contains, eq
from typing import Any

from collectors.aliases import Aliases, loosen
from collectors.records.query import And, Compare, Everything, Match, Node, Not, Or, Text, glob
from collectors.records.rawlines import RawLines

CACHED_QUERIES = 256  # answers kept (about 1 byte per row each): typing adds a few per keystroke


class Filtering:
    """Mixed into RecordTable: what it reads of the table is declared here."""

    aliases: Aliases
    raw: RawLines
    dead: set[int]
    _key_order: list[tuple[tuple[Any, ...], int, int]] | None
    _cache: dict[Node, bytes]
    _orders: dict[tuple[str, bool], tuple[list[int], list[int]]]

    @property
    def haystack(self) -> list[str]:
        raise NotImplementedError

    def column(self, key: str) -> list[str]:
        raise NotImplementedError

    def numbers_of(self, column: str) -> array:
        raise NotImplementedError

    def is_numeric(self, key: str) -> bool:
        raise NotImplementedError

    def matching(self, node: Node) -> bytes | None:
        """Which rows match a parsed query, as a 0/1 byte per row (None: every row). Answers are
        kept per sub-query, so typing one more term costs only that term, and rows appended
        since (a load streaming in) are judged alone."""
        if isinstance(node, Everything):
            return None
        count = len(self.raw)
        cached = self._cache.get(node)
        if cached is None or len(cached) < count:
            if cached is None and len(self._cache) >= CACHED_QUERIES:
                self._cache.clear()
            if cached is None or isinstance(node, (Not, And, Or)):  # these combine their terms' answers anew
                cached = self._evaluate(node, 0)
            else:
                cached += self._evaluate(node, len(cached))
            self._cache[node] = cached
        return cached

    def _evaluate(self, node: Node, start: int) -> bytes:
        """The rows from `start` on that match `node`, a 0/1 byte each."""
        if isinstance(node, Text):
            return bytes(map(contains, self.haystack[start:], repeat(node.value.lower())))
        if isinstance(node, Match):
            return self._match(node, start)
        if isinstance(node, Compare):
            return _compare(self.numbers_of(node.field)[start:], node.op, node.number)
        count = len(self.raw)
        if isinstance(node, Not):
            inner = self.matching(node.term)
            return bytes(count) if inner is None else _combine("^", inner, b"\x01" * count)
        if isinstance(node, And):
            answers = [a for a in (self.matching(t) for t in node.terms) if a is not None]
            return _combine("&", *answers) if answers else b"\x01" * count
        if isinstance(node, Or):
            either = [self.matching(t) for t in node.terms]
            terms = [a for a in either if a is not None]
            return _combine("|", *terms) if len(terms) == len(either) else b"\x01" * count
        raise TypeError(node)

    def _match(self, node: Match, start: int) -> bytes:
        """A glob over a column's distinct values; group paths with `-` and `_` alike unless
        the aliases turn that off."""
        loose = node.field == "group" and self.aliases.loose_groups
        pattern = glob(loosen(node.value) if loose else node.value)
        column = self.column(node.field)[start:]

        def fits(value: str) -> bool:
            if loose:
                value = loosen(value)
            return bool(pattern.fullmatch(value) or pattern.fullmatch(_short(node.field, value)))

        answer = {v: fits(v) != node.negated for v in set(column)}
        return bytes(map(answer.__getitem__, column))

    def order(self, column: str | None, descending: bool = False) -> list[int]:
        """Row indices sorted by a column (missing numbers last either way); None: file order."""
        if column is None:
            if self._key_order is not None:
                return [index for _order, _n, index in self._key_order]
            return list(range(len(self.raw)))
        present, missing = self._sorted(column, descending)
        return present + missing

    def _sorted(self, column: str, descending: bool) -> tuple[list[int], list[int]]:
        """The rows with a value in sort order, and those without (in file order). Rows appended
        since the last sort are sorted into it: the sort is stable, and those rows come after
        every older row, so the order is the one a sort from scratch gives."""
        key = (column, descending)
        present, missing = self._orders.get(key, ([], []))
        start = len(present) + len(missing)
        if start < len(self.raw):
            if self.is_numeric(column):
                values = self.numbers_of(column)
                new = range(start, len(values))
                present = present + [i for i in new if values[i] == values[i]]
                present.sort(key=values.__getitem__, reverse=descending)
                missing = missing + [i for i in new if values[i] != values[i]]  # NaN: no number
            else:
                texts = self.column(column)
                present = present + list(range(start, len(texts)))
                present.sort(key=texts.__getitem__, reverse=descending)
            self._orders[key] = (present, missing)
        return present, missing

    def view(self, node: Node, column: str | None, descending: bool) -> list[int]:
        matched = self.matching(node)
        if column is None and self._key_order is None:  # file order: the rows are the mask's
            ordered: Iterable[int] = range(len(self.raw))
            shown = ordered if matched is None else compress(ordered, matched)
        else:
            ordered = self.order(column, descending)
            shown = ordered if matched is None else compress(ordered, map(matched.__getitem__, ordered))
        if self.dead:
            dead = self.dead
            return [i for i in shown if i not in dead]
        return list(shown)


def _combine(op: str, *masks: bytes) -> bytes:
    """0/1 bytes combined row by row, at C speed (as big integers)."""
    size = len(masks[0])
    number = int.from_bytes(masks[0], "little")
    for mask in masks[1:]:
        other = int.from_bytes(mask, "little")
        number = number & other if op == "&" else number | other if op == "|" else number ^ other
    return number.to_bytes(size, "little")


def _compare(values: array, op: str, number: float) -> bytes:
    """Which values compare true, a 0/1 byte each: NaN (no number) never does. The comparison is
    the float's own method, called by map at C speed (x < n is n > x)."""
    if op == "!=":
        return _combine("&", bytes(map(number.__ne__, values)), bytes(map(eq, values, values)))
    test = {"<": number.__gt__, "<=": number.__ge__, ">": number.__lt__, ">=": number.__le__, "=": number.__eq__}[op]
    return bytes(map(test, values))


def _short(field: str, value: str) -> str:
    """The short spelling a value also answers to: `hw_emu` for vitis.hw_emu, `pipeline` for 2_pipeline."""
    if field == "target":
        return value.removeprefix("vitis.")
    if field == "variant":
        return value.partition("_")[2]
    return value
