"""The import rule of docs/architecture.md: models <- index <- memory <- hooks, codex,
mcpserver, viewer <- cli.

An AST walk over every module of the six packages (imports inside functions and
`TYPE_CHECKING` blocks included) finds each import of the namespace and checks that it
points at the package itself or at one to its left.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
NAMESPACE = "fireworks_skill_memory"
# what each package may import from the namespace, besides itself
ALLOWED: dict[str, frozenset[str]] = {
    "models": frozenset(),
    "index": frozenset({"models"}),
    "memory": frozenset({"index", "models"}),
    "hooks": frozenset({"memory", "index", "models"}),
    "codex": frozenset({"hooks", "memory", "index", "models"}),
    "mcpserver": frozenset({"hooks", "memory", "index", "models"}),
    "viewer": frozenset({"memory", "index", "models"}),
    "cli": frozenset({"codex", "hooks", "mcpserver", "viewer", "memory", "index", "models"}),
}
ARCHITECTURE = REPO / "docs" / "architecture.md"


def imported_packages(source: str) -> list[tuple[int, str]]:
    """(line, package) of every import of `fireworks_skill_memory.<package>` in `source`."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == NAMESPACE:
                names = [f"{NAMESPACE}.{alias.name}" for alias in node.names]
            else:
                names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == NAMESPACE and len(parts) > 1:
                found.append((node.lineno, parts[1]))
    return found


def violations(package: str, source: str) -> list[str]:
    """The imports in a module of `package` that point against the arrow."""
    allowed = ALLOWED[package] | {package}
    return [
        f"line {line}: {package} imports {target}"
        for line, target in imported_packages(source)
        if target not in allowed
    ]


def modules() -> list[tuple[str, Path]]:
    return [
        (package, path)
        for package in ALLOWED
        for path in sorted((REPO / package).rglob("*.py"))
        if "__pycache__" not in path.parts
    ]


@pytest.mark.parametrize(
    ("package", "path"),
    modules(),
    ids=lambda v: str(v.relative_to(REPO)) if isinstance(v, Path) else v,
)
def test_imports_flow_one_way(package: str, path: Path) -> None:
    assert violations(package, path.read_text(encoding="utf-8")) == []


def test_the_checker_sees_every_form_of_import() -> None:
    source = (
        "import fireworks_skill_memory.cli.main\n"
        "from fireworks_skill_memory import hooks\n"
        "from fireworks_skill_memory.codex.install import x\n"
        "def f():\n"
        "    from fireworks_skill_memory.memory.config import Settings\n"
        "if TYPE_CHECKING:\n"
        "    from fireworks_skill_memory.index.table import LessonIndex\n"
    )
    assert violations("index", source) == [
        "line 1: index imports cli",
        "line 2: index imports hooks",
        "line 3: index imports codex",
        "line 5: index imports memory",
    ]
    assert violations("cli", source) == []


def test_the_architecture_doc_names_every_package_and_sub_package() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    packages = {path.parent for path in (REPO / "memory").rglob("__init__.py")}
    names = sorted(
        ".".join(("memory", *p.relative_to(REPO / "memory").parts))
        for p in packages
        if p != REPO / "memory"
    )
    missing = [
        name for name in [*ALLOWED, *names] if f"`{name}`" not in text and f"**{name}**" not in text
    ]
    assert missing == []


# ---- only cli imports click -------------------------------------------------------------
CLICK_FREE = ("models", "index", "memory", "hooks", "codex", "mcpserver", "viewer")


def click_imports(source: str) -> list[int]:
    """Lines of `source` that import click (any form, anywhere in the module)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if any(name.split(".")[0] == "click" for name in names):
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize(
    ("package", "path"),
    [(package, path) for package, path in modules() if package in CLICK_FREE],
    ids=lambda v: str(v.relative_to(REPO)) if isinstance(v, Path) else v,
)
def test_only_cli_imports_click(package: str, path: Path) -> None:
    assert click_imports(path.read_text(encoding="utf-8")) == []


def test_the_click_check_sees_every_form_of_import() -> None:
    source = "import click\ndef f():\n    from click.testing import CliRunner\nimport clicks\n"
    assert click_imports(source) == [1, 3]
