"""Reading JSONL files from any producer into a RecordTable, and following them as they grow."""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from collectors.files import not_a_file, open_file
from collectors.interpreter import usable_cores
from collectors.problems import Cancelled, Problem
from collectors.records.follow import Followed, read_new_lines
from collectors.records.jsonl import Line, LineError, LineSplitter, read_object
from collectors.records.pieces import Piece
from collectors.records.preparers import Preparers
from collectors.records.quick import read_row
from collectors.records.table import Prepared, RecordTable
from collectors.records.validate import FileReport


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


Stop = Callable[[], bool]
CHECK_STEP = 500  # rows judged between two looks at whether to stop (about 20 ms)


def check_lines(
    rows: list[tuple[int, str, str]], stop: Stop | None = None
) -> tuple[list[int], list[int], list[Problem]]:
    """Judge (row index, source 'FILE:LINE', line) triples: the refused rows, those of them that
    are no record at all (a piece of a load took them: quick.py), and the problems, errors first,
    then each file's warnings. Browse runs it in a child process (checker.py), so the check never
    holds the GIL that the interface needs; where it runs in a thread, `stop` is asked every
    CHECK_STEP rows and Cancelled raised when it says so."""
    invalid: list[int] = []
    unread: list[int] = []
    found: list[Problem] = []
    reports: dict[str, FileReport] = {}
    for step, (index, source, text) in enumerate(rows):
        if stop is not None and step % CHECK_STEP == 0 and stop():
            raise Cancelled
        path, _, number = source.rpartition(":")
        verdict = reports.setdefault(path, FileReport(path)).add(int(number), text.encode("utf-8"))
        if not verdict.valid:
            invalid.append(index)
            if verdict.record is None:
                unread.append(index)
            found.extend(Problem(source, error) for error in verdict.errors)
    for path, report in reports.items():
        found += [Problem(path if n is None else f"{path}:{n}", f"warning: {text}") for n, text in report.warnings()]
    return invalid, unread, found


def check_files(
    paths: list[str], stop: Stop | None = None, ends: list[int] | None = None
) -> tuple[list[str], list[str], list[Problem]]:
    """Judge whole files, read afresh (in the checking process: only the paths travel to it, not
    the lines), each up to its byte in `ends` (as far as it was loaded). Returns the sources
    ('FILE:LINE') of refused records, those of lines that are no record, and the problems; lines
    are numbered exactly as the loader numbers them. Lines that are no record are left to the
    loader, but for those that a piece of the load took all the same (quick.py: a key given
    twice, nesting too deep): the load shows them until this check says what they are."""
    rows: list[tuple[int, str, str]] = []
    for n, path in enumerate(paths):
        source = os.path.abspath(path)
        lines, _replaced = read_new_lines(Followed(source), budget=None if ends is None else ends[n])
        for number, line in lines:
            try:
                text, _record = read_object(line)
            except LineError:
                if not isinstance(line, bytes) or read_row(line) is None:
                    continue  # the loader reports lines that are not JSON objects
                text = line.decode("utf-8")  # a piece showed it (quick.py): refused by check_lines
            rows.append((len(rows), f"{source}:{number}", text))
    invalid, unread, found = check_lines(rows, stop)
    return [rows[i][1] for i in invalid], [rows[i][1] for i in unread], found


def rows_to_check(table: RecordTable, rows: Iterable[int]) -> list[tuple[int, str, str]]:
    """(row index, source, line) of the table's `rows`, as check_lines takes them."""
    rows = list(rows)
    return list(zip(rows, map(table.sources.__getitem__, rows), table.raw.many(rows)))


def schema_problems(table: RecordTable, rows: list[int]) -> list[Problem]:
    """Verdicts on the given rows (in this process): problems, and refused rows marked invalid."""
    invalid, _unread, found = check_lines(rows_to_check(table, rows))
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
        lines: list[tuple[int, Line]] = []
        absent = not_a_file(path)
        if absent is not None:
            source.missing = True
            problems.append(Problem(path, absent))
        else:
            try:
                lines, _ = read_new_lines(source, final)
            except OSError as exc:
                problems.append(Problem(path, f"cannot read: {exc.strerror or exc}"))
        touched += add_lines(table, source.path, lines, problems)
        followed.append(source)
    return table, followed, problems, touched


