"""Reading JSONL files from any producer into a RecordTable, and following them as they grow."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from collectors.problems import Problem
from collectors.records.jsonl import CHUNK_BYTES, Line, LineError, LineSplitter, read_object
from collectors.records.table import Prepared, RecordTable
from collectors.records.validate import FileReport


@dataclass
class Followed:
    """How far a file has been read: byte offset, line number, and which file (inode) it was."""

    path: str
    offset: int = 0
    line: int = 0
    inode: tuple[int, int] | None = None
    splitter: LineSplitter = field(default_factory=LineSplitter)  # holds a line still being written
    unterminated: bool = False  # the last line was taken without its newline: skip that newline
    mtime_ns: int = 0
    tail: bytes = b""  # the last bytes read: a file rewritten in place no longer ends the same


def read_new_lines(
    source: Followed, final: bool = False, budget: int | None = None
) -> tuple[list[tuple[int, Line]], bool]:
    """Complete lines added since the last read; True when the file was replaced or truncated
    (the caller starts over from a fresh Followed). A last line without its newline is taken when
    it is a whole JSON object, or always when `final` (nothing more will be written). `budget`:
    read at most about that many bytes now (a large file is read in steps)."""
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
    lines: list[Line] = []
    end = stat.st_size if budget is None else min(stat.st_size, source.offset + budget)
    with open(source.path, "rb") as handle:
        handle.seek(source.offset)
        while source.offset < end and (chunk := handle.read(min(CHUNK_BYTES, end - source.offset))):
            source.offset += len(chunk)
            source.tail = (source.tail + chunk)[-TAIL_BYTES:]
            if source.unterminated and chunk.startswith(b"\n"):
                chunk = chunk[1:]
            source.unterminated = False
            lines += source.splitter.feed(chunk)
    last = _last_line(source.splitter, final) if source.offset == stat.st_size else None
    if last is not None:
        lines.append(last)
        source.unterminated = True
    first = source.line + 1
    source.line += len(lines)
    return [(first + n, line) for n, line in enumerate(lines)], False


TAIL_BYTES = 256


def _rewritten(source: Followed) -> bool:
    """Whether the bytes read last are still where they were."""
    try:
        with open(source.path, "rb") as handle:
            handle.seek(source.offset - len(source.tail))
            return handle.read(len(source.tail)) != source.tail
    except OSError:
        return False


def _last_line(splitter: LineSplitter, final: bool) -> Line | None:
    if final:
        return splitter.finish()
    pending = splitter.peek()
    if not pending:
        return None
    try:
        read_object(pending)  # a file that lacks its final newline, not a line still being written
    except LineError:
        return None
    return splitter.finish()


def add_lines(table: RecordTable, path: str, lines: list[tuple[int, Line]], problems: list[Problem]) -> list[int]:
    """Parse lines into the table; a line that is not a JSON object becomes a problem. Returns the
    table rows touched, for the (slower) schema check that follows."""
    touched = []
    for number, line in lines:
        try:
            text, record = read_object(line)
        except LineError as exc:
            problems.append(Problem(f"{path}:{number}", str(exc)))
            continue
        touched.append(table.add(text, record, f"{path}:{number}", origin=path))
    return touched


def check_lines(rows: list[tuple[int, str, str]]) -> tuple[list[int], list[Problem]]:
    """Judge (row index, source 'FILE:LINE', line) triples: the refused rows and the problems,
    errors first, then each file's warnings. Pure and picklable: browse runs it in a separate
    process, so the check never holds the GIL that the interface needs."""
    invalid: list[int] = []
    found: list[Problem] = []
    reports: dict[str, FileReport] = {}
    for index, source, text in rows:
        path, _, number = source.rpartition(":")
        verdict = reports.setdefault(path, FileReport(path)).add(int(number), text.encode("utf-8"))
        if not verdict.valid:
            invalid.append(index)
            found.extend(Problem(source, error) for error in verdict.errors)
    for path, report in reports.items():
        found += [Problem(path if n is None else f"{path}:{n}", f"warning: {text}") for n, text in report.warnings()]
    return invalid, found


def check_files(paths: list[str]) -> tuple[list[str], list[Problem]]:
    """Judge whole files, read afresh (in the checking process: only the paths travel to it, not
    the lines). Returns the sources ('FILE:LINE') of refused records and the problems; lines are
    numbered exactly as the loader numbers them, and lines that are not records are left to it."""
    rows: list[tuple[int, str, str]] = []
    for path in paths:
        source = os.path.abspath(path)
        lines, _replaced = read_new_lines(Followed(source))
        for number, line in lines:
            try:
                text, _record = read_object(line)
            except LineError:
                continue  # the loader reports lines that are not JSON objects
            rows.append((len(rows), f"{source}:{number}", text))
    invalid, found = check_lines(rows)
    return [rows[i][1] for i in invalid], found


def schema_problems(table: RecordTable, rows: list[int]) -> list[Problem]:
    """Verdicts on the given rows (in this process): problems, and refused rows marked invalid."""
    invalid, found = check_lines([(i, table.sources[i], table.raw[i]) for i in rows])
    table.invalid.update(invalid)
    return found


def load_files(
    paths: list[str], table: RecordTable | None = None, final: bool = False
) -> tuple[RecordTable, list[Followed], list[Problem], list[int]]:
    """Read whole files: the table, where each file was read to, problems, rows to schema-check.
    `final`: the files are complete (export), so an unfinished last line is a line too."""
    table = RecordTable() if table is None else table
    followed, problems, touched = [], [], []
    for path in paths:
        source = Followed(os.path.abspath(path))
        try:
            lines, _ = read_new_lines(source, final)
        except OSError as exc:
            problems.append(Problem(path, f"cannot read: {exc.strerror or exc}"))
            lines = []
        if not os.path.exists(path):
            problems.append(Problem(path, "no such file"))
        touched += add_lines(table, source.path, lines, problems)
        followed.append(source)
    return table, followed, problems, touched


@dataclass
class Batch:
    """Part of a load: records read for the table, problems met; the last one says where each
    file was read to."""

    rows: list[Prepared]
    problems: list[Problem]
    followed: list[Followed] | None = None  # set on the last batch


FIRST_BATCH_BYTES = 256 * 1024  # the first screen's worth, shown as soon as it is read
LAST_BATCH_BYTES = 8 * 1024 * 1024  # reads double up to this
BATCH_ROWS = 1000  # rows per batch at most: the interface appends a batch in one go, between keystrokes


def stream_files(paths: list[str], table: RecordTable) -> Iterator[Batch]:
    """Read files in steps: a small first read (the first screen), then larger ones, each handed
    on in batches of at most BATCH_ROWS rows. Rows are only prepared here (`table.prepare` reads
    nothing of the table's rows), so a loader thread can run this while the interface's thread
    appends each batch."""
    followed: list[Followed] = []
    budget = FIRST_BATCH_BYTES
    for path in paths:
        source = Followed(os.path.abspath(path))
        followed.append(source)
        if not os.path.exists(path):
            yield Batch([], [Problem(path, "no such file")])
            continue
        while True:
            try:
                lines, _ = read_new_lines(source, budget=budget)
            except OSError as exc:
                yield Batch([], [Problem(path, f"cannot read: {exc.strerror or exc}")])
                break
            for start in range(0, max(1, len(lines)), BATCH_ROWS):
                problems: list[Problem] = []
                part = lines[start : start + BATCH_ROWS]
                rows = [row for number, line in part if (row := _prepared(table, source.path, number, line, problems))]
                yield Batch(rows, problems)
            budget = min(2 * budget, LAST_BATCH_BYTES)
            if not _more(source):
                break
    yield Batch([], [], followed)


def _prepared(table: RecordTable, path: str, number: int, line: Line, problems: list[Problem]) -> Prepared | None:
    try:
        text, record = read_object(line)
    except LineError as exc:
        problems.append(Problem(f"{path}:{number}", str(exc)))
        return None
    return table.prepare(text, record, f"{path}:{number}", origin=path)


def _more(source: Followed) -> bool:
    try:
        return os.stat(source.path).st_size > source.offset
    except OSError:
        return False
