"""Benchmark: streaming parse of a 10-million-line AI Engine simulator output file.

Prints the parse time against a bare `for line in file` loop over the same file (the floor),
their ratio, and the peak memory of the process (the parser keeps nothing per line).

    python tests/bench/bench_aie.py [--lines 10000000]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from collectors.collect.artifacts.aie import parse_aie_output, throughputs  # noqa: E402


def make_file(path: str, lines: int) -> None:
    """Timestamped cint16 lines at 4 ns, a TLAST every 256 samples, a 1 us gap between frames."""
    chunk, time_ns, written = [], 1000, 0
    with open(path, "w", encoding="ascii") as out:
        sample = 0
        while written < lines:
            unit = f"T {time_ns // 1000} us" if time_ns % 1000 == 0 else f"T {time_ns} ns"
            chunk.append(unit)
            if sample % 256 == 255:
                chunk.append("TLAST")
            chunk.append(f"{sample % 4096 - 2048} {(sample * 7) % 4096 - 2048} ")
            written += 3 if sample % 256 == 255 else 2
            time_ns += 4 if sample % 256 != 255 else 1000
            sample += 1
            if len(chunk) > 30000:
                out.write("\n".join(chunk) + "\n")
                chunk = []
        out.write("\n".join(chunk))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "output.txt")
        make_file(path, args.lines)
        size = os.path.getsize(path)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        began = time.perf_counter()
        with open(path, "rb") as handle:
            count = sum(1 for _ in handle)
        floor = time.perf_counter() - began
        began = time.perf_counter()
        with open(path, "rb") as handle:
            stats = parse_aie_output(handle)
        parse = time.perf_counter() - began
        result = throughputs(stats, 2, 32)  # cint16 samples on a 32-bit PLIO
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"file: {count} lines, {size / 1e6:.0f} MB, {result['frames']} frames")
        print(f"bare line loop: {floor:.2f} s")
        print(f"parse:          {parse:.2f} s  (ratio {parse / floor:.1f})")
        print(
            f"frame throughput {result['frame_throughput_sps'] / 1e6:.2f} Msps, "
            f"raw {result['raw_throughput_sps'] / 1e6:.2f} Msps"
        )
        print(f"peak RSS: {after:.0f} MB (before parsing: {before:.0f} MB; the file is {size / 1e6:.0f} MB)")


if __name__ == "__main__":
    main()
