"""Reading report files defensively: size limit, LFS pointers, binary junk, I/O errors."""

from __future__ import annotations

import codecs
import errno
import json
import os
import re
import stat as stat_module
import time
from collections.abc import Callable
from typing import Any, BinaryIO

from collectors.problems import ArtifactError, EmptyFile

MAX_REPORT_BYTES = 64 * 1024 * 1024  # the largest real csynth.xml seen is 2 MB
LFS_POINTER_PREFIX = b"version https://git-lfs.github.com/spec/"


# Opening never waits: a FIFO (or a device) named like a report opens at once and is refused.
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
_KINDS = (
    (stat_module.S_ISFIFO, "a FIFO"),
    (stat_module.S_ISSOCK, "a socket"),
    (stat_module.S_ISCHR, "a character device"),
    (stat_module.S_ISBLK, "a block device"),
    (stat_module.S_ISDIR, "a directory"),
)


def not_regular(mode: int) -> str | None:
    """Why a file of this mode is never read (only regular files are), or None."""
    if stat_module.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return f"not a regular file ({kind}), not read"


def not_a_file(path: str, also: Callable[[int], bool] | None = None) -> str | None:
    """Why `path` names no regular file to read, in one line ('no such file', 'not a regular file
    (a FIFO), not read', 'permission denied'); None where it is one, or of a kind `also` takes
    (a pipe, for a command that reads a stream once)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return describe_os_error(exc)
    return None if also is not None and also(mode) else not_regular(mode)


def not_a_directory(path: str | os.PathLike[str]) -> str | None:
    """Why `path` is no directory to walk ('no such directory', or 'is not a directory' where it is
    there: a file, /dev/zero); None where it is one."""
    if os.path.isdir(path):
        return None
    return "is not a directory" if os.path.exists(path) else "no such directory"


class NotAFile(OSError):
    """What a path names is no regular file (a FIFO, a directory, a device)."""


def open_file(path: str) -> BinaryIO:
    """The regular file at `path`, opened for reading without ever waiting (a FIFO put in a
    followed file's place held every reader in open() for good); NotAFile where it is something
    else, OSError as os.open raises it."""
    return os.fdopen(_open_descriptor(path)[0], "rb")


def open_regular(path: str) -> BinaryIO:
    """Open a regular file for reading without ever blocking; anything else raises ArtifactError."""
    descriptor, _size = _open_regular_descriptor(path)
    return os.fdopen(descriptor, "rb")


def _open_regular_descriptor(path: str) -> tuple[int, int]:
    """_open_descriptor, every failure an ArtifactError in the words a user searches for."""
    try:
        return _open_descriptor(path)
    except NotAFile as exc:
        raise ArtifactError(str(exc)) from None
    except OSError as exc:
        raise ArtifactError(describe_os_error(exc)) from None


def _open_descriptor(path: str) -> tuple[int, int]:
    """(descriptor, size) of a regular file opened for reading without blocking. The type is
    checked on the open descriptor (fstat), so a file swapped for a FIFO between a stat and the
    open is still refused (NotAFile)."""
    descriptor = os.open(path, _OPEN_FLAGS)
    try:
        status = os.fstat(descriptor)
    except OSError:
        os.close(descriptor)
        raise
    reason = not_regular(status.st_mode)
    if reason is not None:
        os.close(descriptor)
        raise NotAFile(reason)
    return descriptor, status.st_size


def read_report(path: str) -> bytes:
    """Return the bytes of a report, or raise ArtifactError with a reason a user can act on.
    Read straight from the descriptor: a buffered file object cost three times the reading of a
    small report (26 us against 6 us for an 11-byte hls.app)."""
    descriptor, size = _open_regular_descriptor(path)
    try:
        if size > MAX_REPORT_BYTES:
            raise ArtifactError(f"file too large ({size} bytes > {MAX_REPORT_BYTES} bytes), refused unread")
        data = _read_to_end(descriptor, size)
    except OSError as exc:
        raise ArtifactError(describe_os_error(exc)) from None
    finally:
        os.close(descriptor)
    if len(data) > MAX_REPORT_BYTES:
        raise ArtifactError(f"file grew past {MAX_REPORT_BYTES} bytes while being read, refused")
    check_not_placeholder(data)
    return data


def _read_to_end(descriptor: int, size: int) -> bytes:
    """What the file holds, up to one byte past the limit. Asks for what stat promised plus one
    byte (to see growth): asking for the 64 MiB limit would allocate that much for every small
    report; then reads on until the end (a short read is no end)."""
    chunks: list[bytes] = []
    total = 0
    wanted = size + 1
    while total <= MAX_REPORT_BYTES:
        chunk = os.read(descriptor, min(wanted, MAX_REPORT_BYTES + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        wanted = max(size + 1 - total, 65536)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def describe_os_error(exc: OSError) -> str:
    """A short reason for a failed stat/open/read, in the words a user searches for."""
    if isinstance(exc, FileNotFoundError):
        return "file removed while it was being read"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if isinstance(exc, IsADirectoryError):
        return "is a directory, not a report file"
    if exc.errno == errno.ELOOP:
        return "symbolic link loop"
    return f"cannot read: {exc.strerror or exc}"


_CONFLICT_START = re.compile(rb"^<{7} ", re.MULTILINE)
_CONFLICT_MIDDLE = re.compile(rb"^={7}\r?$", re.MULTILINE)
_CONFLICT_END = re.compile(rb"^>{7} ", re.MULTILINE)


def check_not_placeholder(data: bytes) -> None:
    """Reject the two common stand-ins for a real report: LFS pointers and empty files."""
    if data.startswith(LFS_POINTER_PREFIX):
        raise ArtifactError("Git LFS pointer, not the report (run 'git lfs pull')")
    if not data.strip():
        raise EmptyFile("empty file")


def decode_text(data: bytes, echoes: bytes | None = None) -> str:
    """Text of a log or report. Binary junk is refused: control bytes other than NUL, tab and
    line ends make a twentieth of its start, or NULs a third. NULs in a log are a testbench's raw
    output (nrakhlin/ece6775Final: 63 in 21 KB; sampathchanda/18643-Project: `\\0,` 619 times in
    4 KB, 14 %), or the padding of a file Windows grew before the session ended (terenceza's
    vitis_hls.log: 190 at its end, not counted). `echoes`: what the tool writes before a program
    whose output its log holds, any bytes (a C simulation's `CSIM start`): found in the start, no
    share of control bytes makes the file binary (kop123meter/ese532_final's LZW test bench
    printed its compressed stream: 371 control bytes and 30 NULs of 4,599, and the csim log's
    failure was lost). A byte-order mark says the encoding: UTF-16 is what Windows PowerShell 5
    writes for `>` (a log redirected there is half NULs)."""
    if data[:2] in _UTF16_MARKS:
        whole = data.decode("utf-16", errors="replace")
        start_text = whole[:65536]
        if sum(char < "\x80" for char in start_text) < len(start_text) / 2:  # (a tool's log is mostly ASCII)
            raise ArtifactError("binary data, not a text report (a UTF-16 mark, then mostly no ASCII)")
        data = whole.encode("utf-8", errors="replace")
        check_not_placeholder(data)  # (a mark and nothing else)
    elif data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        check_not_placeholder(data)
    start = data[:65536]
    if b"\x00" in start:
        text = _without_padding(start)
        nuls = text.count(b"\x00")
        others = len(text) - len(text.translate(None, _TEXT_CONTROLS)) - nuls
        binary = others >= len(text) * 0.05 or nuls >= len(text) / 3
        if not text or (binary and (echoes is None or echoes not in start)):
            raise ArtifactError(f"binary data, not a text report ({_binary(start, text, nuls, others)})")
    check_no_merge_conflict(data)
    return data.decode("utf-8", errors="replace")


def _without_padding(start: bytes) -> bytes:
    """A file's start without the NULs it ends with: a file Windows grew before its session
    ended (terenceza's vitis_hls.log: 190), with the console's `^C` echoes between them where
    the session was interrupted (danila-kuryakin/fpga_labs's lab3_z3/vitis_hls.log: 6,519 bytes
    of a whole session, then 106,191 NULs in runs parted by `^C`)."""
    text = start.rstrip(b"\x00")
    while text.endswith(b"^C"):
        text = text[:-2].rstrip(b"\x00")
    return text


def check_no_merge_conflict(data: bytes) -> None:
    """Refuse a file holding a merge conflict git left in it: two histories of one log side by
    side (Karniela/RSA_Implementation_on_PYNQ's vitis_hls.log: two sessions of two projects, the
    other side's 31.01 s was a run's time). No tool writes `<<<<<<< ` at a line's start."""
    if b"<<<<<<< " not in data:  # (the common case: one search)
        return
    ours = _CONFLICT_START.search(data)
    if ours is not None and _CONFLICT_MIDDLE.search(data, ours.end()) and _CONFLICT_END.search(data, ours.end()):
        line = data.count(b"\n", 0, ours.start()) + 1
        raise ArtifactError(f"a merge conflict left in the file ('<<<<<<<' at line {line}), not read")


def _binary(start: bytes, text: bytes, nuls: int, others: int) -> str:
    """What made a file's start binary, for its problem line."""
    if not text:
        return "NUL bytes only"
    if nuls >= len(text) / 3:
        return f"{nuls:,} of its first {len(start):,} bytes are NUL"
    return f"{others:,} of its first {len(start):,} bytes are control characters"


_UTF16_MARKS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_TEXT_CONTROLS = bytes(n for n in range(32) if n not in (9, 10, 13))  # (removed to count the rest)


def load_json(text: str | bytes, what: str = "") -> Any:
    """A report's JSON; a syntax error is the report's problem, with its line and column."""
    try:
        return json.loads(decode_text(text) if isinstance(text, bytes) else text)
    except json.JSONDecodeError as exc:
        where = f"{what}: " if what else ""
        raise ArtifactError(f"{where}JSON syntax error at line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def parse_stream(path: str, parse):
    """Run a streaming parser over a file of any size (it reads line by line, constant memory)."""
    try:
        with open_regular(path) as handle:
            check_not_placeholder(handle.read(256))
            handle.seek(0)
            return parse(handle)
    except OSError as exc:
        raise ArtifactError(describe_os_error(exc)) from None


CLOCK_REALTIME_COARSE = 5  # (Linux; not named in Python's time module)


def change_clock_ns() -> int:
    """Now, by the clock the kernel stamps change times from (or a finer one): a change made
    from now on has a change time at or after it. (File systems that keep whole seconds, FAT
    or ext3, stamp earlier: a change there, in the instant between a scan's look and its watch,
    waits for the periodic rescan.)"""
    try:
        return time.clock_gettime_ns(CLOCK_REALTIME_COARSE)
    except OSError:
        return time.time_ns() - 10_000_000  # (a tick at most behind)
