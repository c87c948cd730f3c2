"""The JSONL output: one line per record key, sorted, replaced atomically."""

from __future__ import annotations

import errno
import os
import tempfile
import time
from collections.abc import Iterable
from typing import Any

from ..files import not_regular
from .model import dumps, record_key

TEMPORARY_PREFIX = ".vitis-tui-"  # every file the tool creates beside an output starts so
STALE_SECONDS = 600.0  # a temporary this old belongs to no write still under way


def render(records: Iterable[dict[str, Any]], key=record_key) -> bytes:
    ordered = sorted(records, key=key)
    return "".join(dumps(record) + "\n" for record in ordered).encode("utf-8")


def extension_path(output: str) -> str:
    """`results.ext.jsonl` beside `results.jsonl`: the extension records' default file."""
    stem, ending = os.path.splitext(output)
    return f"{stem}.ext{ending or '.jsonl'}"


def refuse_special(path: str) -> None:
    """Raise OSError when `path` exists and is not a regular file: a FIFO, a device or a directory
    is never replaced by the output (renaming onto /dev/null as root would replace it)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    reason = not_regular(mode)
    if reason is not None:
        raise OSError(errno.EEXIST, reason.replace("not read", "refused, nothing replaced"), path)


def write_atomic(path: str, data: bytes) -> None:
    """Write to a temporary file beside `path`, fsync, then rename: readers never see half a file."""
    if not path:
        raise OSError(errno.ENOENT, "no file name given", path)
    refuse_special(path)
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def check_writable(path: str) -> str | None:
    """Why `path` cannot be written, or None. Checked before a long scan, not after."""
    if not path or path.endswith(os.sep):
        return "no file name given"
    directory = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(directory):
        return f"directory {directory} does not exist"
    try:
        refuse_special(path)
    except OSError as exc:
        return exc.strerror
    try:
        handle, probe = tempfile.mkstemp(prefix=TEMPORARY_PREFIX + "probe-", suffix=".tmp", dir=directory)
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        return f"cannot write in {directory}: {exc.strerror or exc}"
    return None


def remove_stale_temporaries(output: str, older_than: float = STALE_SECONDS) -> list[str]:
    """Remove what a killed run left beside `output`: the tool's own temporaries (`.vitis-tui-*.tmp`),
    regular files owned by this user, untouched for `older_than` seconds. Returns their paths."""
    directory = os.path.dirname(os.path.abspath(output))
    cutoff = time.time() - older_than
    removed: list[str] = []
    try:
        with os.scandir(directory) as entries:
            candidates = [e for e in entries if e.name.startswith(TEMPORARY_PREFIX) and e.name.endswith(".tmp")]
    except OSError:
        return removed
    for entry in candidates:
        try:
            info = entry.stat(follow_symlinks=False)
            if not_regular(info.st_mode) is None and info.st_uid == os.geteuid() and info.st_mtime < cutoff:
                os.unlink(entry.path)
                removed.append(entry.path)
        except OSError:
            continue  # gone meanwhile, or not ours to remove
    return removed
