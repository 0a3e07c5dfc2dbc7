"""Start the distillation worker fully detached. Standard library only: the Stop hook calls it.

The worker runs `memory.distill_worker` in its own session (`setsid`), stdin from /dev/null,
stdout and stderr appended to `<home>/logs/distill.out`, with the hook's environment and the
memory home pinned. The interpreter runs isolated (`-I`: the agent's working directory and
PYTHON* variables cannot shadow our packages) with this package's root put on `sys.path`.
"""

from __future__ import annotations

import os
import sys

from memory.config import Settings

OUT_FILE = "distill.out"
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOTSTRAP = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); "
    "from memory.distill_worker import main; raise SystemExit(main(sys.argv[1:]))"
)


def worker_argv(python: str, transcript_path: str, session_id: str, agent: str | None) -> list[str]:
    """The worker's command line."""
    argv = [python, "-I", "-c", BOOTSTRAP, PACKAGE_ROOT]
    argv += ["--transcript", transcript_path, "--session-id", session_id]
    if agent:
        argv += ["--agent", agent]
    return argv


def spawn_worker(
    settings: Settings,
    transcript_path: str,
    session_id: str,
    agent: str | None,
    *,
    python: str | None = None,
) -> int | None:
    """Start the worker and return its pid at once; None when it could not be started.

    The caller (a short-lived hook) need not wait: when it exits, the worker is adopted by
    init. A long-lived caller should reap the pid (`os.waitpid(pid, os.WNOHANG)`).
    """
    exe = python or sys.executable
    env = dict(settings.environ)
    env["AI_MEMORY_HOME"] = settings.home
    try:
        os.makedirs(settings.log_dir, exist_ok=True)
        out = os.open(
            os.path.join(settings.log_dir, OUT_FILE), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600
        )
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
            argv = worker_argv(exe, transcript_path, session_id, agent)
            return os.posix_spawn(exe, argv, env, file_actions=actions, setsid=True)
        finally:
            os.close(devnull)
    except OSError:
        return None
    finally:
        os.close(out)
