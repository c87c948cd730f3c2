"""Reading report files defensively: size limit, LFS pointers, binary junk, I/O errors."""

from __future__ import annotations

import errno
import os

from .problems import ArtifactError

MAX_REPORT_BYTES = 64 * 1024 * 1024  # the largest real csynth.xml seen is 2 MB
LFS_POINTER_PREFIX = b"version https://git-lfs.github.com/spec/"


def read_report(path: str, size: int | None = None) -> bytes:
    """Return the bytes of a report, or raise ArtifactError with a reason a user can act on."""
    try:
        if size is None:
            size = os.stat(path).st_size
        if size > MAX_REPORT_BYTES:
            raise ArtifactError(f"file too large ({size} bytes > {MAX_REPORT_BYTES} bytes), refused unread")
        with open(path, "rb") as handle:
            # Ask for what stat promised (plus one byte to see growth): asking for the
            # 64 MiB limit would allocate that much for every small report.
            data = handle.read(size + 1)
            if len(data) > size:
                data += handle.read(MAX_REPORT_BYTES + 1 - len(data))
    except OSError as exc:
        raise ArtifactError(describe_os_error(exc)) from None
    if len(data) > MAX_REPORT_BYTES:
        raise ArtifactError(f"file grew past {MAX_REPORT_BYTES} bytes while being read, refused")
    check_not_placeholder(data)
    return data


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


def check_not_placeholder(data: bytes) -> None:
    """Reject the two common stand-ins for a real report: LFS pointers and empty files."""
    if data.startswith(LFS_POINTER_PREFIX):
        raise ArtifactError("Git LFS pointer, not the report (run 'git lfs pull')")
    if not data.strip():
        raise ArtifactError("empty file")


def decode_text(data: bytes) -> str:
    """Text of a log or report; NUL bytes mean binary junk, not a report."""
    if b"\x00" in data[:65536]:
        raise ArtifactError("binary data, not a text report")
    return data.decode("utf-8", errors="replace")


def parse_stream(path: str, parse):
    """Run a streaming parser over a file of any size (it reads line by line, constant memory)."""
    try:
        with open(path, "rb") as handle:
            check_not_placeholder(handle.read(256))
            handle.seek(0)
            return parse(handle)
    except OSError as exc:
        raise ArtifactError(describe_os_error(exc)) from None
