"""Starting a background process of ours, fully detached. Standard library only (hooks use it).

`python -I -m <module>`: isolated, so the agent's working directory (which may well hold
packages named `memory` or `hooks`) and PYTHON* variables cannot shadow ours; its own session
(`setsid`), stdin from /dev/null, stdout and stderr appended to a log file.
"""

from __future__ import annotations

import os
import sys

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
