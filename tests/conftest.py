"""Shared fixtures: an isolated memory home, the CLI runner, and a deterministic fake embedder."""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from memory.config import Settings, load_settings
from memory.store import Store
from models.embedders import EmbeddingModel

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A process environment whose memory home, HOME and Codex home are all under tmp_path."""
    home = tmp_path / "memory"
    user_home = tmp_path / "user"
    user_home.mkdir()
    for name in list(os.environ):
        if name.startswith(
            ("AI_MEMORY_", "SKILL_MEMORY_", "SKILLS_", "CODEX_HOME", "ANTHROPIC_")
        ) or name in (
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
    monkeypatch.setattr("models.embedders.load_embedder", lambda *a, **k: FakeEmbedder())
    yield CliInvoker(env)


@pytest.fixture(scope="session")
def real_embedder() -> EmbeddingModel:
    """The bundled all-MiniLM-L6-v2, loaded once per test session (offline)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from models.embedders import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder()
    embedder.load()
    return embedder


@pytest.fixture
def cli_real(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, real_embedder: EmbeddingModel
) -> Iterator[CliInvoker]:
    """The CLI with the real bundled model (shared across the session to load it once)."""
    monkeypatch.setattr("models.embedders.load_embedder", lambda *a, **k: real_embedder)
    yield CliInvoker(env)


class CliInvoker:
    """Run `skill-memory` in-process with click's runner."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def __call__(self, *args: str, input: str | None = None) -> Result:
        from cli.main import cli

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
