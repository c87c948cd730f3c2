"""AI Engine simulator PLIO output files (`aiesimulator_output/**`, `x86simulator_output/**`).

Streamed in one pass with constant memory: real outputs reach millions of lines. The simulator's
format:
a `T <n> <unit>` line stamps the next data line, a `TLAST` line marks the next data line as the
last of a frame, units change from line to line (ps..s), x86sim files have no timestamps.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from collectors.files import decode_text
from collectors.numbers import PICOSECONDS, PLIO_BITS, Range, checked
from collectors.problems import ArtifactError, NotThisKind

UNIT_PS = {"ps": 1, "ns": 1_000, "us": 1_000_000, "ms": 1_000_000_000, "s": 1_000_000_000_000}
_UNITS = {unit.encode(): factor for unit, factor in UNIT_PS.items()}
_INTEGER_BYTES = b"0123456789- \t\r\n"
_AMOUNT = re.compile(rb"^\d+(?:\.\d*)?(?:[eE][+-]?\d+)?$")
# A whole data line at once (C speed); a line it refuses is looked at token by token for the message.
_TOKEN = rb"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf)"
_DATA_LINE = re.compile(rb"^[ \t]*" + _TOKEN + rb"(?:[ \t]+" + _TOKEN + rb")*[ \t\r\n]*$", re.IGNORECASE)
_NUMBER = re.compile(rb"^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|nan|inf)$", re.IGNORECASE)


def _check_plio_start(raw: bytes) -> None:
    """A file whose first line is a sentence (a profile, an options file, a log) is another tool's
    text: not a problem, just not PLIO output. Binary junk stays a problem."""
    line = raw.strip()
    if not line or _DATA_LINE.match(raw) or line == b"TLAST" or line.startswith((b"T ", b"TKEEP")):
        return
    if line.isascii() and line[:1].isalpha() and line.decode("ascii").isprintable():
        raise NotThisKind("not PLIO output (a text of another kind)")


CHUNK_BYTES = 1 << 18  # read size of the chunked parse: small enough to stay in the CPU caches (measured)

# The headers a simple chunk allows before a data line: a `T` line (digits few enough for the unit
# that no range check is needed: under 1e18 ps), optionally then TLAST. A header followed by
# anything else stays in place and sends the chunk to the per-line parse.
_HEADER = re.compile(
    rb"\nT (?:\d{1,18} ps|\d{1,15} ns|\d{1,12} us|\d{1,9} ms|\d{1,6} s)(?:\nTLAST)?(?=\n[-0-9])|\nTLAST(?=\n[-0-9])"
)
_DATA_CHARACTERS = b"0123456789- \n"
# a value split in two, a sign without digits, a blank line: never in a simple chunk's data lines
_NOT_SIMPLE = (b"\n\n", b"  ", b"\n ", b"--", b"- ", b"-\n")
_EDGE_LINES = 8  # header lines looked at, one by one, at the edges of a chunk


def parse_aie_output(stream: BinaryIO, chunk_size: int = CHUNK_BYTES) -> dict[str, Any]:
    """Counts and times of one PLIO output file (what `throughputs` needs, nothing per line kept).

    Read in chunks cut at a newline; a chunk of the simple shape real simulator output has (integer
    data lines of one width, each after an optional `T` line and an optional TLAST) is counted at C
    speed, any other goes through the per-line reference parse, state carried across. The result
    and the errors are the same as `parse_aie_output_by_line`'s."""
    state = _State()
    for piece in _pieces(stream, chunk_size):
        _parse_piece(piece, state)
    return state.result()


def _pieces(stream: BinaryIO, chunk_size: int) -> Iterator[bytes]:
    """The stream in pieces of about `chunk_size` bytes, each ending at a newline (the last one
    maybe not); a line longer than that makes one piece (memory as the line-by-line parse)."""
    held: list[bytes] = []
    while block := stream.read(chunk_size):
        cut = block.rfind(b"\n") + 1
        if not cut:
            held.append(block)
            continue
        yield b"".join((*held, block[:cut])) if held else block[:cut]
        held = [block[cut:]] if cut < len(block) else []
    if held:
        yield b"".join(held)


def _parse_piece(piece: bytes, state: _State) -> None:
    """The head (up to the first data line) and the tail (after the last one) line by line, the
    body between at C speed when it has the simple shape, else line by line too."""
    head_end, tail_start = _first_line_end(piece), _last_line_end(piece)
    if head_end < 0 or tail_start <= head_end:
        _parse_lines(io.BytesIO(piece), state)
        return
    _parse_lines(io.BytesIO(piece[:head_end]), state)
    if not _count_simple_body(piece[head_end - 1 : tail_start], state):
        _parse_lines(io.BytesIO(piece[head_end:tail_start]), state)
    _parse_lines(io.BytesIO(piece[tail_start:]), state)


