"""Shared fixtures: an isolated memory home, the CLI runner, and a deterministic fake embedder.

Isolation is automatic: every test runs with HOME, AI_MEMORY_HOME, CLAUDE_CONFIG_DIR and
CODEX_HOME under a fresh temporary folder and none of the tool's own variables set but
SKILL_MEMORY_NO_SERVICE=1 (a CLI command never leaves a service behind), so a
test that forgets the `env` fixture still cannot reach the real `~/.ai-memory`, `~/.claude`
or `~/.codex`. As a second line, `RealHomeGuard` refuses (PermissionError) any write this
process makes under those folders and fails the run, and checks at the end that no
subprocess changed the files an install would touch.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import re
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from fireworks_skill_memory.memory.config import OPTIONS, Settings, load_settings, resolve_home
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


# ---- isolation from the real home ------------------------------------------------------
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_WRITE_EVENTS = {  # audit event -> positions of the path arguments it writes
    "os.mkdir": (0,),
    "os.remove": (0,),
    "os.rmdir": (0,),
    "os.rename": (0, 1),
    "os.replace": (0, 1),
    "os.link": (1,),
    "os.symlink": (1,),
    "os.truncate": (0,),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.utime": (0,),
    "shutil.rmtree": (0,),
    "shutil.copyfile": (1,),
    "shutil.move": (1,),
}
# What a test escaping into a subprocess would most likely change: the install targets, and
# whether a memory home exists. Not whole trees: a real agent session (with these hooks,
# maybe) may legitimately write ~/.claude or ~/.ai-memory while the tests run.
_WATCHED_FILES = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
    ".codex/AGENTS.md",
    ".codex/config.toml",
)
_WATCHED_EXISTENCE = (".ai-memory", ".codex/memories/fireworks-skill-memory")


def real_home() -> Path:
    """The user's home from the password database, whatever HOME says."""
    return Path(pwd.getpwuid(os.getuid()).pw_dir)


class RealHomeGuard:
    """Refuses and records writes under the real memory, Claude and Codex folders."""

    def __init__(self) -> None:
        home = real_home()
        roots = {home / ".ai-memory", home / ".claude", home / ".codex"}
        roots.add(Path(resolve_home(os.environ)))
        for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
            if os.environ.get(name):
                roots.add(Path(os.environ[name]).expanduser())
        temp = os.path.abspath(tempfile.gettempdir()) + os.sep
        folders = (os.path.abspath(root) + os.sep for root in sorted(roots))
        self.roots = tuple(root for root in folders if not temp.startswith(root))
        self.watched: dict[str, tuple[int, int] | bool | None] = {
            str(home / name): _fingerprint(home / name) for name in _WATCHED_FILES
        }
        self.watched.update({str(home / name): _exists(home / name) for name in _WATCHED_EXISTENCE})
        self.violations: list[str] = []

    def protected(self, path: object) -> str | None:
        """The absolute path when `path` lies under a guarded folder."""
        if isinstance(path, int) or path is None:
            return None  # a file descriptor: its opening was checked
        try:
            text = os.fsdecode(os.fspath(path))  # type: ignore[call-overload]
        except TypeError:
            return None
        full = os.path.abspath(text) + os.sep
        return full[:-1] if full.startswith(self.roots) else None

    def audit(self, event: str, args: tuple[object, ...]) -> None:
        if event == "open":
            path, _mode, flags = args
            if isinstance(flags, int) and flags & _WRITE_FLAGS:
                self._check(event, path)
            return
        for position in _WRITE_EVENTS.get(event, ()):
            if position < len(args):
                self._check(event, args[position])

    def _check(self, event: str, path: object) -> None:
        target = self.protected(path)
        if target is not None:
            self.violations.append(f"{event} {target}")
            raise PermissionError(f"test isolation: {event} on {target} (the real home) refused")

    def changed_files(self) -> list[str]:
        """Watched paths that appeared, vanished or changed since the session started."""
        changed = []
        for path, seen in self.watched.items():
            now = _exists(Path(path)) if isinstance(seen, bool) else _fingerprint(Path(path))
            if now != seen:
                changed.append(path)
        return changed


