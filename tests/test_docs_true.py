"""Docs that stay true: the repository paths and dotted module names that module docstrings,
docs/*.md and the README mention exist, the namespace's `__init__` names every package, and no
product module grows past the size limit of the common rules (1,200 lines)."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from tests.test_architecture import ALLOWED

REPO = Path(__file__).resolve().parent.parent
NAMESPACE = "fireworks_skill_memory"
PRODUCT = tuple(ALLOWED)  # models, index, memory, hooks, codex, mcpserver, viewer, cli
MAX_LINES = 1200
TOP = (*PRODUCT, "tests", "benchmarks", "docs", "examples")
# a repository path with a file extension: `memory/ingest/pipeline.py`, `docs/architecture.md`
PATH = re.compile(rf"(?<![\w./-])((?:{'|'.join(TOP)})/[\w./-]*\.(?:py|md|toml|json|sh|txt))\b")
# a dotted name in the namespace: `memory.retrieval.usage.inject_and_record`, `hooks.warm`
DOTTED = re.compile(rf"(?<![\w./-])(?:{NAMESPACE}\.)?((?:{'|'.join(PRODUCT)})(?:\.[A-Za-z_]\w*)+)")
FILE_NAME = re.compile(r"\.(?:py|md|toml|json|jsonl|css|js|log|sh|txt|yaml|html)$")
# files a command writes when it is run, named by the docs of that command
WRITTEN_LATER = {"memory/screen/data/head.toml"}  # benchmarks/ship_screen_head.py writes it


def python_files() -> list[Path]:
    tops = (*PRODUCT, "tests", "benchmarks")
    return sorted(path for top in tops for path in (REPO / top).rglob("*.py"))


def docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    found = (ast.get_docstring(node) for node in ast.walk(tree) if isinstance(node, kinds))
    return [text for text in found if text]


@cache
def documents() -> list[tuple[str, str]]:
    """(where, text) of every module docstring, docs page and the README."""
    texts = [(str(p.relative_to(REPO)), d) for p in python_files() for d in docstrings(p)]
    pages = [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]
    return texts + [(str(p.relative_to(REPO)), p.read_text(encoding="utf-8")) for p in pages]


def missing_paths(text: str) -> list[str]:
    named = {match.rstrip(".") for match in PATH.findall(text)}
    return sorted(p for p in named - WRITTEN_LATER if not (REPO / p).exists())


def module_file(parts: list[str]) -> Path | None:
    """The source of the module or package `parts` names (`["memory", "ingest"]`), if any."""
    base = REPO.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def defined_names(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    """Names a module or class body binds: defs, classes, assignments and imports."""
    names: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update({(a.asname or a.name).split(".")[0]: node for a in node.names})
        elif isinstance(node, ast.Assign):
            names.update({t.id: node for t in node.targets if isinstance(t, ast.Name)})
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, (ast.If, ast.Try)):  # `if TYPE_CHECKING:`, guarded imports
            names.update(defined_names(node.body))
    return names


def resolves(name: str) -> bool:
    """Whether `name` is a module of the namespace, a name one defines, or a class's member
    (read from the source, so nothing heavy is imported)."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        source = module_file(parts[:cut])
        if source is None:
            continue
        rest = parts[cut:]
        body = ast.parse(source.read_text(encoding="utf-8")).body
        for attribute in rest[:2]:  # a name, then a class's member; deeper is not checked
            found = defined_names(body).get(attribute)
            if found is None:
                return False
            if not isinstance(found, ast.ClassDef):
                return True
            body = found.body
        return True
    return False


def unresolved_names(text: str) -> list[str]:
    named = {match.rstrip(".") for match in DOTTED.findall(text)}
    return sorted(n for n in named if not FILE_NAME.search(n) and not resolves(n))


def test_every_path_the_docs_and_docstrings_name_exists() -> None:
    stale = [(where, path) for where, text in documents() for path in missing_paths(text)]
    assert stale == []


def test_every_module_name_the_docs_and_docstrings_give_resolves() -> None:
    stale = [(where, name) for where, text in documents() for name in unresolved_names(text)]
    assert stale == []


def test_the_checks_see_a_stale_path_and_a_stale_name() -> None:
    text = "See `memory/redact.py`, `memory/ingest/pipeline.py` and hooks/bin/stop.py."
    assert missing_paths(text) == ["memory/redact.py"]
    text = "`hooks.service_main` moved to `cli.service_main`; `memory.ingest.Ingest`, `hooks.py`."
    assert unresolved_names(text) == ["hooks.service_main"]


def test_the_namespace_docstring_names_every_package() -> None:
    init = (REPO / NAMESPACE / "__init__.py").read_text(encoding="utf-8")
    assert [name for name in PRODUCT if f"{name}/" not in init] == []


def product_modules() -> list[Path]:
    return sorted(p for top in PRODUCT for p in (REPO / top).rglob("*.py"))


def test_no_product_module_is_over_the_size_limit() -> None:
    sizes = {str(p.relative_to(REPO)): len(p.read_text(encoding="utf-8").splitlines())
             for p in product_modules()}  # fmt: skip
    assert len(sizes) > 100
    assert {path: n for path, n in sizes.items() if n > MAX_LINES} == {}
