"""The JSONL output: one line per record key, sorted, replaced atomically."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from typing import Any

from .model import dumps, record_key


def render(records: Iterable[dict[str, Any]], key=record_key) -> bytes:
    ordered = sorted(records, key=key)
    return "".join(dumps(record) + "\n" for record in ordered).encode("utf-8")


def extension_path(output: str) -> str:
    """`results.ext.jsonl` beside `results.jsonl`: the extension records' default file."""
    stem, ending = os.path.splitext(output)
    return f"{stem}.ext{ending or '.jsonl'}"


def write_atomic(path: str, data: bytes) -> None:
    """Write to a temporary file beside `path`, fsync, then rename: readers never see half a file."""
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".vitis-tui-", suffix=".tmp", dir=directory)
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
    directory = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(directory):
        return f"directory {directory} does not exist"
    if os.path.isdir(path):
        return f"{path} is a directory"
    try:
        handle, probe = tempfile.mkstemp(prefix=".vitis-tui-probe-", dir=directory)
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        return f"cannot write in {directory}: {exc.strerror or exc}"
    return None
