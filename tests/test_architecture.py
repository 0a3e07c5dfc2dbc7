"""The import rule of docs/architecture.md: models <- index <- memory <- hooks, codex,
mcpserver, viewer <- cli; and inside `memory`, the order of its sub-packages.

An AST walk over every module of the packages (imports inside functions and
`TYPE_CHECKING` blocks included) finds each import of the namespace and checks that it
points at the package itself or at one to its left; inside `memory`, at the sub-package
itself, at one below it in `MEMORY_ORDER`, or at `memory`'s own top-level modules.
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


# ---- the order inside memory ------------------------------------------------------------
# `memory`'s sub-packages, lowest first: each may import those before it, never one after it,
# so no two import each other. Below them all: `memory`'s own modules (`config`, `errors`,
# `locks`, `skill_files`, ...), which import no sub-package. (`ingest` is placed ahead of its
# arrival: the write path, above what it writes through, below its callers.)
MEMORY_ORDER = (
    "redact",
    "store",
    "sessions",
    "dedup",
    "retrieval",
    "screen",
    "ingest",
    "team",
    "service",
    "distill",
    "evaluation",
)
MEMORY = REPO / "memory"
FOUNDATION = "(memory's own modules)"


def memory_unit(path: Path) -> str:
    """The sub-package a module of `memory` belongs to (FOUNDATION for a top-level module)."""
    parts = path.relative_to(MEMORY).parts
    return parts[0] if len(parts) > 1 else FOUNDATION


def memory_imports(source: str) -> list[tuple[int, str]]:
    """(line, unit) of every import of a part of `memory` in `source`."""
    found: list[tuple[int, str]] = []
    prefix = f"{NAMESPACE}.memory"
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == prefix:
                names = [f"{prefix}.{alias.name}" for alias in node.names]
            else:
                names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[:2] != [NAMESPACE, "memory"] or len(parts) < 3:
                continue
            unit = parts[2] if (MEMORY / parts[2]).is_dir() else FOUNDATION
            found.append((node.lineno, unit))
    return found


def memory_violations(unit: str, source: str) -> list[str]:
    """The imports in a module of `unit` that point at a sub-package not below it."""
    rank = {name: position for position, name in enumerate(MEMORY_ORDER)}
    own = rank.get(unit, -1) if unit != FOUNDATION else -1
    return [
        f"line {line}: memory.{unit} imports memory.{target}"
        if unit != FOUNDATION
        else f"line {line}: a top-level module of memory imports memory.{target}"
        for line, target in memory_imports(source)
        if target not in (unit, FOUNDATION) and rank.get(target, len(rank)) >= own
    ]


def test_every_sub_package_of_memory_has_its_place() -> None:
    present = sorted(path.name for path in MEMORY.iterdir() if (path / "__init__.py").is_file())
    assert [name for name in present if name not in MEMORY_ORDER] == []


@pytest.mark.parametrize(
    "path",
    [path for _, path in modules() if MEMORY in path.parents],
    ids=lambda v: str(v.relative_to(REPO)),
)
def test_memory_sub_packages_import_only_those_below(path: Path) -> None:
    assert memory_violations(memory_unit(path), path.read_text(encoding="utf-8")) == []


def test_the_order_check_sees_both_directions_and_the_top_level() -> None:
    source = (
        "from fireworks_skill_memory.memory.store.lesson import Lesson\n"
        "from fireworks_skill_memory.memory import config\n"
        "def f():\n"
        "    from fireworks_skill_memory.memory.team.layer import team_store\n"
        "    import fireworks_skill_memory.memory.retrieval.usage\n"
    )
    assert memory_violations("retrieval", source) == [
        "line 4: memory.retrieval imports memory.team"
    ]
    assert memory_violations("store", source) == [
        "line 4: memory.store imports memory.team",
        "line 5: memory.store imports memory.retrieval",
    ]
    assert memory_violations(FOUNDATION, source) == [
        "line 1: a top-level module of memory imports memory.store",
        "line 4: a top-level module of memory imports memory.team",
        "line 5: a top-level module of memory imports memory.retrieval",
    ]


def test_the_architecture_doc_states_the_memory_order() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert " < ".join(MEMORY_ORDER) in text


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


# ---- tests mirror the package folders ------------------------------------------------------
NOT_PACKAGES = {"fixtures", "fakes", "e2e", "__pycache__"}  # support and whole-agent tests


def test_test_folders_mirror_the_package_folders() -> None:
    """tests/<a>/<b>/ holds the tests of the package folder <a>/<b>/ (tests of the whole
    project, and the support modules, stay at the top of tests/)."""
    tests = REPO / "tests"
    folders = [
        path.relative_to(tests)
        for path in tests.rglob("*")
        if path.is_dir() and not NOT_PACKAGES & set(path.relative_to(tests).parts)
    ]
    assert folders, "no test folders"
    assert [f for f in folders if not (REPO / f / "__init__.py").is_file()] == []
    assert [f for f in folders if not (tests / f / "__init__.py").is_file()] == []