def _first_line_end(piece: bytes) -> int:
    """Where the first line that does not start with `T` ends (after its newline), -1 if none is
    among the first few lines or it has no newline."""
    start = 0
    for _ in range(_EDGE_LINES):
        end = piece.find(b"\n", start) + 1
        if not end:
            return -1
        if piece[start : start + 1] != b"T":
            return end
        start = end
    return -1


def _last_line_end(piece: bytes) -> int:
    """Where the last line that does not start with `T` ends (after its newline), -1 if none is
    among the last few lines or the piece does not end with a newline."""
    if not piece.endswith(b"\n"):
        return -1
    end = len(piece)
    for _ in range(_EDGE_LINES):
        start = piece.rfind(b"\n", 0, end - 1) + 1
        if piece[start : start + 1] != b"T":
            return end
        if not start:
            return -1
        end = start
    return -1


def _count_simple_body(body: bytes, state: _State) -> bool:
    """Count `body` (a newline, then whole lines, the last one a data line) into `state` if every
    line has the simple shape, at C speed; False, `state` untouched, if not."""
    if state.pending_ps is not None or state.pending_tlast:
        return False  # the head's last line left a mark: not a data line after all
    data, headers = _HEADER.subn(b"", body)
    width = _simple_width(data)
    if width is None:
        return False
    lines = data.count(b"\n") - 1
    state.number += body.count(b"\n") - 1
    state.data_lines += lines
    state.values += lines * width
    state.widths[width] = state.widths.get(width, 0) + lines
    state.frames += body.count(b"L")  # only TLAST lines have an L
    _count_times(body, width, state)
    return True


def _simple_width(data: bytes) -> int | None:
    """The number of values of each line of `data` (a newline, then lines) if all are integer lines
    of that same width, with single spaces and a trailing space on all or none; else None."""
    if data.translate(None, _DATA_CHARACTERS) or any(bad in data for bad in _NOT_SIMPLE):
        return None
    first = data[1 : data.index(b"\n", 1)]
    spaces, trailing = first.count(b" "), first.endswith(b" ")
    lines = data.count(b"\n") - 1
    if data.count(b" \n") != (lines if trailing else 0):
        return None
    if data.translate(None, b"0123456789-") != (b"\n" + b" " * spaces) * lines + b"\n":
        return None
    return spaces + 1 - trailing


def _count_times(body: bytes, width: int, state: _State) -> None:
    """First and last timestamps and frame starts of a simple body (counts already added): every
    `T` line is its data line's, every TLAST ends a frame and the next data line starts one."""
    first_t, last_t = body.find(b"\nT "), body.rfind(b"\nT ")
    if state.first_ps is None and first_t >= 0:
        state.first_ps = _header_ps(body, first_t)
    if last_t >= 0:
        state.last_ps = _header_ps(body, last_t)
    if state.tstart_0 is None and first_t >= 0:  # without a `T` line every frame starts untimed
        stamps = (_header_ps(body, at) for at in _frame_starts(body, state.starting))
        state.tstart_0 = next((ps for ps in stamps if ps is not None), None)
    latest = _latest_frame_start(body, state.starting)
    if latest is not None:
        state.latest_start = _header_ps(body, latest)
        later = body.count(b"\n", latest, len(body) - 1) - body.count(b"\nT", latest)  # data lines
        state.values_before_latest_start = state.values - width * later
    last_line = body.rfind(b"\n", 0, len(body) - 1)
    state.starting = last_line >= 6 and body.startswith(b"\nTLAST", last_line - 6)


def _header_ps(body: bytes, at: int) -> int | None:
    """The timestamp of the beat whose first line starts after the newline at `at`, if timed."""
    if not body.startswith(b"\nT ", at):
        return None
    _, amount, unit = body[at + 1 : body.index(b"\n", at + 1)].split()
    return int(amount) * _UNITS[unit]


def _frame_ends(body: bytes) -> Iterator[int]:
    """Where each beat after a TLAST one begins (its newline), in order; none for the last beat."""
    at = body.find(b"\nTLAST")
    while at >= 0:
        end = body.index(b"\n", at + 7)  # the end of TLAST's data line
        if end == len(body) - 1:
            return
        yield end
        at = body.find(b"\nTLAST", end)


def _frame_starts(body: bytes, starting: bool) -> Iterator[int]:
    """Where each beat that starts a frame begins, in order."""
    if starting:
        yield 0
    yield from _frame_ends(body)


def _latest_frame_start(body: bytes, starting: bool) -> int | None:
    """Where the last beat that starts a frame begins (from the end: at most two TLAST looked at)."""
    at = body.rfind(b"\nTLAST")
    while at >= 0:
        end = body.index(b"\n", at + 7)
        if end != len(body) - 1:
            return end
        at = body.rfind(b"\nTLAST", 0, at)
    return 0 if starting else None


