"""Plain child processes over pipes, for the work browse hands off (the schema check, the
preparing of a large file's pieces): started with this package importable, each ending with
its parent, stopped at once from any thread.

Not a multiprocessing pool: a pool's semaphores live in /dev/shm and stay there when the program
is ended by a signal (a closed terminal's SIGHUP), and its workers finish the task under way
before they stop.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from typing import IO

import collectors


def start_child(module: str, *args: str) -> subprocess.Popen[bytes]:
    """`python -m module args...`, its standard input and output pipes to this process."""
    home = os.path.dirname(os.path.dirname(os.path.abspath(collectors.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [home, os.environ.get("PYTHONPATH")])))
    return subprocess.Popen(
        [sys.executable, "-m", module, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )


def stop_child(child: subprocess.Popen[bytes]) -> None:
    """Kill it, whatever it is doing, and close its pipes."""
    child.kill()
    child.wait()
    for pipe in (child.stdin, child.stdout):
        _close(pipe)


def _close(pipe: IO[bytes] | None) -> None:
    try:
        if pipe is not None:
            pipe.close()
    except OSError:
        pass


def in_child(nice: int) -> None:
    """What a child does first: yield the machine as told, and end when its parent is gone."""
    try:
        os.nice(nice)
    except OSError:
        pass
    threading.Thread(target=_end_with_parent, args=(os.getppid(),), daemon=True).start()


def _end_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)  # the parent is gone (killed outright): no one waits for an answer
