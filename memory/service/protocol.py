"""Wire format between hooks/CLI and the service: one JSON object per line, each way.

Hooks use a second, json-free frame so they need not import json:
`HOOK <version> <event> <payload bytes> <budget ms> <settings bytes>\n<settings><payload>`
answered by `OK <n>\n<n bytes of hook stdout>` or `ERR <reason>\n`.
Every JSON request carries `v`, the client's version; a server of another version answers
`{"ok": false, "error": "version"}` so a hook never trusts a stale server after an upgrade.

The caller's settings travel with a request (`settings_text`: the HOOK frame's settings
block, a JSON request's `settings`), because a service answers hooks started from other
environments than its own. The ones an answer reads per request (`ANSWER_SETTINGS`: top,
token cap, `SKILL_MEMORY_RANKING`) the service takes from the caller (`caller_settings`);
the ones fixed for its life (`HOME_SETTINGS`: the folders and the model) must be its own,
else it refuses (`ERR settings`) and the hook answers in-process. Standard library only.
"""

from __future__ import annotations

import os

from fireworks_skill_memory.memory import __version__
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import ConfigError

PROTOCOL = 2
VERSION = f"{__version__}/{PROTOCOL}"
SOCKET_NAME = "service.sock"
LOCK_NAME = "service.lock"
PID_NAME = "service.pid"
STAMP_NAME = "spawn.stamp"  # written at each automatic start: the once-per-cooldown rule
# who asked for this service ("hook:<event>", "cli:<command>", "mcp"), handed to the process
# it starts and reported by its ping as `started_by`
STARTED_BY_ENV = "SKILL_MEMORY_STARTED_BY"
MAX_MESSAGE = 4 * 1024 * 1024
# setting -> the environment variable a caller's value is applied through
ANSWER_SETTINGS = (
    ("inject_top", "SKILLS_INJECT_TOP"),
    ("inject_tokens", "SKILL_MEMORY_INJECT_TOKENS"),
    ("ranking_overrides", "SKILL_MEMORY_RANKING"),
)
# what the service's store, index and session state are built on; not the legacy folder (found
# through HOME, which an agent may set apart, and read only for a skill without a home file)
HOME_SETTINGS = ("home", "skills_dir", "global_file", "sessions_dir", "embed_model")


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


def settings_text(settings: Settings) -> str:
    """The settings a request carries: one `name=value` line each, answer settings first."""
    lines = [f"{name}={_value(settings, name)}\n" for name, _ in ANSWER_SETTINGS]
    lines += [f"{name}={_value(settings, name)}\n" for name in HOME_SETTINGS]
    return "".join(lines)


def caller_settings(own: Settings, text: str) -> Settings | None:
    """The settings to answer a request with: `own` with the caller's answer settings.

    `text` is the request's `settings_text` ("": the caller sent none, `own` it is). None
    when the caller's home settings differ from `own` (or the text is not settings text):
    then this service cannot answer for that caller.
    """
    if not text or text == settings_text(own):
        return own
    values: dict[str, str] = {}
    for line in text.split("\n")[:-1]:
        name, sep, value = line.partition("=")
        if not sep or name in values:
            return None
        values[name] = value
    wanted = [name for name, _ in ANSWER_SETTINGS] + list(HOME_SETTINGS)
    if sorted(values) != sorted(wanted) or not text.endswith("\n"):
        return None
    if any(values[name] != _value(own, name) for name in HOME_SETTINGS):
        return None
    env = dict(own.environ)
    env.update((variable, values[name]) for name, variable in ANSWER_SETTINGS)
    try:
        return Settings(env)
    except ConfigError:
        return None


def _value(settings: Settings, name: str) -> str:
    value = getattr(settings, name)
    if isinstance(value, dict):  # the ranking overrides, as SKILL_MEMORY_RANKING reads them
        return ",".join(f"{key}={number!r}" for key, number in sorted(value.items()))
    return str(value)
