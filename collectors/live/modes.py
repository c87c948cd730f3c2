"""How a tree is watched: inotify, watchdog's observer where inotify is missing, or polling, and why."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

POLL_ENV = "VITIS_TUI_POLL"
DEFAULT_POLL_SECONDS = 5.0
NETWORK_FILESYSTEMS = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb",
        "smb2",
        "smb3",
        "smbfs",
        "fuse.sshfs",
        "sshfs",
        "lustre",
        "gpfs",
        "fuse.gpfs",
        "beegfs",
        "fuse.beegfs",
        "glusterfs",
        "fuse.glusterfs",
        "ceph",
        "fuse.ceph",
        "9p",
        "afs",
        "panfs",
        "fuse.s3fs",
        "fuse.rclone",
        "davfs",
        "fuse.davfs2",
    }
)
RAISE_LIMIT = "raise fs.inotify.max_user_watches"


@dataclass(frozen=True)
class WatchMode:
    kind: str  # "inotify" (Linux), "events" (watchdog's observer, elsewhere) or "polling"
    interval: float | None  # seconds between polls
    reason: str

    def __str__(self) -> str:
        every = f" every {self.interval:g} s" if self.interval else ""
        return f"{self.kind}{every} ({self.reason})"


def _unescape(field: str) -> str:
    return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")


def filesystem_of(path: str, mounts_file: str = "/proc/self/mounts") -> str | None:
    """The filesystem type of the mount holding `path` (longest mount point prefix)."""
    real = os.path.realpath(path)
    best: tuple[int, str] | None = None
    try:
        with open(mounts_file, encoding="utf-8", errors="replace") as mounts:
            for line in mounts:
                fields = line.split()
                if len(fields) < 3:
                    continue
                point, kind = _unescape(fields[1]), fields[2]
                if real == point or real.startswith(point.rstrip("/") + "/"):
                    if best is None or len(point) > best[0]:
                        best = (len(point), kind)
    except OSError:
        return None
    return best[1] if best else None


def inotify_watch_limit() -> int | None:
    try:
        with open("/proc/sys/fs/inotify/max_user_watches", encoding="ascii") as limit:
            return int(limit.read().strip())
    except (OSError, ValueError):
        return None


def choose_mode(
    roots: Iterable[str],
    poll: float | None = None,
    directories: int = 0,
    environ: Mapping[str, str] | None = None,
    mounts_file: str = "/proc/self/mounts",
) -> WatchMode:
    """Pick inotify or polling, and say why; the status bar shows the reason."""
    environ = os.environ if environ is None else environ
    if poll is not None:
        return WatchMode("polling", poll, "--poll given")
    if environ.get(POLL_ENV):
        try:
            seconds = float(environ[POLL_ENV])
        except ValueError:
            seconds = DEFAULT_POLL_SECONDS
        return WatchMode("polling", seconds, f"{POLL_ENV}={environ[POLL_ENV]}")
    for root in roots:
        kind = filesystem_of(root, mounts_file)
        if kind in NETWORK_FILESYSTEMS:
            return WatchMode(
                "polling",
                DEFAULT_POLL_SECONDS,
                f"{root} is on {kind}: inotify does not see changes made on other hosts",
            )
    limit = inotify_watch_limit()
    # watchdog fails silently when the watches run out: count before relying on them.
    if limit is not None and directories > limit * 0.9:
        return WatchMode(
            "polling",
            DEFAULT_POLL_SECONDS,
            f"{directories} directories, inotify allows {limit} watches ({RAISE_LIMIT})",
        )
    from collectors.live import inotify  # (here: the command line reads POLL_ENV at every start)

    if not inotify.available():
        return WatchMode("events", None, "local filesystem")
    return WatchMode("inotify", None, "local filesystem")