@dataclass
class Batch:
    """Part of a load: records read for the table, problems met; the last one says where each
    file was read to, or that a file changed otherwise than by an append meanwhile (`replaced`:
    the load must start over)."""

    rows: list[Prepared]
    problems: list[Problem]
    followed: list[Followed] | None = None  # set on the last batch
    replaced: bool = False
    piece: Piece | None = None  # rows prepared together (a large file's bulk), after `rows`


@dataclass
class Head:
    """A load begun before the interface is up: browse starts it first thing, so that the
    children prepare the first pieces while Textual is imported (a core idle for 0.4 s on two).
    The first file's first read, its size then, and the preparers given the pieces after it."""

    source: Followed
    lines: list[tuple[int, Line]]
    limit: int
    preparers: Preparers


MAX_PREPARERS = 4  # children that prepare a large file's pieces (beyond, the interface's thread limits)


def load_preparers(first: int | None = None) -> Preparers:
    """The children a load's pieces go to: one per usable core (none on one core: here);
    `first`: how many start at the first piece (Preparers)."""
    cores = usable_cores()
    return Preparers(min(cores, MAX_PREPARERS) if cores > 1 else 0, first=first)


def head_start(path: str) -> Head | None:
    """The first file's first read done, and its first pieces given to children of their own,
    where it is large enough to be read in pieces; None otherwise (the load does it all)."""
    limit = _size(path)
    if limit - FIRST_BATCH_BYTES < PIECES_FROM_BYTES:
        return None
    source = Followed(os.path.abspath(path))
    try:
        lines, _replaced = read_new_lines(source, budget=FIRST_BATCH_BYTES)
    except OSError:
        return None  # (the load says why)
    preparers = load_preparers(first=1)  # (the others start after the first paint: the interface needs a core)
    if preparers.count == 0 or give_pieces(source, limit, preparers) == "replaced":
        preparers.close()
        return None
    return Head(source, lines, limit, preparers)


FIRST_BATCH_BYTES = 256 * 1024  # the first screen's worth, shown as soon as it is read
LAST_BATCH_BYTES = 8 * 1024 * 1024  # reads double up to this
BATCH_ROWS = 1000  # rows per batch at most: the interface appends a batch in one go, between keystrokes
PIECE_BYTES = 2 << 20  # the bulk of a large file goes in pieces of this much (pieces.py)
PIECES_FROM_BYTES = 8 << 20  # when that much is left to read (less loads in a few tenths of a second)


def stream_files(
    paths: list[str],
    table: RecordTable,
    starts: dict[str, Followed] | None = None,
    preparers: Preparers | None = None,
    head: Head | None = None,
) -> Iterator[Batch]:
    """Read files in steps: a small first read (the first screen), then larger ones, each handed
    on in batches of at most BATCH_ROWS rows. Rows are only prepared here (`table.prepare` reads
    nothing of the table's rows), so a loader thread can run this while the interface's thread
    appends each batch. `starts`: where to start reading a file (its tail, when it grows faster
    than it can be shown). `preparers`: after the first read, the rest of each file goes to them
    in pieces (one batch each). `head`: the load begun already (head_start, on the first file;
    `preparers` are the head's)."""
    followed: list[Followed] = []
    budget = FIRST_BATCH_BYTES
    for number, path in enumerate(paths):
        begun = head if number == 0 else None
        source = begun.source if begun else (starts or {}).get(path) or Followed(os.path.abspath(path))
        followed.append(source)
        absent = not_a_file(path)
        if absent is not None:
            source.missing = True
            yield Batch([], [Problem(path, absent)])
            continue
        # what grows meanwhile is read as the file is followed: a load ends
        limit = begun.limit if begun else _size(path)
        while True:
            try:
                lines, replaced = (
                    (begun.lines, False)
                    if begun
                    else read_new_lines(source, budget=max(0, min(budget, limit - source.offset)))
                )
                begun = None
            except OSError as exc:
                yield Batch([], [Problem(path, f"cannot read: {exc.strerror or exc}")])
                break
            if replaced:
                yield Batch([], [], replaced=True)
                return
            yield from prepared_batches(table, source.path, lines)
            if preparers is not None and (preparers.pending() or limit - source.offset >= PIECES_FROM_BYTES):
                replaced = yield from piece_batches(source, limit, preparers)
                if replaced:
                    yield Batch([], [], replaced=True)
                    return
            budget = min(2 * budget, LAST_BATCH_BYTES)
            if source.offset >= limit:
                break
    yield Batch([], [], followed)


