"""The records a comparison may use: lines judged as `validate` judges them, then the filter (pure).

A line the contract refuses (not a JSON object, or a record `validate` rejects) is left out and
named, exactly as `export` leaves it out, so `compare FILE` and `export FILE | compare -` compare
the same records. `--filter` takes the records view's query language (collectors/records/query.py)
and is evaluated by the records view's own table, aliases included.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from collectors.aliases import NO_ALIASES, Aliases
from collectors.problems import Problem
from collectors.records.jsonl import Line
from collectors.records.query import Everything, Node
from collectors.records.validate import FileReport, judge_record


@dataclass
class Judged:
    """What the inputs gave: the records kept (in input order), and what was left out and why."""

    records: list[dict[str, Any]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # each kept record's line
    problems: list[Problem] = field(default_factory=list)  # refused lines first, then warnings, per input
    lines: int = 0  # lines read
    refused: int = 0  # lines left out: not a JSON object, or refused by the contract
    filtered_out: int = 0  # valid records the filter did not match

    def summary(self) -> str:
        """'30 records compared of 35 lines (5 refused by the schema left out)', as `export` counts."""
        why = [f"{self.refused} refused by the schema left out"] * bool(self.refused)
        why += [f"{self.filtered_out} not matching --filter"] * bool(self.filtered_out)
        return f"{len(self.records)} records compared of {self.lines} lines" + (f" ({', '.join(why)})" if why else "")


def judge_lines(name: str, lines: Iterable[tuple[int, Line]], judged: Judged) -> None:
    """Judge one input's numbered lines into `judged`: valid records kept, every other line named."""
    report = FileReport(name)
    for number, line in lines:
        verdict = report.add(number, line)
        judged.lines += 1
        if verdict.valid and verdict.record is not None:
            judged.records.append(verdict.record)
            judged.texts.append(verdict.text or "")
            continue
        judged.refused += 1
        judged.problems += [Problem(f"{name}:{number}", error) for error in verdict.errors]
    judged.problems += [
        Problem(name if n is None else f"{name}:{n}", f"warning: {text}") for n, text in report.warnings()
    ]


def admitted(
    records: list[dict[str, Any]], node: Node, aliases: Aliases = NO_ALIASES, texts: list[str] | None = None
) -> list[bool]:
    """Which of `records` the query matches, by the records view's table (aliases as it shows
    them); `texts`: their lines, when known (free text is searched in them)."""
    if isinstance(node, Everything):
        return [True] * len(records)
    import json

    from collectors.records.table import RecordTable

    table = RecordTable(aliases)
    for n, record in enumerate(records):
        table.add(json.dumps(record) if texts is None else texts[n], record)
    matched = table.matching(node)
    return [True] * len(records) if matched is None else [bool(m) for m in matched]


def apply_filter(judged: Judged, node: Node, aliases: Aliases = NO_ALIASES) -> None:
    """Keep the records the query matches; count the others."""
    keep = admitted(judged.records, node, aliases, judged.texts)
    before = len(judged.records)
    judged.records = [r for r, k in zip(judged.records, keep, strict=True) if k]
    judged.texts = [t for t, k in zip(judged.texts, keep, strict=True) if k]
    judged.filtered_out = before - len(judged.records)


def valid_records(records: Iterable[Any]) -> list[dict[str, Any]]:
    """The records the contract accepts (the screen's live updates: records, not lines)."""
    return [r for r in records if isinstance(r, dict) and not judge_record(r)[0]]
