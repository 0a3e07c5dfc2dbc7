"""`flush` reads a summary through one reader with one size cap, with or without --distill."""

from __future__ import annotations

from pathlib import Path

import pytest

from fireworks_skill_memory.cli.distill import MAX_SUMMARY_BYTES
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.conftest import CliInvoker

SUMMARY = "# Session\n\n## Lessons\n\n- Pin the base image digest in every Dockerfile\n"


@pytest.fixture
def oversized(tmp_path: Path) -> Path:
    path = tmp_path / "summary.md"
    path.write_bytes(SUMMARY.encode() + b"x" * MAX_SUMMARY_BYTES)
    return path


@pytest.mark.parametrize("distill", [False, True])
def test_a_summary_file_over_the_cap_is_refused(
    cli: CliInvoker, store: Store, oversized: Path, distill: bool
) -> None:
    args = ["flush", "--skill", "demo", "--summary-file", str(oversized)]
    result = cli(*args, *(["--distill"] if distill else []))
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"Error: the summary in {oversized} is over 4 MB; pass only the part with the lessons"
    )
    assert store.lessons("demo") == []


def test_stdin_over_the_cap_is_refused(cli: CliInvoker, store: Store) -> None:
    result = cli("flush", "--skill", "demo", "--stdin", input=SUMMARY + "x" * MAX_SUMMARY_BYTES)
    assert result.exit_code == 1
    assert "the summary in standard input is over 4 MB" in result.output
    assert store.lessons("demo") == []


def test_a_summary_at_the_cap_is_read(cli: CliInvoker, store: Store, tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_bytes(SUMMARY.encode() + b"\n" + b"x" * (MAX_SUMMARY_BYTES - len(SUMMARY) - 1))
    assert path.stat().st_size == MAX_SUMMARY_BYTES
    result = cli("flush", "--skill", "demo", "--summary-file", str(path))
    assert result.exit_code == 0, result.output
    assert [lesson.text for lesson in store.lessons("demo")] == [
        "Pin the base image digest in every Dockerfile"
    ]


def test_a_missing_summary_file_is_one_line(cli: CliInvoker, tmp_path: Path) -> None:
    missing = tmp_path / "nope.md"
    for extra in ([], ["--distill"]):
        result = cli("flush", "--skill", "demo", "--summary-file", str(missing), *extra)
        assert result.exit_code == 1
        assert result.output.strip() == f"Error: cannot read {missing}: No such file or directory"
