"""The chunked AIE parse (C-speed counting of simple chunks) against the per-line reference.

Chunk sizes are forced small so chunk edges fall on every line and inside every line; the files
mix the simple shape (integer beats: optional `T`, optional TLAST, a data line of one width) with
everything that must send a chunk to the per-line parse."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from collectors.collect.artifacts import aie
from collectors.collect.artifacts.aie import parse_aie_output, parse_aie_output_by_line
from collectors.problems import ArtifactError, NotThisKind

FIXTURE = Path(__file__).parent.parent / "fixtures" / "aie" / "xup_aie_training__fir_lowpass__output_aie.txt"


def outcome(parse: Any, data: bytes, *args: int) -> tuple[str, Any]:
    """The result dict, or the error's kind and message."""
    try:
        return "ok", parse(io.BytesIO(data), *args)
    except (ArtifactError, NotThisKind) as error:
        return type(error).__name__, str(error)


UNITS = ["ps", "ns", "us", "ms", "s"]
amounts = st.one_of(
    st.integers(0, 10**7).map(str),
    st.integers(0, 10**21).map(str),  # past the range of the larger units
    st.sampled_from(["0", "007", "1.5", "2e3", "1e300", "-4", "x", "", "9223372036854775807"]),
)
timestamps = st.builds(
    lambda amount, unit, gap: f"T{gap}{amount}{gap}{unit}".rstrip(),
    amounts,
    st.one_of(st.sampled_from(UNITS), st.sampled_from(UNITS), st.sampled_from(["parsecs", "NS", ""])),
    st.sampled_from([" ", " ", " ", "  ", "\t"]),
)
integers = st.integers(-(10**6), 10**6).map(str)
values = st.one_of(
    integers, integers, st.sampled_from(["1.5", "-0.25", "3e4", "nan", "two", "-", "--5", "5-3", "0x1f"])
)


@st.composite
def data_lines(draw: st.DrawFn, width: int, trailing: str) -> str:
    """Mostly `width` integers with single spaces; sometimes one thing changed (a token, a
    separator, the width, the line's start or end), sometimes anything."""
    tokens = draw(st.lists(integers, min_size=width, max_size=width))
    separators = [" "] * (width - 1)
    change = draw(st.integers(0, 24))
    if change == 0:
        tokens[draw(st.integers(0, width - 1))] = draw(st.one_of(values, st.just("")))  # "" leaves two spaces
    elif change == 1 and separators:
        separators[draw(st.integers(0, width - 2))] = draw(st.sampled_from(["  ", "\t", " - ", "-"]))
    elif change == 2:
        trailing = draw(st.sampled_from(["", " ", "  ", "\t", "-", " -", "\r"]))
    elif change == 3:
        if draw(st.booleans()) or width == 1:
            tokens.append(draw(integers))
        else:
            tokens.pop()
        separators = [" "] * (len(tokens) - 1)
    elif change == 4:
        tokens[0] = draw(st.sampled_from([" ", "\t", "-", "+"])) + tokens[0]
    elif change == 5:
        width = draw(st.integers(0, 4))
        tokens, separators = draw(st.lists(values, min_size=width, max_size=width)), [" "] * width
    line = "".join(token + separator for token, separator in zip(tokens, separators + [""]))
    return line + trailing


odd_lines = st.sampled_from(
    ["", " ", "\x0c", "TKEEP", "TKEEP -1", "TLASTX", "TLAST ", "T", " T 1 ns", "Trace of tile 1 3", "\x00\x01"]
)
simple_timestamps = st.builds(lambda amount, unit: f"T {amount} {unit}", st.integers(0, 10**9), st.sampled_from(UNITS))


@st.composite
def aie_files(draw: st.DrawFn) -> bytes:
    """Beats (headers, then a data line) with now and then an odd line or odd headers."""
    width, trailing = draw(st.integers(1, 4)), draw(st.sampled_from(["", " "]))
    tlast_odds = draw(st.integers(1, 6))  # one beat in that many ends a frame
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 80))):
        kind = draw(st.integers(0, 29))
        if kind == 0:
            lines.append(draw(odd_lines))
        elif kind == 1:
            lines.append(draw(timestamps))
        elif kind == 2:  # headers out of order or twice
            lines.extend(draw(st.lists(st.sampled_from(["TLAST", "T 5 ns", "T 6 us"]), min_size=2, max_size=3)))
        else:
            if draw(st.integers(0, 2)):
                lines.append(draw(simple_timestamps))
            if draw(st.integers(1, tlast_odds)) == 1:
                lines.append("TLAST")
            lines.append(draw(data_lines(width, trailing)))
    ending = "\r\n" if draw(st.integers(0, 19)) == 0 else "\n"
    text = ending.join(lines) + (ending if lines and draw(st.integers(0, 3)) else "")
    return text.encode("latin-1")


chunk_sizes = st.one_of(st.integers(1, 12), st.integers(13, 160))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(aie_files(), chunk_sizes)
@example(b"T 1 ns\nTLAST\n1 2\nT 2 ns\n3 4\nT 3 ns\nTLAST\n5 6\nT 4 ns\n7 8\n", 9)
@example(b"1 2 \n3 4 \nTLAST\n5 6 \n7 8 \nT 9 us\nTLAST\n9 9 \n1 1 \n", 12)
@example(b"T 9999999 s\n1\n2\nT 1 ns\n3\n", 4)
@example(b"T 5 ns\n\x0c\n2\nT 6 ns\n3\n", 100)  # a blank-ish line keeps the mark
@example(b"1 2 3\n1  3\n4 5 6\n", 100)  # two spaces, one value fewer
@example(b"1 2 \n3 4 5\n6 7 \n", 100)  # a trailing space on some lines only
@example(b"1\nT 1 ns\nTLAST\n2\nT 5 ns\nT 6 us\n3\n", 100)  # the second `T` line counts
def test_chunked_parse_is_the_per_line_parse(data: bytes, chunk_size: int) -> None:
    assert outcome(parse_aie_output, data, chunk_size) == outcome(parse_aie_output_by_line, data)


@pytest.mark.parametrize("chunk_size", [1, 7, 64, 1000, 4096, aie.CHUNK_BYTES])
def test_real_output_in_chunks(chunk_size: int) -> None:
    data = FIXTURE.read_bytes()
    assert parse_aie_output(io.BytesIO(data), chunk_size) == {
        "data_lines": 1024,
        "values": 2048,
        "values_per_line": 2,
        "values_per_line_varies": False,
        "frames": 4,
        "first_ps": 1672000,
        "last_ps": 5764000,
        "tstart_0_ps": 1672000,
        "latest_start_ps": 4744000,
        "values_before_latest_start": 1536,
    }


def test_real_output_is_counted_at_c_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real file's chunks have the simple shape: only the lines at chunk edges are parsed one
    by one (else the comparisons above would test the per-line parse against itself)."""
    seen: list[bytes] = []
    per_line = aie._parse_lines

    def counting(lines: Any, state: Any) -> None:
        lines = list(lines)
        seen.extend(lines)
        per_line(lines, state)

    monkeypatch.setattr(aie, "_parse_lines", counting)
    parse_aie_output(io.BytesIO(FIXTURE.read_bytes()), 4096)
    assert 0 < len(seen) < 100  # of 2,052 lines
