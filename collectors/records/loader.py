"""Reading JSONL files from any producer into a RecordTable, and following them as they grow."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from ..problems import Problem
from ..validate import is_valid, record_errors
from .table import RecordTable


@dataclass
class Followed:
    """How far a file has been read: byte offset, line number, and which file (inode) it was."""

    path: str
    offset: int = 0
    line: int = 0
    inode: tuple[int, int] | None = None
    pending: bytes = field(default=b"")  # a last line without its newline yet
    mtime_ns: int = 0
    tail: bytes = b""  # the last bytes read: a file rewritten in place no longer ends the same


def read_new_lines(source: Followed) -> tuple[list[tuple[int, str]], bool]:
    """Complete lines added since the last read; True when the file was replaced or truncated
    (the caller starts over from a fresh Followed)."""
    try:
        stat = os.stat(source.path)
    except OSError:
        return [], False
    identity = (stat.st_dev, stat.st_ino)
    if source.inode is not None and (identity != source.inode or stat.st_size < source.offset):
        return [], True  # rewritten atomically (our own watch does this) or truncated
    if source.inode is not None and stat.st_mtime_ns != source.mtime_ns:
        # changed, not grown: rewritten in place; grown, but not ending as before: the same
        if stat.st_size == source.offset or _rewritten(source):
            return [], True
    source.inode = identity
    source.mtime_ns = stat.st_mtime_ns
    if stat.st_size == source.offset:
        return [], False
    with open(source.path, "rb") as handle:
        handle.seek(source.offset)
        data = handle.read(stat.st_size - source.offset)
    source.offset += len(data)
    source.tail = (source.tail + data)[-TAIL_BYTES:]
    data = source.pending + data
    cut = data.rfind(b"\n") + 1
    source.pending = data[cut:]  # after the last newline: possibly a line still being written
    lines = data[:cut].decode("utf-8", errors="replace").split("\n")[:-1] if cut else []
    if source.pending and _complete(source.pending):
        lines.append(source.pending.decode("utf-8", errors="replace"))  # a file that lacks its final newline
        source.pending = b""
    first = source.line + 1
    source.line += len(lines)
    return [(first + n, line[:-1] if line.endswith("\r") else line) for n, line in enumerate(lines)], False


TAIL_BYTES = 256


def _rewritten(source: Followed) -> bool:
    """Whether the bytes read last are still where they were."""
    try:
        with open(source.path, "rb") as handle:
            handle.seek(source.offset - len(source.tail))
            return handle.read(len(source.tail)) != source.tail
    except OSError:
        return False


def _complete(data: bytes) -> bool:
    try:
        json.loads(data)
        return True
    except ValueError:
        return False


def add_lines(table: RecordTable, path: str, lines: list[tuple[int, str]], problems: list[Problem]) -> list[int]:
    """Parse lines into the table; a line that is not a JSON object becomes a problem. Returns the
    table rows touched, for the (slower) schema check that follows."""
    touched = []
    for number, text in lines:
        if not text.strip():
            problems.append(Problem(f"{path}:{number}", "empty line (one JSON object per line)"))
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            problems.append(Problem(f"{path}:{number}", f"invalid JSON at column {exc.colno}: {exc.msg}"))
            continue
        if not isinstance(record, dict):
            problems.append(Problem(f"{path}:{number}", "not a JSON object"))
            continue
        touched.append(table.add(text, record, f"{path}:{number}", origin=path))
    return touched


def check_lines(rows: list[tuple[int, str, str]]) -> tuple[list[int], list[Problem]]:
    """Schema-check (row index, source, line) triples: the refused rows and their problems.
    Pure and picklable: browse runs it in a separate process, so the check never holds the GIL
    that the interface needs."""
    invalid: list[int] = []
    found: list[Problem] = []
    for index, source, line in rows:
        record = json.loads(line)
        if not is_valid(record):
            invalid.append(index)
            found.extend(Problem(source, error) for error in record_errors(record))
    return invalid, found


def check_files(paths: list[str]) -> tuple[list[str], list[Problem]]:
    """Schema-check whole files, read afresh (in the checking process: only the paths travel to
    it, not the lines). Returns the sources ('FILE:LINE') of refused records and the problems;
    lines are numbered exactly as the loader numbers them."""
    rows: list[tuple[int, str, str]] = []
    for path in paths:
        lines, _replaced = read_new_lines(Followed(os.path.abspath(path)))
        for number, text in lines:
            try:
                if isinstance(json.loads(text), dict):
                    rows.append((len(rows), f"{os.path.abspath(path)}:{number}", text))
            except ValueError:
                continue  # the loader reports lines that are not JSON
    invalid, found = check_lines(rows)
    return [rows[i][1] for i in invalid], found


def schema_problems(table: RecordTable, rows: list[int]) -> list[Problem]:
    """Schema violations of the given rows, each as 'FILE:LINE: $.path: message' (in this process)."""
    invalid, found = check_lines([(i, table.sources[i], table.raw[i]) for i in rows])
    table.invalid.update(invalid)
    return found


def load_files(paths: list[str]) -> tuple[RecordTable, list[Followed], list[Problem], list[int]]:
    """Read whole files: the table, where each file was read to, problems, rows to schema-check."""
    table = RecordTable()
    followed, problems, touched = [], [], []
    for path in paths:
        source = Followed(os.path.abspath(path))
        try:
            lines, _ = read_new_lines(source)
        except OSError as exc:
            problems.append(Problem(path, f"cannot read: {exc.strerror or exc}"))
            lines = []
        if not os.path.exists(path):
            problems.append(Problem(path, "no such file"))
        touched += add_lines(table, source.path, lines, problems)
        followed.append(source)
    return table, followed, problems, touched
