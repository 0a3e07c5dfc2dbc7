"""`serve` and `service start|stop|status`: the warm service of the memory home."""

from __future__ import annotations

import os
import sys
import time

import click

from cli.common import emit_json, json_option, settings

NOT_RUNNING = 3
SERVICE_MODULE = "hooks.service_main"


@click.command()
def serve() -> None:
    """Run the warm service in the foreground (Ctrl-C to stop)."""
    from hooks.service_main import run

    raise SystemExit(run(settings()))


@click.group("service")
def service_group() -> None:
    """Start, stop or query the warm service (one per memory home)."""


@service_group.command("start")
@json_option
def start(as_json: bool) -> None:
    """Start the service detached; returns once it is spawned (the model loads after)."""
    from memory.service import client

    cfg = settings()
    reply = client.try_call(cfg.home, "ping", timeout=0.5)
    if reply is not None:
        _report(as_json, {"started": False, "running": True, **reply}, "already running")
        return
    pid = client.start_detached(cfg.home, SERVICE_MODULE, sys.executable)
    if pid is None:
        raise click.ClickException("could not spawn the service (see the logs folder)")
    _report(as_json, {"started": True, "pid": pid}, f"started (pid {pid}); logs in {cfg.log_dir}")


@service_group.command("stop")
@click.option("--timeout", default=10.0, show_default=True, help="Seconds to wait for it to exit.")
@json_option
def stop(timeout: float, as_json: bool) -> None:
    """Ask the service to exit and wait until it has."""
    from memory.service import client
    from memory.service.protocol import socket_path

    cfg = settings()
    if client.try_call(cfg.home, "shutdown", timeout=2.0) is None:
        _report(as_json, {"stopped": False, "running": False}, "not running")
        return
    deadline = time.monotonic() + timeout
    while os.path.exists(socket_path(cfg.home)) and time.monotonic() < deadline:
        time.sleep(0.05)
    gone = not os.path.exists(socket_path(cfg.home))
    _report(as_json, {"stopped": gone}, "stopped" if gone else "asked to stop; still exiting")


@service_group.command("status")
@json_option
def status(as_json: bool) -> None:
    """Exit 0 when the service answers, 3 when it is not running."""
    from memory.service import client

    cfg = settings()
    reply = client.try_call(cfg.home, "ping", timeout=1.0)
    if reply is None:
        _report(as_json, {"running": False, "home": cfg.home}, f"not running for {cfg.home}")
        raise SystemExit(NOT_RUNNING)
    state = "ready" if reply.get("ready") else "warming up"
    if reply.get("load_error"):
        state = f"failed to load: {reply['load_error']}"
    _report(
        as_json,
        {"running": True, **reply},
        f"running (pid {reply.get('pid')}, {state}, up {reply.get('uptime')} s, "
        f"{reply.get('version')})",
    )


def _report(as_json: bool, data: dict[str, object], text: str) -> None:
    if as_json:
        emit_json(data)
    else:
        click.echo(text)


COMMANDS = (serve, service_group)
