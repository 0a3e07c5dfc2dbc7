"""File primitives: per-file locks and atomic replacement.

Every write of a memory file happens under `locked(path)` and through `write_atomic`,
so a reader sees the old file or the new one, never half of one, and two writers
never interleave. Locks are `fcntl.flock` (`memory.locks`) on a hidden `.<name>.lock`
beside the file.
"""

from __future__ import annotations

import contextlib
import os

from fireworks_skill_memory.memory.locks import ExclusiveLock, hold_lock

LOCK_TIMEOUT_SECONDS = 30.0


def lock_path(path: str) -> str:
    """The lock file guarding `path`."""
    folder, name = os.path.split(path)
    return os.path.join(folder, f".{name}.lock")


def locked(path: str, timeout: float | None = None) -> ExclusiveLock:
    """Hold the exclusive lock of `path` (creating its folder) for the duration of the block.

    Waits up to `timeout` s (default LOCK_TIMEOUT_SECONDS), then raises LockTimeout.
    """
    wait = LOCK_TIMEOUT_SECONDS if timeout is None else timeout
    return hold_lock(lock_path(path), wait, what=path)


def write_atomic(path: str, data: str | bytes, mode: int | None = None) -> None:
    """Replace `path` with `data` atomically (temp file in the same folder, fsync, rename)."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    payload = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    if mode is None:
        try:
            mode = os.stat(path).st_mode & 0o777
        except FileNotFoundError:
            mode = 0o644
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.urandom(6).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(folder)


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a directory; the rename is still atomic
    finally:
        os.close(fd)


def read_text(path: str) -> str | None:
    """The file's text (undecodable bytes kept as surrogates), or None when it is absent."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        return None
    return raw.decode("utf-8", "surrogateescape")
