"""What the records table derives from its columns when first asked for, each kind typed apart,
kept current as rows are appended (extended) or replaced (patched at that row)."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass, field

from collectors.records.columns import number_reader


@dataclass
class Indexes:
    """numbers: a column as floats (NaN where there is no number); dense: a dynamic column with a
    value per row ('' where none); numeric: whether every value of a dynamic column is a number;
    haystack: every value of a row in one lowercase string (free text)."""

    numbers: dict[str, array] = field(default_factory=dict)
    dense: dict[str, list[str]] = field(default_factory=dict)
    numeric: dict[str, bool] = field(default_factory=dict)
    haystack: list[str] | None = None

    def grow(
        self,
        start: int,
        end: int,
        column: Callable[[str], list[str]],
        sparse: Callable[[str], dict[int, str]],
        haystack: Callable[[int], list[str]],
    ) -> None:
        """Rows start..end were appended. Dense columns first: a number column of a dynamic field
        reads its dense column."""
        for key, dense in self.dense.items():
            values = sparse(key)
            dense.extend(values.get(i, "") for i in range(start, end))
        for key, numbers in self.numbers.items():
            numbers.extend(map(number_reader(key), column(key)[start:]))
        if self.haystack is not None:
            self.haystack.extend(haystack(start))
        self.numeric.clear()  # a flag over every value: judged again when next asked

    def patch(
        self,
        index: int,
        column: Callable[[str], list[str]],
        sparse: Callable[[str], dict[int, str]],
        haystack: Callable[[int], list[str]],
    ) -> None:
        """Row `index` was replaced."""
        for key, dense in self.dense.items():
            dense[index] = sparse(key).get(index, "")
        for key, numbers in self.numbers.items():
            numbers[index] = number_reader(key)(column(key)[index])
        if self.haystack is not None:
            self.haystack[index] = haystack(index)[0]
        self.numeric.clear()
