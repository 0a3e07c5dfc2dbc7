"""Appending to logs and journals: one `O_APPEND` write per entry, no lock, never raises.

Each entry goes to the file in a single `write` on a descriptor opened with `O_APPEND`, so
the hooks, the service and the distill worker can append to the same file at once and
every entry stays whole. A file given a size limit is first renamed to `<file>.1` once it
has grown past it (the previous `.1` is replaced). Appending is best effort: a home that
cannot be written (read-only, full) only loses the entry, and the caller is told (False).

The tool's log file (`Settings.log_file`) has one format, written by `log_entry` only:
`<local time, %Y-%m-%dT%H:%M:%S> <message>`, the message possibly spanning lines (a
traceback). Standard library only (`os`, `time`): every hook imports it.
"""

from __future__ import annotations

import os
import time

LOG_LIMIT = 1024 * 1024  # the tool's log file is rotated past this many bytes
ROTATED_SUFFIX = ".1"


def append_line(
    path: str,
    line: str,
    *,
    rotate_past: int | None = None,
    folder_mode: int = 0o777,
    errors: str = "surrogateescape",
) -> bool:
    """Append `line` (a newline added when it has none) in one write; False when not written.

    `rotate_past`: rename a file larger than this many bytes to `<path>.1` first.
    `folder_mode`: the mode of folders created for the file (before the umask).
    `errors`: how lone surrogates in `line` are encoded ("surrogateescape" gives back
    bytes read with it, "surrogatepass" keeps any surrogate, "backslashreplace" escapes).
    """
    text = line if line.endswith("\n") else line + "\n"
    try:
        data = text.encode("utf-8", errors)
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, mode=folder_mode, exist_ok=True)
        if rotate_past is not None:
            _rotate_past(path, rotate_past)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except (OSError, ValueError):  # unwritable, a NUL in the path, an unencodable character
        return False
    try:
        os.write(fd, data)
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


def log_entry(path: str, message: str) -> bool:
    """Append one time-stamped entry to the tool's log file, rotating it past LOG_LIMIT.

    A character UTF-8 cannot encode (a lone surrogate) is written as its escape, so an
    entry is never lost to it and the log stays valid UTF-8.
    """
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    line = f"{stamp} {message}"
    return append_line(path, line, rotate_past=LOG_LIMIT, errors="backslashreplace")


def _rotate_past(path: str, limit: int) -> None:
    """Rename `path` to `<path>.1` when it is larger than `limit` bytes."""
    try:
        if os.stat(path).st_size > limit:
            os.replace(path, path + ROTATED_SUFFIX)
    except FileNotFoundError:
        pass  # not there yet, or another process rotated it a moment ago
