"""`serve` and `service start|stop|status`: the warm service of the memory home."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

import click

from fireworks_skill_memory.cli.common import emit_json, json_option, settings
from fireworks_skill_memory.memory.service import client
from fireworks_skill_memory.memory.service.client import ServiceHealth
from fireworks_skill_memory.memory.service.spawn import SERVICE_MODULE

PROBE_TIMEOUT = 2.0  # a service that does not answer a ping within this is "not responding"
START_WAIT = 15.0  # how long `start` waits for the new process to take the home's lock
KILL_WAIT = 5.0  # after SIGKILL, how long `stop` waits for the lock to be released
# `service status` exit codes, one per state (0 and 3 as in earlier versions)
EXIT_CODES = {
    client.READY: 0,
    client.NOT_RUNNING: 3,
    client.LOADING: 4,
    client.FAILED: 5,
    client.NOT_RESPONDING: 6,
}


@click.command()
def serve() -> None:
    """Run the warm service in the foreground (Ctrl-C to stop)."""
    from fireworks_skill_memory.cli.service_main import run

    raise SystemExit(run(settings()))


@click.group("service")
def service_group() -> None:
    """Start, stop or query the warm service (one per memory home)."""


@service_group.command("status")
@json_option
def status(as_json: bool) -> None:
    """Whether the service runs and answers, and whether its model and index are loaded.

    \b
    Exit status:
      0  running, ready
      3  not running
      4  running, loading (the model and the index)
      5  running, failed to load (it retries on its own; `service start` retries now)
      6  not responding: the process holds the home but does not answer (`service stop`)
    """
    cfg = settings()
    health = client.probe(cfg.home, PROBE_TIMEOUT)
    _report(as_json, {**health.as_json(), "home": cfg.home}, health.detail)
    raise SystemExit(EXIT_CODES[health.state])


@service_group.command("start")
@json_option
def start(as_json: bool) -> None:
    """Start the service detached, unless one already runs; says what it found.

    Returns once the new process holds the memory home (the model loads after). A service
    that failed to load is asked to retry now; one of another version is replaced.
    Exit 0 when a service runs (started or found), 1 when the new one exited at once,
    6 when a service holds the home but does not answer (`service stop` ends it).
    """
    cfg = settings()
    health = client.probe(cfg.home, PROBE_TIMEOUT)
    if health.stale:
        _retire(cfg.home, health)
    elif health.state != client.NOT_RUNNING:
        _already_running(as_json, cfg.home, health)
        return
    pid = client.start_detached(
        cfg.home, SERVICE_MODULE, sys.executable, started_by="cli:service start"
    )
    if pid is None:
        raise click.ClickException("could not spawn the service (see the logs folder)")
    _await_start(as_json, cfg.home, pid, cfg.log_dir)


def _already_running(as_json: bool, home: str, health: ServiceHealth) -> None:
    data = {**health.as_json(), "started": False, "home": home}
    if health.state == client.NOT_RESPONDING:
        _report(as_json, data, f"{health.detail}; then run `skill-memory service start`")
        raise SystemExit(EXIT_CODES[health.state])
    text = f"already {health.detail}"
    if health.state == client.FAILED:
        nudged = client.try_call(home, "retry", timeout=PROBE_TIMEOUT) is not None
        data["retrying"] = nudged
        text += "; asked it to retry now" if nudged else ""
    _report(as_json, data, text)


def _retire(home: str, health: ServiceHealth) -> None:
    """Make a service of another version exit (it honours `shutdown`), then wait for it."""
    client.try_call(home, "shutdown", timeout=PROBE_TIMEOUT)
    if not _wait_released(home, 10.0):
        raise click.ClickException(f"{health.detail}; it did not exit: `skill-memory service stop`")


def _await_start(as_json: bool, home: str, pid: int, log_dir: str) -> None:
    """Report `started` only once `pid` holds the home's lock; report its exit if it exits."""
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        held, owner = client.lock_owner(home)
        if held and owner == pid:
            text = f"started (pid {pid}); logs in {log_dir}"
            _report(as_json, {"started": True, "pid": pid}, text)
            return
        status = _exit_status(pid)
        if status is not None:
            _exited(as_json, home, pid, status, log_dir)
            return
        time.sleep(0.05)
    raise click.ClickException(
        f"spawned pid {pid}, but it has not taken {home} within {START_WAIT:.0f} s; "
        f"see {os.path.join(log_dir, 'service.out')}"
    )


