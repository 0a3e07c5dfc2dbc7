"""`skill-memory ui`: the local web viewer of the memory home (127.0.0.1 only)."""

from __future__ import annotations

import click

from fireworks_skill_memory.cli.common import settings


@click.command()
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="Port on 127.0.0.1 (0: any free port).",
)
@click.option("--no-open", is_flag=True, help="Print the URL without opening a browser.")
def ui(port: int, no_open: bool) -> None:
    """Browse, search, review and correct the memory in a local web page.

    Listens on 127.0.0.1 only and prints a URL holding a random token; only a browser that
    opened that URL can use the viewer. Ctrl-C stops it.

    \b
    Examples:
      skill-memory ui
      skill-memory ui --port 8765 --no-open
    """
    from fireworks_skill_memory.viewer.server import make_server

    try:
        server = make_server(settings(), port)
    except OSError as error:
        raise click.BadParameter(
            f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}", param_hint="--port"
        ) from None
    url = server.viewer.guard.url()
    click.echo(f"skill-memory viewer of {settings().home}")
    click.echo(url, nl=True)
    click.echo("Ctrl-C stops it.", err=True)
    if not no_open:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    finally:
        server.server_close()


COMMANDS = (ui,)