class _State:
    """What the parse carries from line to line (and from chunk to chunk): counts, times, and the
    marks a `T` or `TLAST` line leaves for the next data line."""

    __slots__ = (
        "number", "data_lines", "values", "frames", "widths", "first_ps", "last_ps", "pending_ps",
        "pending_tlast", "values_before_latest_start", "tstart_0", "latest_start", "starting",
    )  # fmt: skip

    def __init__(self) -> None:
        self.number = self.data_lines = self.values = self.frames = 0  # number: lines read so far
        self.widths: dict[int, int] = {}
        self.first_ps: int | None = None
        self.last_ps: int | None = None
        self.pending_ps: int | None = None  # the timestamp of the next data line
        self.pending_tlast = False
        self.values_before_latest_start = 0  # values in the frames before the latest frame start
        self.tstart_0: int | None = None
        self.latest_start: int | None = None
        self.starting = True  # the next data line starts a frame

    def result(self) -> dict[str, Any]:
        if self.data_lines == 0:
            raise ArtifactError("no data lines")
        widths = self.widths
        width = max(widths, key=lambda w: (widths[w], w))
        return {
            "data_lines": self.data_lines,
            "values": self.values,
            "values_per_line": width,
            "values_per_line_varies": len(widths) > 1,
            "frames": self.frames,
            "first_ps": self.first_ps,
            "last_ps": self.last_ps,
            "tstart_0_ps": self.tstart_0,
            "latest_start_ps": self.latest_start,
            "values_before_latest_start": self.values_before_latest_start,
        }


def parse_aie_output_by_line(stream: BinaryIO) -> dict[str, Any]:
    """The straightforward parse, one line at a time: the reference the chunked parse must match."""
    state = _State()
    _parse_lines(stream, state)
    return state.result()


def _parse_lines(lines: Iterable[bytes], state: _State) -> None:
    """The reference per-line parse of `lines` (each with its newline), continuing `state`."""
    for number, raw in enumerate(lines, state.number + 1):  # the hot loop of unusual files
        state.number = number
        if state.data_lines == 0 and state.pending_ps is None and not state.pending_tlast:
            _check_plio_start(raw)
        if raw[:1] == b"T":
            _marker_line(raw, number, state)
        elif _is_data_line(raw, number):
            _count_data_line(len(raw.split()), state)


def _marker_line(raw: bytes, number: int, state: _State) -> None:
    """A `TLAST`, `TKEEP` or `T <amount> <unit>` line."""
    parts = raw.split()
    if parts[0] == b"TLAST":
        state.pending_tlast = True
        return
    if parts[0] == b"TKEEP":
        return
    if len(parts) != 3 or parts[0] != b"T" or parts[2] not in _UNITS:
        raise ArtifactError(f"line {number}: not a timestamp, TLAST or data line: {raw.strip()[:40]!r}")
    amount, factor = parts[1], _UNITS[parts[2]]
    if amount.isdigit() and len(amount) < 19:  # the common case, at C speed
        state.pending_ps = int(amount) * factor
        if state.pending_ps > PICOSECONDS.high:
            state.pending_ps = _timestamp_ps(amount, factor, number)
    elif _AMOUNT.match(amount):
        state.pending_ps = _timestamp_ps(amount, factor, number)
    else:
        raise ArtifactError(f"line {number}: bad timestamp {raw.strip()[:40]!r}")


def _is_data_line(raw: bytes, number: int) -> bool:
    """Whether a line holds numbers (False for a blank line; an error for anything else).

    Integer lines (the common case) are checked by deleting their characters (C speed); a sign
    must be followed by a digit, else the full check decides."""
    if not (raw.translate(None, _INTEGER_BYTES) or b"- " in raw or b"--" in raw or raw.rstrip().endswith(b"-")):
        return True
    if _DATA_LINE.match(raw) is not None:
        return True
    if not raw.strip():
        return False
    bad = next((t for t in raw.split() if not _NUMBER.match(t)), raw.strip())
    raise ArtifactError(f"line {number}: {bad[:20]!r} is not a number")


def _count_data_line(width: int, state: _State) -> None:
    """A line of `width` values: the timestamp before it and a TLAST after the last frame apply."""
    state.widths[width] = state.widths.get(width, 0) + 1
    state.data_lines += 1
    if state.starting:
        if state.tstart_0 is None:
            state.tstart_0 = state.pending_ps
        state.latest_start = state.pending_ps
        state.values_before_latest_start = state.values
        state.starting = False
    state.values += width
    if state.pending_ps is not None:
        if state.first_ps is None:
            state.first_ps = state.pending_ps
        state.last_ps = state.pending_ps
        state.pending_ps = None
    if state.pending_tlast:
        state.frames += 1
        state.pending_tlast = False
        state.starting = True