def _exited(as_json: bool, home: str, pid: int, status: int, log_dir: str) -> None:
    health = client.probe(home, PROBE_TIMEOUT)
    if health.state != client.NOT_RUNNING:
        _already_running(as_json, home, health)  # another start won the race
        return
    raise click.ClickException(
        f"the service (pid {pid}) exited at once with status {status}; "
        f"see {os.path.join(log_dir, 'service.out')} and service.log"
    )


def _exit_status(pid: int) -> int | None:
    """`pid`'s exit status once it has exited (it is our child), else None."""
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return None if _alive(pid) else 0
    return os.waitstatus_to_exitcode(status) if done else None


@service_group.command("stop")
@click.option("--timeout", default=10.0, show_default=True, help="Seconds to wait for it to exit.")
@json_option
def stop(timeout: float, as_json: bool) -> None:
    """Stop the service, also a hung one, and wait until it has exited.

    A service that answers is asked to exit; one that does not (hung, or stopped with
    SIGSTOP) is sent SIGTERM and SIGCONT. Either gets SIGKILL if it still holds the
    memory home after --timeout.
    """
    cfg = settings()
    health = client.probe(cfg.home, PROBE_TIMEOUT)
    if health.state == client.NOT_RUNNING:
        _report(as_json, {"stopped": False, "running": False}, "not running")
        return
    how = "asked"
    if health.answers:
        client.try_call(cfg.home, "shutdown", timeout=PROBE_TIMEOUT)
    else:
        how = _signal(health.pid, signal.SIGTERM, cont=health.stopped)
    if not _wait_released(cfg.home, timeout):
        how = _signal(health.pid, signal.SIGKILL, cont=False)
        _wait_released(cfg.home, KILL_WAIT)
    gone = not client.lock_owner(cfg.home)[0]
    if gone:
        _remove_leftovers(cfg.home)
    text = f"stopped (pid {health.pid}, {how})" if gone else f"pid {health.pid} did not exit"
    _report(as_json, {"stopped": gone, "pid": health.pid, "how": how}, text)
    if not gone:
        raise SystemExit(1)


def _signal(pid: int | None, sig: signal.Signals, cont: bool) -> str:
    """Send `sig` (then SIGCONT, so a stopped process can act on it); how it went."""
    if pid is None:
        return "pid unknown"
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)
        if cont:
            os.kill(pid, signal.SIGCONT)
    return sig.name


def _wait_released(home: str, timeout: float) -> bool:
    """Wait until no process holds the home's service lock; True when released."""
    deadline = time.monotonic() + timeout
    while client.lock_owner(home)[0]:
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def _remove_leftovers(home: str) -> None:
    """Remove the socket and pid file a dead service left, holding its lock meanwhile
    (so a service started at this moment keeps its own)."""
    from fireworks_skill_memory.memory.locks import try_exclusive
    from fireworks_skill_memory.memory.service.protocol import (
        LOCK_NAME,
        PID_NAME,
        run_dir,
        socket_path,
    )

    try:
        fd = os.open(os.path.join(run_dir(home), LOCK_NAME), os.O_RDWR)
    except OSError:
        return
    try:
        if not try_exclusive(fd):
            return  # a new service owns the home already; the files are its own
        for path in (socket_path(home), os.path.join(run_dir(home), PID_NAME)):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
    finally:
        os.close(fd)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _report(as_json: bool, data: dict[str, object], text: str) -> None:
    if as_json:
        emit_json(data)
    else:
        click.echo(text)


COMMANDS = (serve, service_group)
