"""AI Engine simulator PLIO output files (`aiesimulator_output/**`, `x86simulator_output/**`).

Streamed in one pass with constant memory: real outputs reach millions of lines. Per seed 003:
a `T <n> <unit>` line stamps the next data line, a `TLAST` line marks the next data line as the
last of a frame, units change from line to line (ps..s), x86sim files have no timestamps.
"""

from __future__ import annotations

import re
from typing import Any, BinaryIO

from ..files import decode_text
from ..numbers import PICOSECONDS, PLIO_BITS, Range, checked
from ..problems import ArtifactError, NotThisKind

UNIT_PS = {"ps": 1, "ns": 1_000, "us": 1_000_000, "ms": 1_000_000_000, "s": 1_000_000_000_000}
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


def parse_aie_output(stream: BinaryIO) -> dict[str, Any]:
    """Counts and times of one PLIO output file (what `throughputs` needs, nothing per line kept)."""
    data_lines = values = frames = 0
    widths: dict[int, int] = {}
    first_ps = last_ps = None
    pending_ps: int | None = None  # the timestamp of the next data line
    pending_tlast = False
    values_before_latest_start = 0  # values in the frames before the latest frame start
    tstart_0 = latest_start = None
    starting = True  # the next data line starts a frame
    units = {unit.encode(): factor for unit, factor in UNIT_PS.items()}
    data_line = _DATA_LINE.match
    for number, raw in enumerate(stream, 1):  # the hot loop: 10 million lines must take seconds
        if data_lines == 0 and pending_ps is None and not pending_tlast:
            _check_plio_start(raw)
        if raw[:1] == b"T":
            parts = raw.split()
            if parts[0] == b"TLAST":
                pending_tlast = True
                continue
            if parts[0] == b"TKEEP":
                continue
            if len(parts) != 3 or parts[0] != b"T" or parts[2] not in units:
                raise ArtifactError(f"line {number}: not a timestamp, TLAST or data line: {raw.strip()[:40]!r}")
            amount, factor = parts[1], units[parts[2]]
            if amount.isdigit() and len(amount) < 19:  # the common case, at C speed
                pending_ps = int(amount) * factor
                if pending_ps > PICOSECONDS.high:
                    pending_ps = _timestamp_ps(amount, factor, number)
            elif _AMOUNT.match(amount):
                pending_ps = _timestamp_ps(amount, factor, number)
            else:
                raise ArtifactError(f"line {number}: bad timestamp {raw.strip()[:40]!r}")
            continue
        # integer lines (the common case) are checked by deleting their characters (C speed);
        # a sign must be followed by a digit, else the full check decides
        if (
            raw.translate(None, _INTEGER_BYTES) or b"- " in raw or b"--" in raw or raw.rstrip().endswith(b"-")
        ) and data_line(raw) is None:
            if not raw.strip():
                continue
            bad = next((t for t in raw.split() if not _NUMBER.match(t)), raw.strip())
            raise ArtifactError(f"line {number}: {bad[:20]!r} is not a number")
        width = len(raw.split())
        widths[width] = widths.get(width, 0) + 1
        data_lines += 1
        if starting:
            if tstart_0 is None:
                tstart_0 = pending_ps
            latest_start = pending_ps
            values_before_latest_start = values
            starting = False
        values += width
        if pending_ps is not None:
            if first_ps is None:
                first_ps = pending_ps
            last_ps = pending_ps
            pending_ps = None
        if pending_tlast:
            frames += 1
            pending_tlast = False
            starting = True
    if data_lines == 0:
        raise ArtifactError("no data lines")
    width = max(widths, key=lambda w: (widths[w], w))
    return {
        "data_lines": data_lines,
        "values": values,
        "values_per_line": width,
        "values_per_line_varies": len(widths) > 1,
        "frames": frames,
        "first_ps": first_ps,
        "last_ps": last_ps,
        "tstart_0_ps": tstart_0,
        "latest_start_ps": latest_start,
        "values_before_latest_start": values_before_latest_start,
    }


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
    # Frames 0..N-1 over tstart_N - tstart_0 (seed 003): N is the latest frame that started, so
    # the quiet time after each earlier frame is counted and the last frame's tail is not.
    start, latest = stats["tstart_0_ps"], stats["latest_start_ps"]
    if stats["frames"] >= 1 and start is not None and latest is not None and latest > start:
        out["frame_throughput_sps"] = (stats["values_before_latest_start"] / values_per_sample) / (
            (latest - start) / 1e12
        )
    return out


_PLIO = re.compile(
    r"""(?:output_plio::create|PLIO)\s*\(\s*"([^"]*)"\s*,"""
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
        width = checked(bits, f"PLIO width of {name!r}", PLIO_BITS)
        found[path.rsplit("/", 1)[-1]] = {"port": name, "plio_bits": width, "complex": kind}
    return found


_OUTPUT_WIDTH = re.compile(r"(?:output_plio::create|PLIO)\s*\([^;]*?plio_(\d+)_bits")


def output_widths(source: str) -> list[int]:
    """Widths of every output PLIO a source creates, file names literal or not."""
    return sorted({int(bits) for bits in _OUTPUT_WIDTH.findall(source)})


def parse_graph_source(data: bytes) -> dict[str, Any]:
    text = decode_text(data)
    return {"plio": plio_declarations(text), "output_widths": output_widths(text)}


def is_plio_output_name(name: str, parent: str) -> bool:
    """Simulator output folders also hold the simulator's own text files: not PLIO data."""
    return not name.startswith("profile_") and not name.endswith("_options.txt")
