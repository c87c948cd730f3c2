"""Watch placement: the directories a scan listed, watched by the scan's own worker processes.

A live session's workers are started with its inotify descriptor (`start_workers`); once a
scan's output is out, they watch what it listed (`watch_scanned`) and tell what changed between
the scan's look and the watch (inotify.watch_listed). Why: collectors/live/inotify.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from collectors.collect.engine import Collection, Engine
from collectors.collect.pool import start_pool
from collectors.collect.walk import SHARES_PER_PROCESS
from collectors.live.inotify import (
    Inotify,
    LateWatches,
    Listed,
    SharedDescriptor,
    adopt,
    placed_by,
    watch_listed,
    worker_descriptor,
)

WATCHED_AT_ONCE = 1000  # directories a worker watches in one task (its result stays small: LateWatches)


def start_workers(processes: int, watching: Inotify | None) -> ProcessPoolExecutor | None:
    """A session's worker processes (pool.start_pool), each given the inotify descriptor its
    watches are placed through; None where processes cannot be had."""
    shared = None if watching is None else SharedDescriptor(watching.fd)
    return start_pool(processes, setup=adopt, setup_arg=shared)


def watch_scanned(
    engine: Engine, watching: Inotify, collection: Collection, tell: Callable[[list[tuple[str, bool]]], None]
) -> int:
    """Watch the directories a scan listed (Engine.scan with `listing`) that have no watch yet,
    in the engine's workers, and `tell` what changed between the scan's look and the watch
    (inotify.watch_listed: (path, is directory)) as each task ends; how many directories got
    no watch. A live session calls it once the scan's output is out."""
    files: dict[str, list[str]] = {}  # (a directory the scan read no file of shares one empty list)
    for path in collection.artifacts:
        files.setdefault(os.path.dirname(path), []).append(path)
    no_files: list[str] = []
    # (a rescan finds most already watched)
    listed = [(directory, files.get(directory, no_files)) for directory in watching.uncovered(collection.listed)]
    size = min(WATCHED_AT_ONCE, -(-len(listed) // (engine.processes * SHARES_PER_PROCESS)))
    chunks = [listed[start : start + size] for start in range(0, len(listed), size or 1)]
    unwatched, made = 0, []
    for chunk, late in _watched_in_chunks(engine, watching, chunks, collection.started_ns):
        watching.learn(placed_by(late, chunk))
        tell(late.changed)
        unwatched += late.unwatched
        made += late.made
    for directory in watching.uncovered(made):
        tell(watching.watch_tree(directory))  # (made while the scan looked elsewhere)
    return unwatched


def _watched_in_chunks(
    engine: Engine, watching: Inotify, chunks: list[Listed], since_ns: int
) -> Iterator[tuple[Listed, LateWatches]]:
    """Each chunk watched by the next free worker (here, without a pool), with what came of
    it, in the order they end. A pool whose worker died is given up on (the engine's too)."""
    pool = engine.pool
    left = dict(enumerate(chunks))
    if pool is not None and len(chunks) > 1:
        try:
            theirs = {pool.submit(_watch_listed_in_worker, chunk, since_ns): n for n, chunk in left.items()}
            pending = set(theirs)
            while pending and not watching.closed:  # (a pool stopped meanwhile may never answer)
                done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                for future in done:
                    late = future.result()
                    yield left.pop(theirs[future]), late
        except (BrokenProcessPool, OSError, ValueError):  # a worker died or could not start: here
            engine.pool, engine.processes = None, 1
        except (CancelledError, RuntimeError):  # (BrokenProcessPool is a RuntimeError too)
            return  # the pool was stopped: the session is ending
    for chunk in left.values():
        if watching.closed:
            return  # the session ended: its descriptor's number may be another file's now
        yield chunk, watch_listed(watching.fd, chunk, since_ns)


def _watch_listed_in_worker(listed: Listed, since_ns: int) -> LateWatches:
    """Watch through the descriptor the worker was given (start_workers)."""
    fd = worker_descriptor()
    if fd is None:
        raise ValueError("this worker was given no inotify descriptor")
    return watch_listed(fd, listed, since_ns)
