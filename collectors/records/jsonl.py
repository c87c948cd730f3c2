"""Strict reading of JSON Lines: bounded lines, bounded nesting, interchange-grade JSON only.

One routine for `validate`, the browse loader and `export`, so that they never disagree about
a line. Python's `json` accepts what interchange JSON forbids (NaN, Infinity, 1e400 read as
infinity, a key repeated in one object, invalid UTF-8 once decoded with replacement) and
recurses without bound; every such line here is one clear error with its column.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, cast

MAX_LINE_BYTES = 64 * 1024 * 1024  # as for reports: nothing real comes near it
MAX_DEPTH = 64  # a schema-1.0 record nests 5 deep; producers' origin_meta may add a few
CHUNK_BYTES = 1 << 20


@dataclass(frozen=True)
class Oversized:
    """A line longer than the limit: counted, never kept."""

    size: int
    limit: int = MAX_LINE_BYTES


Line = bytes | Oversized


class LineError(ValueError):
    """Why a line is not a record, with the 1-based column where that shows (None: whole line)."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column

    def __str__(self) -> str:
        return self.message if self.column is None else f"invalid JSON at column {self.column}: {self.message}"


class LineSplitter:
    """Cuts a byte stream into lines as it arrives, holding at most MAX_LINE_BYTES of one line."""

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.limit = limit
        self.pending = bytearray()
        self.skipped = 0  # > 0 while inside a line already over the limit

    def feed(self, data: bytes) -> list[Line]:
        lines: list[Line] = []
        start = 0
        while (end := data.find(b"\n", start)) >= 0:
            lines.append(self._take(data[start:end]))
            start = end + 1
        self._hold(data[start:])
        return lines

    def finish(self) -> Line | None:
        """The last line when the stream ends without a newline (None: nothing left)."""
        if not self.pending and not self.skipped:
            return None
        return self._take(b"")

    def peek(self) -> bytes:
        """The unfinished line so far (empty while skipping an oversized one)."""
        return bytes(self.pending)

    def _take(self, tail: bytes) -> Line:
        size = self.skipped + len(self.pending) + len(tail)
        line: Line = Oversized(size, self.limit) if size > self.limit else bytes(self.pending) + tail
        self.pending.clear()
        self.skipped = 0
        if isinstance(line, bytes) and line.endswith(b"\r"):
            line = line[:-1]
        return line

    def _hold(self, part: bytes) -> None:
        if self.skipped:
            self.skipped += len(part)
            return
        self.pending += part
        if len(self.pending) > self.limit:
            self.skipped = len(self.pending)
            self.pending = bytearray()  # a fresh buffer: clear() would keep the large allocation


def whole_lines(data: bytes, limit: int = MAX_LINE_BYTES) -> list[Line]:
    """The lines of `data` (whole lines, each ending with a newline), as LineSplitter cuts them;
    at C speed where no line can be over the limit."""
    if len(data) > limit:
        return LineSplitter(limit).feed(data)
    lines = data.split(b"\n")
    lines.pop()  # (what follows the last newline: nothing)
    if b"\r" in data:
        lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
    return cast(list[Line], lines)


def iter_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[tuple[int, Line]]:
    """(line number, line) of a whole stream, read in bounded chunks."""
    splitter = LineSplitter(limit)
    number = 0
    while chunk := stream.read(CHUNK_BYTES):
        for line in splitter.feed(chunk):
            number += 1
            yield number, line
    last = splitter.finish()
    if last is not None:
        yield number + 1, last


# --- one line -> one JSON object ------------------------------------------------------------------


class _Refused(ValueError):
    """Raised inside the decoder's hooks; located afterwards by `_locate`."""


def _constant(token: str) -> Any:
    raise _Refused(token)


def _finite(token: str) -> float:
    value = float(token)
    if math.isinf(value):
        raise _Refused(token)
    return value


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _Refused("key")
    return result


try:  # a fast path where installed (see _fast); the strict reader below decides every doubt
    import orjson as _orjson
except ImportError:  # pragma: no cover (a dependency; tolerated missing)
    _orjson = None  # type: ignore[assignment]
_SPACED_KEY = re.compile(rb'"[ \t\r]+:')  # a key counted apart from its colon
_LONG_NUMBER = re.compile(rb"\d{19}")  # an integer orjson would not read exactly
_LONG_DIGITS = re.compile(_LONG_NUMBER.pattern.decode())  # (the same, in a line's text)

_DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_constant, object_pairs_hook=_unique)
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]|-?(?:NaN|Infinity)|-?\d[\d.eE+-]*|\s+|.', re.S)


