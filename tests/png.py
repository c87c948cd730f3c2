"""A minimal PNG reader for the tests that look at a browser's screenshot: 8-bit RGB or RGBA,
not interlaced (what Chromium writes). Returns the pixels as (r, g, b) rows."""

from __future__ import annotations

import struct
import zlib


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def _unfilter(kind: int, line: bytearray, previous: bytearray, step: int) -> None:
    for i in range(len(line)):
        left = line[i - step] if i >= step else 0
        up = previous[i]
        corner = previous[i - step] if i >= step else 0
        add = (0, left, up, (left + up) // 2, _paeth(left, up, corner))[kind]
        line[i] = (line[i] + add) & 0xFF


def read_png(data: bytes) -> list[list[tuple[int, int, int]]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, chunks, header = 8, [], b""
    while at < len(data):
        (size,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + size]
        header = body if kind == b"IHDR" else header
        chunks += [body] if kind == b"IDAT" else []
        at += 12 + size
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, "only 8-bit RGB(A), not interlaced"
    step = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * step
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        line = bytearray(raw[start + 1 : start + 1 + stride])
        _unfilter(raw[start], line, previous, step)
        rows.append([tuple(line[x : x + 3]) for x in range(0, stride, step)])
        previous = line
    return rows  # type: ignore[return-value]
