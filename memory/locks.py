"""Advisory file locks (`fcntl.flock`): the few primitives every lock of the tool is made of.

- `hold_lock(lock_file, timeout)`: an exclusive lock for a `with` block, waiting up to
  `timeout` s (LockTimeout after); memory files, the index writer, the distill run.
- `try_exclusive(fd, wait)`: an exclusive lock on an open descriptor, held until it is
  closed; False when another process kept it for `wait` s (the service's home lock).
- `held_elsewhere(fd)`: whether another process holds an exclusive lock, found by taking a
  shared one for an instant (a service probe).

Standard library only, and no `contextlib` (`collections`): hooks may import it.
"""

from __future__ import annotations

import fcntl
import os
import time

from fireworks_skill_memory.memory.errors import LockTimeout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType

FIRST_DELAY = 0.001  # seconds between the first attempts; doubles up to MAX_DELAY
MAX_DELAY = 0.05


def try_exclusive(fd: int, wait: float = 0.0) -> bool:
    """Lock the open `fd` exclusively, retrying for up to `wait` s; False when it stayed taken.

    The lock lasts until `fd` is closed. Raises OSError for anything but a busy lock.
    """
    deadline = time.monotonic() + wait
    delay = FIRST_DELAY
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(delay)
            delay = min(delay * 2, MAX_DELAY)


def held_elsewhere(fd: int) -> bool:
    """True when another process holds an exclusive lock on `fd`'s file (never waits).

    Takes a shared lock and drops it at once, so a process taking the exclusive lock at
    that moment must retry (`try_exclusive` with a wait). Raises OSError when flock fails.
    """
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    fcntl.flock(fd, fcntl.LOCK_UN)
    return False


def hold_lock(lock_file: str, timeout: float, what: str | None = None) -> ExclusiveLock:
    """An exclusive lock on `lock_file` (created, with its folder) for a `with` block.

    Waits up to `timeout` s, then raises LockTimeout naming `what` (default: the file).
    """
    return ExclusiveLock(lock_file, timeout, what)


class ExclusiveLock:
    """The lock `hold_lock` gives: taken on entering the block, released on leaving it."""

    def __init__(self, lock_file: str, timeout: float, what: str | None = None) -> None:
        self.lock_file = lock_file
        self.timeout = timeout
        self.what = what
        self._fd: int | None = None

    def __enter__(self) -> None:
        folder = os.path.dirname(self.lock_file)
        if folder:
            os.makedirs(folder, exist_ok=True)
        fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            taken = try_exclusive(fd, self.timeout)
        except BaseException:
            os.close(fd)
            raise
        if not taken:
            os.close(fd)
            raise LockTimeout(
                f"{self.what or self.lock_file} is busy: another process held its lock for "
                f"{self.timeout:g} s, so nothing was written to it; run the same command again"
            )
        self._fd = fd

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