def decode(data: bytes) -> str:
    """Strict UTF-8; an invalid byte is an error at its column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(data[: exc.start].decode("utf-8")) + 1
        raise LineError(f"invalid UTF-8 (byte 0x{data[exc.start]:02x})", column) from None


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    if text.count("[") + text.count("{") <= limit:
        return  # too few brackets to nest that deep: the common case, at C speed
    depth = 0
    for match in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', text, re.S):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                raise LineError(f"nested deeper than {limit} levels", match.start() + 1)
        elif char in "]}":
            depth -= 1


def loads(text: str) -> Any:
    """JSON for interchange: no NaN or Infinity, no number out of range, no key twice in an object."""
    check_depth(text)
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise LineError(exc.msg, exc.colno) from None
    except _Refused:
        raise _locate(text) from None
    except ValueError as exc:  # an integer of more than 4300 digits, say
        raise LineError(str(exc), 1) from None


def _locate(text: str) -> LineError:
    """Where the first refused token is: walk the tokens, keeping the keys of each open object."""
    keys: list[set[str] | None] = []
    tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(text) if not m.group().isspace()]
    for n, (token, at) in enumerate(tokens):
        if token in ("{", "["):
            keys.append(set() if token == "{" else None)
        elif token in ("}", "]"):
            keys.pop()
        elif token.lstrip("-") in ("NaN", "Infinity"):
            return LineError(f"{token} is not a JSON number", at + 1)
        elif token[0] in "-0123456789" and _overflows(token):
            return LineError(f"number {token} is out of range", at + 1)
        elif token.startswith('"') and n + 1 < len(tokens) and tokens[n + 1][0] == ":":
            known = keys[-1] if keys else None
            key = json.loads(token)
            if known is not None and key in known:
                return LineError(f"key {key!r} repeated in one object", at + 1)
            if known is not None:
                known.add(key)
    return LineError("refused token", 1)


def _overflows(token: str) -> bool:
    try:
        return math.isinf(float(token))
    except ValueError:
        return False


def _fast(line: bytes) -> dict[str, Any] | None:
    """The object of a line through orjson (4x faster than `json` with the hooks `loads` needs),
    when that is sure to be what `loads` gives; None sends the line to `loads`, which decides.
    orjson refuses NaN, Infinity, out-of-range floats, invalid UTF-8 and lone surrogates itself,
    but keeps the last of two equal keys and reads a 20-digit integer as a float. A line that
    orjson writes back byte for byte has neither (the common case: compact writers, ours
    included); another is left to `loads` when its keys, counted in its text and in what orjson
    read, differ, or it holds a digit run of 19 or more, or escapes that could spell a quote or a
    colon."""
    if _orjson is None or line.count(b"{") + line.count(b"[") > MAX_DEPTH:
        return None
    try:
        value = _orjson.loads(line)
    except _orjson.JSONDecodeError:
        return None
    if type(value) is not dict:
        return None
    written = _orjson.dumps(value)
    if written == line:
        return value
    if b"\\u00" in line or _SPACED_KEY.search(line) or _LONG_NUMBER.search(line):
        return None
    return value if written.count(b'":') == line.count(b'":') else None  # (else a key given twice)


def loads_read(text: str) -> Any:
    """A line read already as a record (a table's row: its doubts were settled when it was
    read), again: through orjson, 3x faster than `json`, but for a line with a digit run that
    orjson would read as a float (an integer of 19 digits or more)."""
    if _orjson is not None and not _LONG_DIGITS.search(text):
        try:
            return _orjson.loads(text)
        except _orjson.JSONDecodeError:
            pass  # (a lone surrogate, which `json` takes)
    return json.loads(text)


def read_record(line: Line) -> dict[str, Any]:
    """The object of one line (`read_object` without its text: what a piece keeps is the bytes)."""
    if type(line) is bytes and (fast := _fast(line)) is not None:
        return fast
    return _read_strictly(line)[1]


def read_object(line: Line) -> tuple[str, dict[str, Any]]:
    """The text and the object of one line, or LineError saying why it is not a record."""
    if isinstance(line, bytes) and (fast := _fast(line)) is not None:
        return line.decode("utf-8"), fast
    return _read_strictly(line)


def _read_strictly(line: Line) -> tuple[str, dict[str, Any]]:
    if isinstance(line, Oversized):
        raise LineError(f"line longer than {line.limit >> 20} MiB ({line.size} bytes), not read")
    text = decode(line)
    if not text.strip():
        raise LineError("empty line (one JSON object per line)")
    value = loads(text)
    if not isinstance(value, dict):
        raise LineError("not a JSON object")
    return text, value