def _fingerprint(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


_GUARD: RealHomeGuard | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _GUARD
    if _GUARD is None:
        _GUARD = RealHomeGuard()
        sys.addaudithook(_GUARD.audit)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _GUARD is None:
        return
    problems = _GUARD.violations + [f"changed: {path}" for path in _GUARD.changed_files()]
    if problems:
        print("\nTEST ISOLATION BROKEN: the tests wrote under the real home:", file=sys.stderr)
        for problem in dict.fromkeys(problems):
            print(f"  {problem}", file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# Fixtures that put a test in a marker's group: `make check` deselects by these markers, so a
# test using one without its marker would slip into the fast loop.
_FIXTURE_MARKERS = {"s3": "s3", "browser": "browser"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = [
        f"{item.nodeid} (uses `{fixture}`, add @pytest.mark.{marker})"
        for item in items
        for fixture, marker in _FIXTURE_MARKERS.items()
        if fixture in getattr(item, "fixturenames", ()) and item.get_closest_marker(marker) is None
    ]
    if missing:
        raise pytest.UsageError("tests without their marker:\n  " + "\n  ".join(missing))


@pytest.fixture(scope="session")
def shared_models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One models folder for the session: the ONNX export is made once, not once per home."""
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="session")
def session_export(shared_models_dir: Path) -> Path:
    """The ONNX export of the bundled model in the session's models folder (made once)."""
    from fireworks_skill_memory.models.bundled import bundled_model_dir
    from fireworks_skill_memory.models.onnx_store import ensure_export

    return Path(ensure_export(bundled_model_dir(), str(shared_models_dir)).folder)


@pytest.fixture(autouse=True)
def _export_before_real_model_tests(request: pytest.FixtureRequest) -> None:
    """A real-model test finds the export made: no service of its waits out an export."""
    if request.node.get_closest_marker("real_model") is not None:
        request.getfixturevalue("session_export")


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    shared_models_dir: Path,
) -> Path:
    """Every test: HOME and the memory, Claude and Codex homes in a fresh temp folder."""
    user_home = tmp_path_factory.mktemp("home")
    for option in OPTIONS:
        monkeypatch.delenv(option.env, raising=False)
    monkeypatch.setenv("SKILL_MEMORY_MODELS_DIR", str(shared_models_dir))
    monkeypatch.setenv("HOME", str(user_home))
    monkeypatch.setenv("AI_MEMORY_HOME", str(user_home / ".ai-memory"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(user_home / ".claude"))
    monkeypatch.setenv("CODEX_HOME", str(user_home / ".codex"))
    monkeypatch.setenv("SKILLS_DISTILLER_BACKEND", "null")  # never a real LLM by default
    monkeypatch.setenv("SKILL_MEMORY_NO_SERVICE", "1")  # the CLI starts no service by default
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    return user_home


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_models_dir: Path) -> dict[str, str]:
    """A process environment whose memory home, HOME and Codex home are all under tmp_path."""
    home = tmp_path / "memory"
    user_home = tmp_path / "user"
    user_home.mkdir()
    for name in list(os.environ):
        if name.startswith(
            ("AI_MEMORY_", "SKILL_MEMORY_", "SKILLS_", "CODEX_HOME", "ANTHROPIC_")
        ) or name in (
            "CLAUDE_CONFIG_DIR",
            "SKILL_MAX",
            "GLOBAL_MAX",
            "MIN_TOOL_CALLS",
            "TRANSCRIPT_LINES",
            "OPENAI_BASE_URL",
            "OPENAI_API_KEY",
        ):
            monkeypatch.delenv(name, raising=False)
    values = {
        "AI_MEMORY_HOME": str(home),
        "HOME": str(user_home),
        "SKILLS_DISTILLER_BACKEND": "null",
        "SKILL_MEMORY_MODELS_DIR": str(shared_models_dir),
        "SKILL_MEMORY_NO_SERVICE": "1",  # tests that want the CLI to start one remove it
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return {**os.environ, **values}


@pytest.fixture
def settings(env: dict[str, str]) -> Settings:
    return load_settings(env)


@pytest.fixture
def store(settings: Settings) -> Store:
    return Store(settings)


@pytest.fixture
def cli(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[CliInvoker]:
    """The CLI with the fake embedder (fast); use `cli_real` for the real model."""
    monkeypatch.setattr(
        "fireworks_skill_memory.models.embedders.load_embedder", lambda *a, **k: FakeEmbedder()
    )
    yield CliInvoker(env)


@pytest.fixture(scope="session")
def real_embedder() -> EmbeddingModel:
    """The bundled all-MiniLM-L6-v2, loaded once per test session (offline)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from fireworks_skill_memory.models.embedders import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder()
    embedder.load()
    return embedder


@pytest.fixture
def cli_real(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, real_embedder: EmbeddingModel
) -> Iterator[CliInvoker]:
    """The CLI with the real bundled model (shared across the session to load it once)."""
    monkeypatch.setattr(
        "fireworks_skill_memory.models.embedders.load_embedder", lambda *a, **k: real_embedder
    )
    yield CliInvoker(env)


class CliInvoker:
    """Run `skill-memory` in-process with click's runner."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def __call__(self, *args: str, input: str | None = None) -> Result:
        from fireworks_skill_memory.cli.main import cli

        runner = CliRunner()
        return runner.invoke(cli, list(args), input=input, env=self.env, catch_exceptions=False)


class FakeEmbedder(EmbeddingModel):
    """Deterministic bag-of-words embedder: texts sharing words have similar vectors."""

    model_id = "fake/bag-of-words"

    def __init__(self) -> None:
        self.calls = 0
        self.texts_embedded = 0

    @property
    def dimension(self) -> int:
        return 64

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        self.texts_embedded += len(texts)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                bucket = int(hashlib.md5(word.encode()).hexdigest()[:8], 16) % self.dimension
                out[row, bucket] += 1.0
            norm = float(np.linalg.norm(out[row]))
            if norm:
                out[row] /= norm
        return out


@pytest.fixture
def fake_embedder() -> FakeEmbedder:
    return FakeEmbedder()


def python() -> str:
    """The interpreter running the tests (the project's venv)."""
    return sys.executable


def write_eval_corpus(folder: Path, skill: str, lessons: Sequence[tuple[str, str, str]]) -> Path:
    """A tiny corpus in the eval's layout: `skills/<skill>/KNOWLEDGE.md` and `lessons.jsonl`.

    `lessons` are (id, tag, text); returns the corpus folder.
    """
    corpus = folder / "corpus"
    skill_dir = corpus / "skills" / skill
    skill_dir.mkdir(parents=True)
    (skill_dir / "KNOWLEDGE.md").write_text(
        f"# {skill}\n\n## Entries\n\n"
        + "".join(f"- [2026-01] [{tag}] {text}  [HIT:1]\n" for _, tag, text in lessons)
    )
    (corpus / "lessons.jsonl").write_text(
        "".join(
            json.dumps({"id": i, "skill": skill, "tag": t, "text": x}) + "\n" for i, t, x in lessons
        )
    )
    return corpus