def prepared_batches(table: RecordTable, path: str, lines: list[tuple[int, Line]]) -> Iterator[Batch]:
    """Lines read and prepared for `table`, in batches of at most BATCH_ROWS (at least one)."""
    for start in range(0, max(1, len(lines)), BATCH_ROWS):
        problems: list[Problem] = []
        part = lines[start : start + BATCH_ROWS]
        rows = [row for number, line in part if (row := _prepared(table, path, number, line, problems))]
        yield Batch(rows, problems)


def piece_batches(source: Followed, limit: int, preparers: Preparers) -> Generator[Batch, None, bool]:
    """The file from where `source` was read to, up to its last newline before `limit`, in pieces
    of whole lines prepared by `preparers` (give_pieces), one batch each, in order. Returns True
    when the file is not the one read so far: the load starts over. A line longer than a piece,
    or a line being skipped, stops it there: the caller reads on line by line."""
    if source.unterminated or source.splitter.skipped:
        return False
    given: Given = "full"
    while True:
        if given == "full":
            given = give_pieces(source, limit, preparers)
            if given == "replaced":
                return True
        if not preparers.pending():
            return False
        if (batch := _taken(preparers)) is None:
            return True
        yield batch


Given = Literal["full", "end", "replaced"]  # what give_pieces stopped at


def give_pieces(source: Followed, limit: int, preparers: Preparers) -> Given:
    """Pieces of whole lines from where `source` was read to, up to the last newline before
    `limit`, given to `preparers` while they have room. Read here too, so that what was read is
    fingerprinted as any read is (follow.py), and a piece that a child read otherwise (the file
    changed meanwhile) is known. 'full': stopped for room; 'end': nothing more to give in
    pieces; 'replaced': the file is not the one read so far."""
    try:
        handle = open_file(source.path)  # (closed below)
    except OSError:
        return "end"  # (the caller's next read says what happened)
    with handle:
        stat = os.fstat(handle.fileno())
        inode = (stat.st_dev, stat.st_ino)
        if inode != source.inode or stat.st_size < source.offset:
            return "replaced"
        while preparers.room():
            if source.offset >= limit:
                return "end"
            read = os.pread(handle.fileno(), min(PIECE_BYTES, limit - source.offset), source.offset)
            end = read.rfind(b"\n") + 1
            if not end:
                return "end"
            lines = memoryview(read)[:end]  # (not copied: 2 MiB copies were a tenth of this thread's time)
            source.fingerprint.add(lines)
            begun = source.splitter.peek()  # (the line the last read stopped inside)
            data = begun + lines if begun else lines
            source.splitter = LineSplitter()
            preparers.give(source.path, inode, source.offset - len(begun), source.line + 1, data)
            source.offset += end
            source.line += read.count(b"\n", 0, end) + begun.count(b"\n")
    return "full"


def _taken(preparers: Preparers) -> Batch | None:
    piece = preparers.take()
    return None if piece is None else Batch([], piece.problems, piece=piece)


def _prepared(table: RecordTable, path: str, number: int, line: Line, problems: list[Problem]) -> Prepared | None:
    try:
        text, record = read_object(line)
    except LineError as exc:
        problems.append(Problem(f"{path}:{number}", str(exc)))
        return None
    return table.prepare(text, record, f"{path}:{number}", origin=path)


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0
