"""Starting a background process of ours, fully detached; the one rule for starting the service
automatically. Standard library only, and light (hooks use it on every call).

`python -I -m <module>`: isolated, so the agent's working directory (which may well hold
packages named `memory` or `hooks`) and PYTHON* variables cannot shadow ours; its own session
(`setsid`), stdin from /dev/null, stdout and stderr appended to a log file.
"""

from __future__ import annotations

import os
import sys
import time

SPAWN_COOLDOWN = 15.0  # seconds between two automatic starts of one home's service

SERVICE_MODULE = "fireworks_skill_memory.cli.service_main"  # the service's entry point


def spawn_module(
    module: str,
    args: list[str],
    env: dict[str, str],
    log_path: str,
    python: str | None = None,
) -> int | None:
    """Start `python -I -m module args...`; its pid, or None when it could not be started.

    The caller need not wait: a short-lived caller's child is adopted by init; a long-lived
    caller should reap the pid (`os.waitpid(pid, os.WNOHANG)`).
    """
    exe = python or sys.executable
    try:
        os.makedirs(os.path.dirname(log_path), exist_ok=True)
        out = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    except OSError:
        return None
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        try:
            actions = [
                (os.POSIX_SPAWN_DUP2, devnull, 0),
                (os.POSIX_SPAWN_DUP2, out, 1),
                (os.POSIX_SPAWN_DUP2, out, 2),
            ]
            argv = [exe, "-I", "-m", module, *args]
            return os.posix_spawn(exe, argv, env, file_actions=actions, setsid=True)
        finally:
            os.close(devnull)
    except OSError:
        return None
    finally:
        os.close(out)


def start_once(home: str, why: str) -> bool:
    """The one rule for starting the service automatically (hooks, the CLI, the MCP server).

    At most one start per home every SPAWN_COOLDOWN seconds, whoever asks: the spawn stamp
    `run/spawn.stamp` (holding `why`: "hook:<event>", "cli:<command>", "mcp") is written
    first, and a younger stamp means a start is under way. Nothing is started when the stamp
    cannot be written: the service could not create its socket in that folder either. The
    service is told `why` and reports it as `started_by`. True when a start was requested.
    """
    from fireworks_skill_memory.memory.service.protocol import STAMP_NAME, run_dir

    stamp = os.path.join(run_dir(home), STAMP_NAME)
    try:
        if time.time() - os.path.getmtime(stamp) < SPAWN_COOLDOWN:
            return False
    except OSError:
        pass  # never started from here before
    try:
        os.makedirs(run_dir(home), mode=0o700, exist_ok=True)
        with open(stamp, "w", encoding="utf-8") as handle:
            handle.write(why[:200])
    except OSError:
        return False
    from fireworks_skill_memory.memory.service import client

    try:
        return client.start_detached(home, module=SERVICE_MODULE, started_by=why) is not None
    except OSError:
        return False
