"""Worker processes: a pool started ahead of the work, and how each worker starts and ends."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import resource_tracker
from typing import Any

from collectors.interpreter import collector_paused, keep_for_good, sweep_young

# what a worker runs first, with its argument (a live session hands its inotify descriptor)
Setup = Callable[[Any], None]


def prepare_spawning() -> None:
    """Start multiprocessing's resource tracker now, while standard error is the real one: an
    interface that captures it (Textual's fileno() is -1) makes every later first spawn fail
    with "bad value(s) in fds_to_keep". Call it before such an interface starts."""
    try:
        resource_tracker.ensure_running()
    except (OSError, ValueError):
        pass  # no processes to be had here: the callers walk or check in this process instead


def start_pool(
    processes: int, nice: int = 0, setup: Setup | None = None, setup_arg: Any = None
) -> ProcessPoolExecutor | None:
    """Worker processes started now, so that they are ready when the work comes. Forked while
    this process runs a single thread (ready at once: nothing to import), spawned beside other
    threads (the interface's), where forking is unsafe (their imports paid now, not in the work).
    `nice`: background work that yields the machine to the interface; `setup(setup_arg)` runs
    first in each worker. None where processes cannot be had."""
    method = "fork" if threading.active_count() == 1 and os.name == "posix" else "spawn"
    try:
        pool = ProcessPoolExecutor(
            max_workers=processes,
            mp_context=multiprocessing.get_context(method),
            initializer=worker_start,
            initargs=(nice, setup, setup_arg),
        )
        for _worker in range(processes):
            pool.submit(os.getpid)  # started now (a forked pool starts every worker at its first task)
    except (OSError, ValueError, ImportError, NotImplementedError):
        return None
    return pool


def forked_pool(processes: int) -> ProcessPoolExecutor:
    """Workers for one scan of `collect` (a single-threaded process: forking is safe)."""
    return ProcessPoolExecutor(max_workers=processes, initializer=worker_start)


MANAGER_WAIT_SECONDS = 0.5


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now. shutdown() alone lets a running task finish, and the interpreter waits
    for it at exit: quitting during a scan (or a long schema check) would hang until it ends."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # (no public way to end one)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()
    # Its manager thread ends once the workers have: let it, briefly. Python 3.11's exit hook
    # writes to the thread's wakeup pipe unless closed, and the thread may close it in between
    # ('Exception ignored in: <module threading> ... Bad file descriptor' after the program).
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(timeout=MANAGER_WAIT_SECONDS)


def worker_start(nice: int = 0, setup: Setup | None = None, setup_arg: Any = None) -> None:
    """In each worker process: Ctrl-C reaches it too, and it ends at once, without a traceback
    (the parent reports); and it ends with its parent. A parent killed outright (kill -9) cannot
    stop its pool, and a worker holds the other end of its own task queue: it would wait forever.
    `nice`: a background worker yields the machine to the interface; `setup(setup_arg)`: what
    the pool's owner gives each worker (a live session: the descriptor its watches go through)."""
    if setup is not None:
        setup(setup_arg)
    signal.signal(signal.SIGINT, lambda _signal, _frame: os._exit(130))
    if nice:
        os.nice(nice)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="vitis-tui-parent-watch", daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns once the parent process is gone
    os._exit(0)


@contextmanager
def collection_paused() -> Iterator[None]:
    """No garbage collection while the workers' results come back: they bring thousands of
    objects (with no reference cycles: refcounting frees them), and each full collection while
    they arrived walked them all again (2.4 s of the main process's 3.1 s on 20,000 projects).
    Then, beside an interface (a scan on a thread of its own), one collection of what was made
    meanwhile (its garbage: 8,800 objects of the dashboard's start), and they are frozen: they
    live as long as the scan's results."""
    with collector_paused():
        yield
        # (alone, as in `collect`, nothing else made garbage: a collection would only walk the
        # results, 0.2-0.4 s on 20,000 projects; the pool's own threads make none). Frozen
        # before the collector is back: enabled first, it ran at the next allocation and
        # walked them all once (0.2 s).
        if threading.current_thread() is not threading.main_thread():
            sweep_young()
        keep_for_good()