def _timestamp_ps(amount: bytes, factor: int, number: int) -> int:
    """A timestamp in picoseconds through the checked conversion (`T 1e300 s` is refused)."""
    field = f"line {number}: timestamp"
    value = checked(amount.decode("ascii"), field, Range(high=PICOSECONDS.high))
    return int(checked((value or 0) * factor, field + " in ps", PICOSECONDS) or 0)


def throughputs(stats: dict[str, Any], values_per_sample: int, plio_bits: int | None) -> dict[str, Any]:
    """The `aie_sim` figures of one port file. `values_per_sample` is 2 for complex data (cint16,
    cint32, cfloat), 1 for real data; beats (data lines) per second and bytes per second (PLIO
    width x beats) need no sample type. A figure is null only where it cannot be computed."""
    first, last = stats["first_ps"], stats["last_ps"]
    span_s = (last - first) / 1e12 if first is not None and last is not None and last > first else None
    beats_per_second = stats["data_lines"] / span_s if span_s else None
    out: dict[str, Any] = {
        "data_lines": stats["data_lines"],
        "values_per_line": stats["values_per_line"],
        "values_per_sample": values_per_sample,
        "samples": stats["values"] // values_per_sample,
        "frames": stats["frames"],
        "first_time_s": None if first is None else first / 1e12,
        "last_time_s": None if last is None else last / 1e12,
        "beats_per_second": beats_per_second,
        "bytes_per_second": beats_per_second * plio_bits / 8 if beats_per_second and plio_bits else None,
        "raw_throughput_sps": (stats["values"] / values_per_sample) / span_s if span_s else None,
        "frame_throughput_sps": None,
    }
    # Frames 0..N-1 over tstart_N - tstart_0 (the simulator's format): N is the latest frame that started, so
    # the quiet time after each earlier frame is counted and the last frame's tail is not.
    start, latest = stats["tstart_0_ps"], stats["latest_start_ps"]
    if stats["frames"] >= 1 and start is not None and latest is not None and latest > start:
        out["frame_throughput_sps"] = (stats["values_before_latest_start"] / values_per_sample) / (
            (latest - start) / 1e12
        )
    return out


# the port's name is optional: `output_plio::create(plio_32_bits, "data/output.txt")` (the Vitis
# StreamSwitchFIFO template) declares the file and the width alone
_PLIO = re.compile(
    r"""(?:output_plio::create|PLIO)\s*\(\s*(?:"([^"]*)"\s*,)?"""
    r"""\s*(?:adf::)?plio_(\d+)_bits\s*,\s*"([^"]+)"\s*"""
)
_COMPLEX = re.compile(r"\b(?:cint16|cint32|cfloat|cbfloat16)\b")
_REAL = re.compile(r"\b(?:u?int8|u?int16|u?int32|int64|float|bfloat16)\b")


def plio_declarations(source: str) -> dict[str, dict[str, Any]]:
    """Output PLIO declarations in a graph source: file basename -> port name, PLIO width, and
    whether the source's port types are complex (True), real (False) or mixed/unknown (None)."""
    found = {}
    complex_types = bool(_COMPLEX.search(source))
    real_types = bool(_REAL.search(re.sub(r"plio_\d+_bits", "", source)))
    kind = True if complex_types and not real_types else False if real_types and not complex_types else None
    for match in _PLIO.finditer(source):
        name, bits, path = match.groups()
        width = checked(bits, f"PLIO width of {path if name is None else repr(name)}", PLIO_BITS)
        found[path.rsplit("/", 1)[-1]] = {"port": name, "plio_bits": width, "complex": kind}
    return found


_OUTPUT_WIDTH = re.compile(r"(?:output_plio::create|PLIO)\s*\([^;]*?plio_(\d+)_bits")


def output_widths(source: str) -> list[int]:
    """Widths of every output PLIO a source creates, file names literal or not."""
    return sorted({int(bits) for bits in _OUTPUT_WIDTH.findall(source)})


def is_graph_source(name: str) -> bool:
    """Where an AI Engine design declares its graph's PLIOs: a source named after the graph, or
    the `project.h` / `project.cpp` many designs keep it in (SPIRE-GMU/aether-vck190)."""
    lowered = name.lower()
    return "graph" in lowered or lowered.rpartition(".")[0] == "project"


def parse_graph_source(data: bytes) -> dict[str, Any]:
    text = decode_text(data)
    return {"plio": plio_declarations(text), "output_widths": output_widths(text)}


def is_plio_output_name(name: str, parent: str) -> bool:
    """Simulator output folders also hold the simulator's own text files: not PLIO data."""
    return not name.startswith("profile_") and not name.endswith("_options.txt")
