"""A faster start for the server process: the `mcp` SDK without its package `__init__`s.

`import mcp.types` first runs `mcp/__init__.py`, which imports the whole client side
(sessions, session groups, the stdio client), and `mcp/server/__init__.py` imports FastMCP
(starlette, uvicorn, sse): most of a cold start, none of it used by a low-level stdio server.
`skip_package_inits` registers `mcp` and `mcp.server` as bare package modules (spec and
`__path__`, `__init__` not run), so `mcpserver.app`'s imports load only the modules they name.
It also marks `httpx._main` (httpx's command line: rich, pygments, click) absent, which httpx
supports by defining a stub `main`, and defers `jsonschema` and `httpx` until first used (a
tool call's argument check; a request timeout): together about a quarter of the imports.

Only a process that is nothing but the server calls it (`python -m ...mcpserver`, `skill-memory
mcp`), before importing `mcpserver.app`: anything in that process doing `from mcp import
ClientSession` afterwards would fail.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

_PACKAGES = ("mcp", "mcp.server")
_LAZY = ("jsonschema", "httpx")  # first used by a tool call's validation / a request timeout


def skip_package_inits() -> None:
    """Register the SDK's packages bare; a no-op once any of it is imported."""
    if any(name in sys.modules for name in _PACKAGES):
        return
    for name in _PACKAGES:
        _bare_package(name)
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
    for name in _LAZY:
        if name not in sys.modules:
            _lazy_module(name)


class _Deferred(types.ModuleType):
    """Stands in for a module until code reads one of its attributes, then imports it.

    `importlib.util.LazyLoader` cannot do this on Python < 3.12: the `import` statement itself
    reads `__spec__`, which loads the module. Here the import system finds a plain module
    with a `__spec__` of None; only a missing attribute (`jsonschema.validate`) reaches
    `__getattr__`, which imports the real module and answers from it.
    """

    def __getattr__(self, attr: str) -> Any:
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return getattr(importlib.import_module(self.__name__), attr)


def _lazy_module(name: str) -> None:
    module = _Deferred(name)
    module.__spec__ = None
    sys.modules[name] = module


def _bare_package(name: str) -> None:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.submodule_search_locations is None:
        raise ImportError(f"the `mcp` SDK is not installed (no package {name})")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
