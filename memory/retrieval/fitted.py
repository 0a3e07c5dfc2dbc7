"""The ranking weights and gates fitted by `skill-memory eval cv`, shipped as a data file.

`weights.toml` (package data beside this module) holds one table per ranking: `task` (a
skill's lessons for the agent's task) and `failure` (lessons for a failed tool call). Each
value is what `eval cv` fitted on every dev item (`eval cv --write-fitted`); the command
prints how well the same fitting procedure holds out under cross-validation. Nothing here is
set by hand: change the procedure, run `eval cv`, and write the file again.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from functools import cache

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

WEIGHTS_FILE = os.path.join(os.path.dirname(__file__), "weights.toml")
TABLES = ("task", "failure")

Value = float | int


@cache
def fitted_tables() -> Mapping[str, Mapping[str, Value]]:
    """Every fitted table, read once."""
    with open(WEIGHTS_FILE, "rb") as handle:
        document = tomllib.load(handle)
    tables: dict[str, dict[str, Value]] = {}
    for name in TABLES:
        table = document.get(name)
        if not isinstance(table, dict) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in table.values()
        ):
            raise ValueError(f"{WEIGHTS_FILE}: [{name}] must be a table of numbers")
        tables[name] = dict(table)
    return tables


def fitted(table: str, key: str) -> Value:
    """One fitted value (KeyError names what is missing)."""
    found = fitted_tables()[table]
    if key not in found:
        raise KeyError(f"{WEIGHTS_FILE}: [{table}] has no {key!r}")
    return found[key]


def render(tables: Mapping[str, Mapping[str, Value]], header: str) -> str:
    """A weights file holding these tables, under a comment header."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    for name, table in tables.items():
        lines += ["", f"[{name}]"]
        lines += [f"{key} = {_number(value)}" for key, value in table.items()]
    return "\n".join(lines) + "\n"


def _number(value: Value) -> str:
    return str(value) if isinstance(value, int) else repr(round(float(value), 6))
