"""The JSONL output: one line per record key, sorted, replaced atomically; held per project so
that a change re-serialises and re-sorts only what it touched."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import time
from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from collectors.files import not_regular
from collectors.problems import Cancelled, Problem
from collectors.records.model import RecordKey, dumps, key_of, sort_order

CHUNK_LINES = 2000  # lines rendered and written at a time
TEMPORARY_PREFIX = ".vitis-tui-"  # every file the tool creates beside an output starts so
STALE_SECONDS = 600.0  # a temporary this old belongs to no write still under way


@dataclass
class Delta:
    """What one project's new records changed in a file: lines added, changed, removed."""

    added: dict[RecordKey, str] = field(default_factory=dict)
    changed: dict[RecordKey, str] = field(default_factory=dict)
    removed: set[RecordKey] = field(default_factory=set)
    owners: dict[RecordKey, str] = field(default_factory=dict)  # the project whose line is written

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


# a project's records, their lines and keys (RecordSet.apply's arguments)
ProjectLines = tuple[str, Iterable[dict[str, Any]], Sequence[str], Sequence[RecordKey]]


class RecordSet:
    """The records of one output file, held per project as serialised lines.

    Each line is serialised once, when its project is applied. Two projects that make the same
    key both keep their claim; the line of the first project in path order is the one written
    (as a whole-tree sort would choose), the others are reported by `clashes`.
    """

    def __init__(self) -> None:
        self._by_project: dict[str, dict[RecordKey, str]] = {}
        self._claims: dict[RecordKey, dict[str, str]] = {}  # key -> project -> line
        self._visible: dict[RecordKey, str] = {}  # key -> the line written
        # the visible keys in file order, sorted when first asked for (`collect` asks once, at
        # the end: one sort, not an insort per record) and then kept in order
        self._ordered: list[RecordKey] | None = None
        self._repeated: dict[str, int] = {}  # project -> records it made twice under one key
        self.revision = 0  # counts the changes to what the file holds (JsonlFile writes on one)

    def __len__(self) -> int:
        return len(self._visible)

    def apply(
        self,
        project: str,
        records: Iterable[dict[str, Any]],
        lines: Sequence[str] = (),
        keys: Sequence[RecordKey] = (),
    ) -> Delta:
        """Replace a project's records; returns what changed in the file. `lines`: the records
        serialised already, in their order (the schema check did: validate.keep_valid); `keys`:
        their keys, where the records themselves are not given (results.without_records)."""
        new = self._own(project, records, lines, keys)
        if not new and project not in self._by_project:
            return Delta()  # (nothing before, nothing now: most projects' extension records)
        old = self._by_project.pop(project, {})
        if new:
            self._by_project[project] = new
        before = {key: self._visible.get(key) for key in set(old) | set(new)}
        self._claim(project, old, new)
        return self._settle(before)

    def fill(self, projects: Iterable[ProjectLines]) -> None:
        """`apply` for every project of a fresh set at once, given in path order (`collect`'s one
        write): the first claim on a key is the one written, and no change is worked out."""
        assert not self._by_project, "fill() starts an empty set"
        for project, records, lines, keys in projects:
            if not keys and not records:
                continue  # (most projects' extension records: none)
            new = self._own(project, records, lines, keys)
            if not new:
                continue
            self._by_project[project] = new
            for key, line in new.items():
                claims = self._claims.get(key)
                if claims is None:
                    self._claims[key] = {project: line}
                    self._visible[key] = line
                else:
                    claims[project] = line
        if self._visible:
            self.revision += 1

    def _own(
        self, project: str, records: Iterable[dict[str, Any]], lines: Sequence[str], keys: Sequence[RecordKey]
    ) -> dict[RecordKey, str]:
        """A project's lines by key (the first of two under one key; the repeats counted)."""
        if keys:
            pairs: Iterable[tuple[RecordKey, str]] = zip(keys, lines, strict=True)
            made = len(keys)
        else:
            records = list(records)
            given = len(lines) == len(records)
            pairs = [(key_of(record), lines[n] if given else dumps(record)) for n, record in enumerate(records)]
            made = len(records)
        if made == 1:  # (most projects: one record)
            new = dict(pairs)
        else:
            new = {}
            for key, line in pairs:
                new.setdefault(key, line)  # the first is written, the others reported
        self._repeated.pop(project, None)
        if made > len(new):
            self._repeated[project] = made - len(new)
        return new

    def _claim(self, project: str, old: dict[RecordKey, str], new: dict[RecordKey, str]) -> None:
        """The project's claims on keys: those it no longer makes dropped, its lines for the others."""
        for key in old:
            if key not in new:
                claims = self._claims[key]
                del claims[project]
                if not claims:
                    del self._claims[key]
        for key, line in new.items():
            self._claims.setdefault(key, {})[project] = line

    def remove(self, project: str) -> Delta:
        return self.apply(project, ())

    def _settle(self, before: dict[RecordKey, str | None]) -> Delta:
        delta = Delta()
        for key, was in before.items():
            claims = self._claims.get(key)
            owner = min(claims) if claims else None
            now = claims[owner] if claims and owner is not None else None
            if now == was:
                continue
            if owner is not None:
                delta.owners[key] = owner  # (after a clash, not always the project applied)
            if now is None:
                del self._visible[key]
                if self._ordered is not None:
                    del self._ordered[bisect_left(self._ordered, key.order, key=sort_order)]
                delta.removed.add(key)
            elif was is None:
                self._visible[key] = now
                if self._ordered is not None:
                    insort(self._ordered, key, key=sort_order)
                delta.added[key] = now
            else:
                self._visible[key] = now
                delta.changed[key] = now
        if delta:
            self.revision += 1
        return delta

    def keys(self) -> list[RecordKey]:
        """The keys written, in file order."""
        return list(self._in_order())

    def _in_order(self) -> list[RecordKey]:
        if self._ordered is None:
            self._ordered = sorted(self._visible, key=sort_order)
        return self._ordered

    def clashes(self) -> list[Problem]:
        """Each project whose record lost its key to another project's (or to its own)."""
        found = [Problem(p, f"{n} records repeat another record's key; not written") for p, n in self._repeated.items()]
        return found + [Problem(project, lost_line(owner)) for project, _key, owner in self.lost()]

    def lost(self) -> list[tuple[str, RecordKey, str]]:
        """(project, key, the project whose line was written) of each record not written because
        another project made its key."""
        found = []
        for key, claims in self._claims.items():
            if len(claims) > 1:
                owner = min(claims)
                found += [(project, key, owner) for project in sorted(claims) if project != owner]
        return found

    def render(self) -> bytes:
        return b"".join(self.chunks())

    def chunks(self, lines: int = CHUNK_LINES) -> Iterator[bytes]:
        """The file's bytes, `lines` lines at a time: written as they come, the whole file is
        never held (20,000 light records: 23 MB, held twice while joined and encoded)."""
        visible, keys = self._visible, self._in_order()
        for start in range(0, len(keys), lines):
            yield "".join([visible[key] + "\n" for key in keys[start : start + lines]]).encode("utf-8")


