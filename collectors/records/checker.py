"""The schema check of browse's records in a child process: the check holds no GIL that the
interface needs, and ends the moment it is told to (killed: a process can be, a thread cannot).
A plain child over pipes (children.py); it ends with its input, or with its parent.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from collectors.problems import Problem
from collectors.records.children import in_child, start_child, stop_child

if TYPE_CHECKING:
    from collectors.records.loader import Stop

Request = dict[str, Any]


class CheckerGone(Exception):
    """The child was stopped (the program is closing) or died: no verdict."""


class Checker:
    """One child process, started when first asked, answering one request at a time."""

    def __init__(self, nice: int = 10) -> None:
        self.nice = nice
        self.closed = False
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def ask(self, request: Request, stop: Callable[[], bool] = lambda: False) -> dict[str, Any]:
        """The child's answer; OSError when no child can be started, CheckerGone when it was
        stopped (or died) before answering, or `stop` says the answer is no longer wanted."""
        with self._lock:
            if self.closed or stop():
                raise CheckerGone
            process = self._process or self._start()
            stdin, stdout = process.stdin, process.stdout
            assert stdin is not None and stdout is not None
            try:
                stdin.write(json.dumps(request).encode() + b"\n")
                stdin.flush()
                answer = stdout.readline()
            except (OSError, ValueError):
                answer = b""
            if not answer:
                self._process = None
                raise CheckerGone
            result: dict[str, Any] = json.loads(answer)
            return result

    def _start(self) -> subprocess.Popen[bytes]:
        self._process = start_child("collectors.records.checker", str(self.nice))
        return self._process

    def close(self) -> None:
        """Stop the child now, whatever it is doing (from any thread), for good."""
        self.closed = True
        self.cancel()

    def cancel(self) -> None:
        """Stop the work under way (its answer is no longer wanted): the next request starts a
        fresh child. A check of a file replaced meanwhile would otherwise hold every later one up."""
        process, self._process = self._process, None  # (kept, the next request would meet a dead child)
        if process is not None:
            stop_child(process)


def problems_of(pairs: list[list[str]]) -> list[Problem]:
    return [Problem(path, reason) for path, reason in pairs]


def answer(request: Request, stop: Stop | None = None) -> dict[str, Any]:
    """The check of a request: whole files by path (`refused` and `unread` files) or rows by value
    (`invalid` and `unread` rows), with their problems; where it runs in a thread, `stop` may end
    it (Cancelled). `unread`: lines a load took that are no record (collectors/records/quick.py)."""
    from collectors.records.loader import check_files, check_lines

    if "paths" in request:
        refused, unread, problems = check_files(request["paths"], stop, request.get("ends"))
        return {"refused": refused, "unread": unread, "problems": [[p.path, p.reason] for p in problems]}
    rows = [(i, source, text) for i, source, text in request["rows"]]
    invalid, unread_rows, problems = check_lines(rows, stop)
    return {"invalid": invalid, "unread": unread_rows, "problems": [[p.path, p.reason] for p in problems]}


def main() -> None:
    in_child(int(sys.argv[1]) if len(sys.argv) > 1 else 0)  # on a busy machine the check waits
    for line in sys.stdin.buffer:
        sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
