"""Wire format between hooks/CLI and the service: one JSON object per line, each way.

Hooks use a second, json-free frame so they need not import json:
`HOOK <version> <event> <payload bytes> <budget ms>\n<payload>` answered by
`OK <n>\n<n bytes of hook stdout>` or `ERR <reason>\n`.
Every JSON request carries `v`, the client's version; a server of another version answers
`{"ok": false, "error": "version"}` so a hook never trusts a stale server after an upgrade.
Standard library only.
"""

from __future__ import annotations

import os

from fireworks_skill_memory.memory import __version__

PROTOCOL = 1
VERSION = f"{__version__}/{PROTOCOL}"
SOCKET_NAME = "service.sock"
LOCK_NAME = "service.lock"
PID_NAME = "service.pid"
STAMP_NAME = "spawn.stamp"  # written at each automatic start: the once-per-cooldown rule
# who asked for this service ("hook:<event>", "cli:<command>", "mcp"), handed to the process
# it starts and reported by its ping as `started_by`
STARTED_BY_ENV = "SKILL_MEMORY_STARTED_BY"
MAX_MESSAGE = 4 * 1024 * 1024


def run_dir(home: str) -> str:
    """The service's folder (0700) under the memory home."""
    return os.path.join(home, "run")


def socket_path(home: str) -> str:
    """The Unix socket of the service of this memory home."""
    return os.path.join(run_dir(home), SOCKET_NAME)


SUN_PATH_MAX = 100  # sockaddr_un holds 108 bytes on Linux, 104 on macOS


class short_path:
    """A path for bind/connect that fits sockaddr_un; long paths go through /proc/self/fd."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None

    def __enter__(self) -> str:
        if len(self.path.encode()) <= SUN_PATH_MAX or not os.path.isdir("/proc/self/fd"):
            return self.path
        self._fd = os.open(os.path.dirname(self.path), os.O_RDONLY)
        return f"/proc/self/fd/{self._fd}/{os.path.basename(self.path)}"

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def encode(message: dict[str, object]) -> bytes:
    """One message as a JSON line."""
    import json

    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def decode(line: bytes) -> dict[str, object]:
    """One JSON line as a message (ValueError when it is not a JSON object)."""
    import json

    value = json.loads(line)
    if not isinstance(value, dict):
        raise ValueError("message is not a JSON object")
    return value