def lost_line(owner: str) -> str:
    return f"same record key as {owner}; this project's record not written"


class JsonlFile:
    """One output file of one record set: written atomically, and only when the set changed."""

    def __init__(self, path: str, write_when_empty: bool = True) -> None:
        self.path = path
        self.write_when_empty = write_when_empty  # the extension file appears only once needed
        self.written: int | None = None  # the set's revision last written (None: write it whole again)

    def write(self, records: RecordSet) -> bool:
        """Write `records` if they changed since last written; True when written. (The set
        counts its changes: neither the bytes nor a digest of them need be made to find out.)"""
        if records.revision == self.written:
            return False
        if not len(records) and not self.write_when_empty and not os.path.exists(self.path):
            return False  # an old file with stale records is emptied, a missing one left missing
        write_atomic(self.path, records.chunks())
        self.written = records.revision
        return True


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


def written_path(path: str) -> str:
    """The file an output names: itself, or the file a symbolic link leads to (the link is kept:
    a `latest.jsonl` linked to a dated file updates the dated file)."""
    return os.path.realpath(path) if os.path.islink(path) else path


def write_atomic(path: str, data: bytes | Iterable[bytes], stopped: Callable[[], bool] = lambda: False) -> None:
    """Write `data` (bytes, or its pieces in order) to a temporary file beside `path`, fsync,
    then rename: readers never see half a file. A symbolic link is written through: its target
    is replaced atomically, the link stays. `stopped`, asked between two pieces and once more
    just before the rename: Cancelled is raised, the temporary file removed, `path` as it was."""
    if not path:
        raise OSError(errno.ENOENT, "no file name given", path)
    path = written_path(path)
    refuse_special(path)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)  # a private (0600) output stays private
    except OSError:
        mode = 0o644
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "wb") as out:
            for piece in [data] if isinstance(data, bytes) else data:
                if stopped():
                    raise Cancelled
                out.write(piece)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        if stopped():  # (the fsync of a large file takes a while: a close meanwhile still counts)
            raise Cancelled
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
    try:
        refuse_special(path)  # through a link (`-o /dev/stdout` on a pipe is a FIFO)
    except OSError as exc:
        if exc.errno == errno.EEXIST:  # (what else stat says is said below, more plainly)
            return exc.strerror
    path = written_path(path)
    directory = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(directory):
        return f"directory {directory} " + ("is not a directory" if os.path.lexists(directory) else "does not exist")
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
    directory = os.path.dirname(os.path.abspath(written_path(output)))
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


class Output:
    """What a collection writes: the schema-1.0 file and the extension records' file beside it.
    `collect` fills it once and writes; `watch` applies each re-collected project and writes."""

    def __init__(self, path: str, ext_path: str) -> None:
        self.records = RecordSet()
        self.extensions = RecordSet()
        self.file = JsonlFile(path)
        self.ext_file = JsonlFile(ext_path, write_when_empty=False)

    def apply(
        self,
        project: str,
        records: Iterable[dict[str, Any]],
        extensions: Iterable[dict[str, Any]],
        lines: Sequence[str] = (),
        extension_lines: Sequence[str] = (),
        keys: Sequence[RecordKey] = (),
    ) -> tuple[Delta, Delta]:
        """A project's records and extension records (`lines`, `keys`: RecordSet.apply)."""
        records_delta = self.records.apply(project, records, lines, keys)
        return records_delta, self.extensions.apply(project, extensions, extension_lines)

    def remove(self, project: str) -> tuple[Delta, Delta]:
        return self.apply(project, (), ())

    def write(self) -> bool:
        """Write both files where their bytes changed (OSError when one cannot be written)."""
        wrote = self.file.write(self.records)
        return self.ext_file.write(self.extensions) or wrote

    def clashes(self) -> list[Problem]:
        return self.records.clashes() + self.extensions.clashes()

    def lost(self) -> list[tuple[str, RecordKey, str]]:
        return self.records.lost() + self.extensions.lost()
