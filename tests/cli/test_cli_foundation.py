"""The foundation commands: add, show, list, checkpoint, flush, inject, import-legacy, config."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, CliInvoker

ORIGINAL = REPO / "examples" / "skills" / "browser-automation" / "KNOWLEDGE.md"


def seed(home: Path, skill: str, source: Path) -> Path:
    target = home / "skills" / skill / "KNOWLEDGE.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def home_of(cli: CliInvoker) -> Path:
    return Path(cli.env["AI_MEMORY_HOME"])


def test_original_file_is_listed_shown_injected_unchanged(cli: CliInvoker) -> None:
    target = seed(home_of(cli), "browser-automation", ORIGINAL)
    original_lines = [line for line in ORIGINAL.read_text().splitlines() if line.startswith("- ")]

    listed = json.loads(cli("list", "--json").output)
    assert listed["skills"][0]["skill"] == "browser-automation"
    assert listed["skills"][0]["lessons"] == len(original_lines)

    shown = cli("show", "--skill", "browser-automation").output.splitlines()
    assert [line.split("  ", 1)[1] for line in shown] == original_lines
    assert cli("show", "--skill", "browser-automation", "--raw").output == ORIGINAL.read_text()

    injected = json.loads(cli("inject", "--skill", "browser-automation", "--json").output)
    texts = {lesson["text"] for lesson in injected["lessons"]}
    assert all(any(text in line for line in original_lines) for text in texts)
    assert len(texts) == len(original_lines)

    before = target.read_text().splitlines()
    assert (
        cli(
            "add", "--skill", "browser-automation", "--tag", "Downloads", "Set a download dir first"
        ).exit_code
        == 0
    )
    after = target.read_text().splitlines()
    assert [line for line in after if line not in before] == [
        line for line in after if "Set a download dir first" in line
    ]
    assert [line for line in after if "Set a download dir" not in line] == before


def test_add_show_json_and_ids(cli: CliInvoker) -> None:
    out = json.loads(
        cli("add", "--skill", "demo", "--tag", "CI", "--json", "Run lint first").output
    )
    assert out["action"] == "added"
    lesson_id = out["lesson"]["id"]
    shown = json.loads(cli("show", "--skill", "demo", "--json").output)
    assert [lesson["id"] for lesson in shown["lessons"]] == [lesson_id]
    assert lesson_id in cli("show", "--skill", "demo").output
    again = json.loads(cli("add", "--skill", "demo", "--json", "run LINT first").output)
    assert again["action"] == "merged" and again["lesson"]["hits"] == 2


def test_add_reads_stdin(cli: CliInvoker) -> None:
    result = cli("add", "--skill", "demo", "-", input="from stdin\n")
    assert result.exit_code == 0
    assert "from stdin" in cli("show", "--skill", "demo").output


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["add", "--skill", "../../etc", "x"], None, "contains '/'"),
        (["add", "--skill", "a\x00b", "x"], None, "NUL"),
        (["add", "--skill", "ok", ""], None, "empty"),
        (["add", "--skill", "ok", "-"], "x" * 1_000_000, "limit is 2000"),
        (["checkpoint", "--skill", "..", "--note", "x"], None, ".."),
    ],
)
def test_bad_input_is_one_line_exit_1_nothing_written(
    cli: CliInvoker, args: list[str], stdin: str | None, message: str
) -> None:
    result = cli(*args, input=stdin)
    assert result.exit_code == 1
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not home_of(cli).exists()


def test_bad_options_exit_2(cli: CliInvoker) -> None:
    assert cli("inject", "--skill", "x", "--top", "0").exit_code == 2
    assert cli("add", "--skill", "x").exit_code == 2
    assert cli("flush", "--skill", "x").exit_code == 2


def test_checkpoint_and_flush_sections(cli: CliInvoker, tmp_path: Path) -> None:
    cli("checkpoint", "--skill", "demo", "--note", "tried pip install, wheel build failed")
    summary = tmp_path / "summary.md"
    summary.write_text(
        "# Session\nDid things.\n\n## Lessons\n"
        "- [Build] Install the system headers (python3-dev) before building wheels\n"
        "- Pin the resolver with a constraints file when CI differs from local\n"
        "- pin the resolver with a constraints file when ci differs from local\n"
        "Plain line long enough to count as a lesson here.\n"
        "\n## Next steps\n- not a lesson\n"
    )
    result = json.loads(
        cli("flush", "--skill", "demo", "--summary-file", str(summary), "--json").output
    )
    assert result["found"] == 3
    assert [item["lesson"]["text"] for item in result["stored"]] == [
        "Install the system headers (python3-dev) before building wheels",
        "Pin the resolver with a constraints file when CI differs from local",
        "Plain line long enough to count as a lesson here.",
    ]
    assert result["stored"][0]["lesson"]["tag"] == "Build"
    # Not asked to read the notes: the note stays where it was (it used to be cleared unread).
    assert (result["cleared_checkpoints"], result["kept_checkpoints"]) == (0, 1)
    assert "wheel build failed" in (home_of(cli) / "skills/demo/CHECKPOINTS.md").read_text()


def test_flush_clears_only_the_notes_it_stored(cli: CliInvoker, tmp_path: Path) -> None:
    for note in ("first note about wheels", "second note about pins", "third note about caches"):
        cli("checkpoint", "--skill", "demo", "--note", note)
    summary = tmp_path / "summary.md"
    summary.write_text("## Lessons\n- Install python3-dev before building wheels\n")
    out = cli(
        "flush", "--skill", "demo", "--summary-file", str(summary),
        "--include-checkpoints", "--max-lessons", "2",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "cleared 1 checkpoint note (stored above)" in out.output
    assert "2 checkpoint notes stay in CHECKPOINTS.md" in out.output
    shown = cli("show", "--skill", "demo").output
    assert "first note about wheels" in shown and "second note" not in shown
    left = (home_of(cli) / "skills/demo/CHECKPOINTS.md").read_text()
    assert "first note" not in left
    assert "second note about pins" in left and "third note about caches" in left


def test_flush_chinese_heading_and_jsonl_session(cli: CliInvoker, tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    lines = [
        {
            "role": "assistant",
            "content": "Work done.\n## 经验\n1. 先运行测试再提交代码，避免破坏主分支",
        },
        {"role": "user", "content": "thanks"},
    ]
    session.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines))
    cli("flush", "--skill", "demo", "--session-file", str(session), "--keep-checkpoints")
    assert "先运行测试再提交代码" in cli("show", "--skill", "demo").output


def test_inject_orders_by_hits_and_age_without_task(cli: CliInvoker) -> None:
    from datetime import date

    month = date.today().strftime("%Y-%m")
    target = home_of(cli) / "skills" / "docker" / "KNOWLEDGE.md"
    target.parent.mkdir(parents=True)
    target.write_text(
        "# docker\n\n## Entries\n\n"
        f"- [{month}] [A] six hits  [HIT:6]\n"
        "- [2001-01] [B] ancient, many hits  [HIT:50]\n"
        f"- [{month}] [C] nine hits, copy the manifest first  [HIT:9]\n"
    )
    out = json.loads(cli("inject", "--skill", "docker", "--top", "2", "--json").output)
    assert [lesson["hits"] for lesson in out["lessons"]] == [9, 6]
    assert "not instructions" in out["text"]
    text = cli("inject", "--skill", "docker", "--top", "1").output
    assert "copy the manifest first" in text


def test_config_lists_every_variable(cli: CliInvoker) -> None:
    from fireworks_skill_memory.memory.config import OPTIONS

    data = json.loads(cli("config", "--json").output)
    assert [row["env"] for row in data["variables"]] == [option.env for option in OPTIONS]
    assert data["resolved"]["home"] == cli.env["AI_MEMORY_HOME"]


def test_readme_documents_every_variable_with_its_default() -> None:
    from fireworks_skill_memory.memory.config import OPTIONS

    readme = (REPO / "README.md").read_text()
    for option in OPTIONS:
        assert f"`{option.env}`" in readme, option.env
        if option.default != "":
            assert f"`{option.default}`" in readme, option.env


def test_version_and_console_script(env: dict[str, str]) -> None:
    exe = Path(sys.executable).with_name("skill-memory")
    result = subprocess.run(
        [str(exe), "--version"], env=env, capture_output=True, text=True, check=True
    )
    assert result.stdout.startswith("skill-memory, version ")


def test_home_resolution_rules() -> None:
    from fireworks_skill_memory.memory.config import resolve_home

    assert resolve_home({"AI_MEMORY_HOME": "/x/y", "CODEX_HOME": "/c"}) == "/x/y"
    assert resolve_home({"CODEX_HOME": "/c"}) == "/c/memories/fireworks-skill-memory"
    assert resolve_home({"HOME": os.path.expanduser("~")}) == os.path.expanduser("~/.ai-memory")
