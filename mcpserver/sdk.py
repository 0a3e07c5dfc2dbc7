"""A faster start for the server process: the `mcp` SDK without its package `__init__`s.

`import mcp.types` first runs `mcp/__init__.py`, which imports the whole client side
(sessions, session groups, the stdio client), and `mcp/server/__init__.py` imports FastMCP
(starlette, uvicorn, sse): most of a cold start, none of it used by a low-level stdio server.
`skip_package_inits` registers `mcp` and `mcp.server` as bare package modules (spec and
`__path__`, `__init__` not run), so `mcpserver.app`'s imports load only the modules they name.
It also marks `httpx._main` (httpx's command line: rich, pygments, click; httpx comes with the
SDK's shared session) absent, which httpx supports by defining a stub `main`.

Only a process that is nothing but the server calls it (`python -m ...mcpserver`, `skill-memory
mcp`), before importing `mcpserver.app`: anything in that process doing `from mcp import
ClientSession` afterwards would fail.
"""

from __future__ import annotations

import importlib.util
import sys

_PACKAGES = ("mcp", "mcp.server")


def skip_package_inits() -> None:
    """Register the SDK's packages bare; a no-op once any of it is imported."""
    if any(name in sys.modules for name in _PACKAGES):
        return
    for name in _PACKAGES:
        _bare_package(name)
    sys.modules.setdefault("httpx._main", None)  # type: ignore[assignment]


def _bare_package(name: str) -> None:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.submodule_search_locations is None:
        raise ImportError(f"the `mcp` SDK is not installed (no package {name})")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
