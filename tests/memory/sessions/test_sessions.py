"""sessions.readers and sessions.transcript_tail on real recorded sessions and synthetic edge cases.

Recorded fixtures in tests/fixtures/sessions/ (real CLIs, offline, against tests/fakes):

- claude_transcript.jsonl / codex_rollout.jsonl (+ *_hooks.jsonl): see README.md there.
- claude_sample_transcript.jsonl: /work/shared/docs/samples/transcript.jsonl (Skill -> Read ->
  text; the text and the tool_use of one message on two lines), strings over 1800 chars trimmed.
- claude_slash_transcript.jsonl: claude 2.1.197 `-p "/python-imports make nosuchmod
  importable"` with `--plugin-dir` (plugin `e2eplug` in `proj/vendor/plugin-dir`), text + Read
  of the plugin's SKILL.md in one message, a failing and a fixing Bash, then a `--resume`d
  second prompt. Captured by /work/scratch/capture_claude_slash.py (same post-processing).
- codex_mention_rollout.jsonl: codex 0.171.0 with an AGENTS.md, prompt `$python-imports ...`
  (Codex injects the skill as a `<skill>` user message), `sed -n` of
  `.agents/skills/repo-notes/SKILL.md` (relative), failing + fixing command, then a
  `codex exec resume` turn (appended to the same rollout). Captured by
  /work/scratch/capture_codex_mention.py.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.sessions import transcript_tail
from fireworks_skill_memory.memory.sessions.readers import (
    OUTPUT_CHARS,
    PROMPT_CHARS,
    SessionDigest,
    ToolCall,
    detect_agent,
    latest_codex_rollout,
    read_claude_transcript,
    read_codex_rollout,
    read_session,
)
from fireworks_skill_memory.memory.sessions.transcript_tail import (
    latest_prompts,
    read_tail_lines,
)
from tests.conftest import REPO

SESSIONS = Path(__file__).resolve().parents[2] / "fixtures" / "sessions"
ROOT = "/tmp/fsm-e2e"
PROMPT = "Use the python-imports skill to make `import nosuchmod` work."
FINAL = "Fixed: `nosuchmod` now lives in lib/ and imports with PYTHONPATH=lib (prints 42)."
FAIL_CMD = "python3 -c 'import nosuchmod'"
FIX_CMD = (
    "mkdir -p lib && printf 'VALUE = 42\\n' > lib/nosuchmod.py && "
    "PYTHONPATH=lib python3 -c 'import nosuchmod; print(nosuchmod.VALUE)'"
)
TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "<string>", line 1, in <module>\n'
    "ModuleNotFoundError: No module named 'nosuchmod'"
)
SKILL_MD = (
    "---\nname: python-imports\n"
    "description: Fix Python ImportError / ModuleNotFoundError problems in this project.\n"
    "---\n\n# Python imports\n\n"
    '1. Reproduce the failing import with `python3 -c "import <module>"`.\n'
    "2. If the module is local, make sure its directory is on PYTHONPATH.\n"
)
SLASH_FIX = "mkdir -p lib && touch lib/nosuchmod.py && PYTHONPATH=lib python3 -c 'import nosuchmod'"


def fixture(name: str) -> str:
    return str(SESSIONS / name)


def hooks(name: str) -> list[dict[str, Any]]:
    text = (SESSIONS / name).read_text(encoding="utf-8")
    return [json.loads(line)["stdin"] for line in text.splitlines() if line]


def write_jsonl(path: Path, lines: list[Any]) -> str:
    with path.open("w", encoding="utf-8") as handle:
        for line in lines:
            handle.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    return str(path)


def calls_summary(digest: SessionDigest) -> list[tuple[str, bool, int | None]]:
    return [(c.name, c.is_error, c.exit_code) for c in digest.tool_calls]


# ----------------------------------------------------------------------------- recorded: Claude


def test_claude_fixture_exact() -> None:
    digest = read_claude_transcript(fixture("claude_transcript.jsonl"))
    skill = ToolCall(
        "toolu_10490fa04f414e0aa98ba7ef",
        "Skill",
        {"skill": "python-imports"},
        "Launching skill: python-imports",
        False,
        None,
    )
    fail = ToolCall(
        "toolu_38b76bd621dd4256957466d1",
        "Bash",
        {"command": FAIL_CMD, "description": "Reproduce the failing import"},
        "Exit code 1\n" + TRACEBACK,
        True,
        1,
    )
    fix = ToolCall(
        "toolu_a710f16f158741858d32d27f",
        "Bash",
        {"command": FIX_CMD, "description": "Create the module and import it"},
        "42",
        False,
        None,  # Claude records no exit code for a successful Bash
    )
    assert digest == SessionDigest(
        agent="claude",
        session_id="35cd5c28-8427-4a87-acc5-b4d2edef0066",
        cwd=f"{ROOT}/proj",
        prompts=[PROMPT],
        assistant_texts=[FINAL],
        tool_calls=[skill, fail, fix],
        skills_used=["python-imports"],
        truncated=False,
    )
    assert digest.tool_call_count == 3
    assert digest.errors == [fail]
    assert digest.error_fix_pairs() == [(fail, fix)]


def test_claude_fixture_agrees_with_its_hook_payloads() -> None:
    digest = read_session(fixture("claude_transcript.jsonl"))
    payloads = hooks("claude_hooks.jsonl")
    by_event = {p["hook_event_name"]: p for p in payloads}
    assert digest.agent == "claude"
    assert digest.session_id == by_event["SessionStart"]["session_id"]
    assert digest.prompts == [by_event["UserPromptSubmit"]["prompt"]]
    pre = [p["tool_use_id"] for p in payloads if p["hook_event_name"] == "PreToolUse"]
    assert [c.id for c in digest.tool_calls] == pre
    failure = by_event["PostToolUseFailure"]
    assert [c.id for c in digest.errors] == [failure["tool_use_id"]]
    assert failure["error"] == digest.errors[0].output


def test_claude_sample_transcript() -> None:
    """The docs sample: a text and a tool_use of one API message are two lines."""
    path = fixture("claude_sample_transcript.jsonl")
    raw = [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines()]
    ids = [x["message"]["id"] for x in raw if x["type"] == "assistant"]
    assert ids[0] == ids[1]
    digest = read_session(path)
    assert digest.agent == "claude"
    assert digest.session_id == "fa9b1564-5fd9-43aa-9db9-dac39bfb9350"
    assert digest.cwd == "/tmp/e2e/proj"
    assert digest.prompts == ["Please run the demo skill"]
    assert digest.assistant_texts == [
        "I'll load the demo skill first.",
        "All done: skill loaded and file read. FINAL-ANSWER-MARKER",
    ]
    assert digest.skills_used == ["demo"]
    assert [(c.name, c.input) for c in digest.tool_calls] == [
        ("Skill", {"skill": "demo"}),
        ("Read", {"file_path": "/tmp/e2e/proj/notes.txt"}),
    ]
    assert digest.tool_calls[1].output == "1\tNOTES-FILE-MARKER: hello from notes.txt\n2\t"
    assert digest.errors == []
    assert digest.error_fix_pairs() == []


def test_claude_slash_command_plugin_read_and_resume() -> None:
    digest = read_session(fixture("claude_slash_transcript.jsonl"))
    assert digest.session_id == "77b17181-bd23-4dfb-a693-e6b6125be81b"
    # The slash command is one prompt (as typed); its skill body (isMeta) is not.
    assert digest.prompts == [
        "/python-imports make nosuchmod importable",
        "Now show me lib/nosuchmod.py",
    ]
    assert digest.assistant_texts == [
        "Reading the plugin skill too.",
        "First task done.",
        "Second task done.",
    ]
    assert calls_summary(digest) == [
        ("Read", False, None),
        ("Bash", True, 1),
        ("Bash", False, None),
        ("Bash", False, None),
    ]
    assert digest.tool_calls[0].input == {
        "file_path": f"{ROOT}/proj/vendor/plugin-dir/skills/plugskill/SKILL.md"
    }
    assert digest.tool_calls[1].output == "Exit code 1\n" + TRACEBACK
    assert digest.tool_calls[2].input["command"] == SLASH_FIX
    assert digest.tool_calls[2].output == "(Bash completed with no output)"
    assert digest.error_fix_pairs() == [(digest.tool_calls[1], digest.tool_calls[2])]
    # The plugin's manifest is not on this disk, so the Read gives the bare skill name.
    assert digest.skills_used == ["python-imports", "plugskill"]


def test_claude_plugin_read_is_named_after_the_manifest_on_disk(tmp_path: Path) -> None:
    """Materialise the recorded temp root: the Read of the plugin SKILL.md is `e2eplug:...`."""
    text = (SESSIONS / "claude_slash_transcript.jsonl").read_text(encoding="utf-8")
    path = tmp_path / "t.jsonl"
    path.write_text(text.replace(ROOT, str(tmp_path)), encoding="utf-8")
    manifest = tmp_path / "proj" / "vendor" / "plugin-dir" / ".claude-plugin" / "plugin.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"name": "e2eplug", "version": "0.0.1"}), encoding="utf-8")
    assert read_session(str(path)).skills_used == ["python-imports", "e2eplug:plugskill"]


# ----------------------------------------------------------------------------- recorded: Codex


def test_codex_fixture_exact() -> None:
    digest = read_codex_rollout(fixture("codex_rollout.jsonl"))
    cat = ToolCall(
        "call_81c6ceed127d4ad98fc0929e",
        "exec_command",
        {"cmd": f"cat {ROOT}/home/.codex/skills/python-imports/SKILL.md"},
        SKILL_MD,
        False,
        0,
    )
    fail = ToolCall(
        "call_99487a01a7084672b87f0309",
        "exec_command",
        {"cmd": FAIL_CMD},
        TRACEBACK + "\n",
        True,
        1,
    )
    fix = ToolCall(
        "call_e0e22322dc0749148a375a6d", "exec_command", {"cmd": FIX_CMD}, "42\n", False, 0
    )
    assert digest == SessionDigest(
        agent="codex",
        session_id="01a228c7-6a9d-7281-8a58-4d853b30b406",
        cwd=f"{ROOT}/proj",
        prompts=[PROMPT],  # not the <environment_context> user message
        assistant_texts=[FINAL],
        tool_calls=[cat, fail, fix],
        skills_used=["python-imports"],
        truncated=False,
    )
    assert digest.errors == [fail]
    assert digest.error_fix_pairs() == [(fail, fix)]


def test_codex_fixture_agrees_with_its_hook_payloads() -> None:
    digest = read_session(fixture("codex_rollout.jsonl"))
    payloads = hooks("codex_hooks.jsonl")
    assert digest.agent == "codex"
    assert {p["session_id"] for p in payloads} == {digest.session_id}
    prompt = [p["prompt"] for p in payloads if p["hook_event_name"] == "UserPromptSubmit"]
    assert digest.prompts == prompt
    pre = [p for p in payloads if p["hook_event_name"] == "PreToolUse"]
    assert [c.id for c in digest.tool_calls] == [p["tool_use_id"] for p in pre]
    # Hooks call it "Bash" with "command"; the rollout keeps exec_command's own "cmd".
    assert [c.input["cmd"] for c in digest.tool_calls] == [p["tool_input"]["command"] for p in pre]


def test_codex_skill_mention_agents_md_and_resume() -> None:
    digest = read_session(fixture("codex_mention_rollout.jsonl"))
    assert digest.agent == "codex"
    assert digest.session_id == "01a228ce-8258-7b32-b867-c88310c69770"
    # Not the AGENTS.md + environment_context message, nor the injected <skill> message.
    assert digest.prompts == ["$python-imports make `import nosuchmod` work", "now list lib"]
    assert digest.assistant_texts == ["First done.", "Second done."]
    # `$python-imports` injected the skill; then `sed -n` read a relative .agents skill.
    assert digest.skills_used == ["python-imports", "repo-notes"]
    assert calls_summary(digest) == [
        ("exec_command", False, 0),
        ("exec_command", True, 1),
        ("exec_command", False, 0),
        ("exec_command", False, 0),
    ]
    assert digest.tool_calls[2].output == ""
    assert digest.tool_calls[3].output == "__pycache__\nnosuchmod.py\n"
    assert digest.error_fix_pairs() == [(digest.tool_calls[1], digest.tool_calls[2])]


# ----------------------------------------------------------------------------- bounded reading


class CountingFile(io.RawIOBase):
    """Wraps a binary file and counts the bytes read through it."""

    def __init__(self, handle: Any, counter: list[int]) -> None:
        self.handle = handle
        self.counter = counter

    def seek(self, offset: int, whence: int = 0) -> int:
        return int(self.handle.seek(offset, whence))

    def read(self, size: int | None = -1) -> bytes:
        data = bytes(self.handle.read(size))
        self.counter.append(len(data))
        return data

    def close(self) -> None:
        self.handle.close()
        super().close()


@pytest.fixture
def bytes_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Sizes of every read the tail reader makes (it opens files through its module's `open`)."""
    counter: list[int] = []

    def counting_open(path: str, mode: str = "r", *args: Any, **kwargs: Any) -> CountingFile:
        assert mode == "rb"
        return CountingFile(open(path, mode, *args, **kwargs), counter)

    monkeypatch.setattr(transcript_tail, "open", counting_open, raising=False)
    return counter


def claude_prompt_line(text: str) -> dict[str, Any]:
    return {
        "type": "user",
        "sessionId": "s1",
        "cwd": "/p",
        "message": {"role": "user", "content": text},
    }


def claude_tool_lines(call_id: str, command: str, result: str, error: bool) -> list[dict[str, Any]]:
    use = {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}
    res = {"type": "tool_result", "tool_use_id": call_id, "content": result, "is_error": error}
    return [
        {"type": "assistant", "sessionId": "s1", "message": {"id": "m", "content": [use]}},
        {"type": "user", "sessionId": "s1", "message": {"content": [res]}, "toolUseResult": result},
    ]


@pytest.fixture(scope="module")
def huge_transcript(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A 60 MB Claude transcript: an old prompt, 60 MB of assistant text, a new task."""
    path = tmp_path_factory.mktemp("huge") / "huge.jsonl"
    filler = json.dumps(
        {
            "type": "assistant",
            "sessionId": "s1",
            "message": {"content": [{"type": "text", "text": "x" * 1000}]},
        }
    )
    with path.open("w", encoding="utf-8") as handle:
        handle.write(json.dumps(claude_prompt_line("OLD PROMPT")) + "\n")
        handle.write((filler + "\n") * 60_000)
        for line in [
            claude_prompt_line("NEW PROMPT"),
            *claude_tool_lines("t1", "cat /p/.claude/skills/pdf/SKILL.md", "body", False),
            *claude_tool_lines("t2", "make", "Exit code 2\nboom", True),
        ]:
            handle.write(json.dumps(line) + "\n")
    assert path.stat().st_size > 60_000_000
    return str(path)


def test_huge_transcript_reads_only_the_tail(huge_transcript: str, bytes_read: list[int]) -> None:
    digest = read_claude_transcript(huge_transcript, max_bytes=1_000_000)
    assert sum(bytes_read) == 1_000_000  # exactly the window, once
    assert digest.truncated
    assert digest.prompts == ["NEW PROMPT"]  # OLD PROMPT is 60 MB back: never read
    assert digest.skills_used == ["pdf"]
    assert calls_summary(digest) == [("Bash", False, None), ("Bash", True, 2)]
    assert len(digest.assistant_texts) < 1000


def test_huge_transcript_default_caps(huge_transcript: str, bytes_read: list[int]) -> None:
    digest = read_session(huge_transcript)
    assert sum(bytes_read) == 4_000_000
    assert digest.truncated
    assert len(digest.assistant_texts) <= 3000  # max_lines
    assert digest.prompts == ["NEW PROMPT"]


def test_latest_prompts_on_a_huge_file(huge_transcript: str, bytes_read: list[int]) -> None:
    assert latest_prompts(huge_transcript) == ["NEW PROMPT"]
    assert sum(bytes_read) == 256_000


def test_max_lines_keeps_the_last_lines(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", [claude_prompt_line(f"p{i}") for i in range(10)])
    assert read_claude_transcript(path, max_lines=3).prompts == ["p7", "p8", "p9"]
    assert read_claude_transcript(path, max_lines=3).truncated
    assert not read_claude_transcript(path, max_lines=10).truncated


def test_tail_window_drops_the_partial_first_line(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "t.jsonl", [claude_prompt_line("a" * 100), claude_prompt_line("b")]
    )
    last = json.dumps(claude_prompt_line("b")) + "\n"
    lines, truncated = read_tail_lines(path, len(last) + 10)
    assert (lines, truncated) == ([last.rstrip("\n").encode()], True)
    assert read_tail_lines(path, 5) == ([], True)
    assert read_claude_transcript(path, max_bytes=len(last) + 10).prompts == ["b"]


def test_lines_split_on_newline_only(tmp_path: Path) -> None:
    """A raw U+2028 inside a JSON string (ensure_ascii=False) is not a line break."""
    path = tmp_path / "t.jsonl"
    line = json.dumps(claude_prompt_line("one\u2028two"), ensure_ascii=False)
    path.write_text(line + "\n", encoding="utf-8")
    assert read_session(str(path)).prompts == ["one\u2028two"]


def test_stored_strings_are_capped(tmp_path: Path) -> None:
    long_cmd = "echo " + "y" * 5000 + " && cat /p/skills/late/SKILL.md"
    output = "HEAD" + "z" * 10_000 + "TAIL"
    lines = [
        claude_prompt_line("P" * 10_000),
        *claude_tool_lines("t1", long_cmd, output, False),
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "T" * 9000}]}},
    ]
    digest = read_session(write_jsonl(tmp_path / "t.jsonl", lines))
    call = digest.tool_calls[0]
    assert len(call.output) == OUTPUT_CHARS
    assert call.output.startswith("HEAD") and call.output.endswith("TAIL")
    assert "chars cut" in call.output
    assert len(digest.prompts[0]) == PROMPT_CHARS
    assert len(digest.assistant_texts[0]) == 4000
    assert len(str(call.input["command"])) == 2000
    assert digest.skills_used == ["late"]  # detected on the full command, before capping


# ----------------------------------------------------------------------------- malformed input


def test_malformed_claude_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    good = [
        claude_prompt_line("real prompt"),
        *claude_tool_lines("t1", "ls", "a\nb", False),
    ]
    junk = [
        "not json",
        "{",
        "[1, 2]",
        "null",
        '"a string"',
        json.dumps({"type": "user", "message": 5}),
        json.dumps({"type": "user", "message": {"content": 5}}),
        json.dumps({"type": "assistant", "message": {"content": "not a list"}}),
        json.dumps({"type": "assistant", "message": {"content": [5, None, {"type": "tool_use"}]}}),
        json.dumps(
            {
                "type": "assistant",
                "message": {"content": [{"type": "tool_use", "id": 3, "name": "X"}]},
            }
        ),
        json.dumps(
            {
                "type": "user",
                "message": {"content": [{"type": "tool_result", "tool_use_id": "nope"}]},
            }
        ),
    ]
    with path.open("wb") as handle:
        handle.write(b"\xff\xfe\x00garbage\n\n   \n")
        for text in [*junk[:6], *map(json.dumps, good), *junk[6:]]:
            handle.write(text.encode() + b"\n")
        handle.write(b'{"type": "user", "message": {"content": "cut mid-li')  # no newline
    digest = read_claude_transcript(str(path))
    assert digest.prompts == ["real prompt"]
    assert calls_summary(digest) == [("Bash", False, None)]
    assert digest.tool_calls[0].output == "a\nb"
    assert digest.session_id == "s1"


def test_malformed_codex_lines_are_skipped(tmp_path: Path) -> None:
    lines: list[Any] = [
        "garbage",
        {"type": "response_item"},
        {"type": "response_item", "payload": "str"},
        {"type": "response_item", "payload": {"type": "message", "role": "user", "content": "x"}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "exec_command"}},
        {"type": "event_msg", "payload": {"type": "item_completed", "item": "x"}},
        {
            "type": "event_msg",
            "payload": {"type": "exec_command_end", "call_id": "nope", "exit_code": 3},
        },
        {"type": "session_meta", "payload": {"id": "sid", "cwd": "/r"}},
        {
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "exec_command",
                "arguments": "{bad",
                "call_id": "c1",
            },
        },
        {
            "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": "c1", "output": 5},
        },
    ]
    digest = read_session(write_jsonl(tmp_path / "r.jsonl", lines))
    assert digest.agent == "codex"
    assert digest.session_id == "sid"
    assert [(c.name, c.input, c.output, c.exit_code) for c in digest.tool_calls] == [
        ("exec_command", {"arguments": "{bad"}, "", None)
    ]


def test_unreadable_or_unknown_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput):
        read_session(str(tmp_path / "missing.jsonl"))
    with pytest.raises(InvalidInput):
        read_claude_transcript(str(tmp_path))  # a directory
    (tmp_path / "other.jsonl").write_text('{"hello": 1}\nnot json\n', encoding="utf-8")
    with pytest.raises(InvalidInput):
        read_session(str(tmp_path / "other.jsonl"))
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(InvalidInput):
        read_session(str(tmp_path / "empty.jsonl"))
    assert read_claude_transcript(str(tmp_path / "empty.jsonl")).tool_calls == []


def test_detect_agent() -> None:
    claude = Path(fixture("claude_transcript.jsonl")).read_bytes().split(b"\n")
    codex = Path(fixture("codex_rollout.jsonl")).read_bytes().split(b"\n")
    assert detect_agent(claude) == "claude"
    assert detect_agent(codex) == "codex"
    assert detect_agent([b"junk", *codex[5:]]) == "codex"
    assert detect_agent([b"junk", b"{}"]) is None


# ----------------------------------------------------------------------------- Claude specifics


def test_claude_injections_are_not_prompts(tmp_path: Path) -> None:
    def user(content: Any, **extra: Any) -> dict[str, Any]:
        return {"type": "user", "message": {"role": "user", "content": content}, **extra}

    lines = [
        user("first"),
        user("Base directory for this skill: /x\n\nbody", isMeta=True),
        user([{"type": "text", "text": "skill body"}], isMeta=True),
        user("<system-reminder>\nctx\n</system-reminder>"),
        user("<local-command-stdout>cleared</local-command-stdout>"),
        user("Caveat: The messages below were generated by the user while running local commands."),
        user("Stop hook feedback:\nkeep going"),
        user("[Request interrupted by user for tool use]"),
        user("summary of earlier work", isCompactSummary=True),
        user("subagent prompt", isSidechain=True),
        user("<bash-input>ls</bash-input>"),
        user("   "),
        user(
            [
                {"type": "text", "text": "<system-reminder>x</system-reminder>"},
                {"type": "text", "text": "second"},
                {"type": "image", "source": {}},
            ]
        ),
    ]
    digest = read_session(write_jsonl(tmp_path / "t.jsonl", lines))
    assert digest.prompts == ["first", "second"]
    assert digest.skills_used == []


def test_claude_slash_commands(tmp_path: Path) -> None:
    def command(name: str, args: str = "") -> dict[str, Any]:
        text = f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>"
        text += f"\n<command-args>{args}</command-args>" if args else ""
        return claude_prompt_line(text)

    body = {"type": "user", "isMeta": True, "message": {"content": [{"type": "text", "text": "B"}]}}
    lines = [
        command("clear"),  # a built-in local command: no expansion follows
        claude_prompt_line("<local-command-stdout></local-command-stdout>"),
        {"type": "user", "isMeta": True, "message": {"content": "Caveat: The messages below"}},
        command("pdf", "report.pdf"),
        body,
        command("e2eplug:plugskill"),
        body,
        claude_prompt_line("plain prompt"),
        body,  # an isMeta line not after a command: no skill
    ]
    digest = read_session(write_jsonl(tmp_path / "t.jsonl", lines))
    assert digest.prompts == ["/clear", "/pdf report.pdf", "/e2eplug:plugskill", "plain prompt"]
    assert digest.skills_used == ["pdf", "e2eplug:plugskill"]


def test_claude_failed_skill_loads_are_not_skills_used(tmp_path: Path) -> None:
    def call(
        call_id: str, name: str, tool_input: dict[str, Any], result: str, error: bool
    ) -> list[Any]:
        use = {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}
        res = {"type": "tool_result", "tool_use_id": call_id, "content": result, "is_error": error}
        return [
            {"type": "assistant", "cwd": "/p", "message": {"content": [use]}},
            {"type": "user", "message": {"content": [res]}},
        ]

    lines = [
        *call("a", "Skill", {"skill": "ghost"}, "Unknown skill: ghost", True),
        *call(
            "b", "Read", {"file_path": "/p/skills/missing/SKILL.md"}, "File does not exist.", True
        ),
        *call("c", "Read", {"file_path": ".claude/skills/real/SKILL.md"}, "body", False),
        *call("d", "Skill", {"skill": "pdf"}, "Launching skill: pdf", False),
        *call("e", "Skill", {"skill": "pdf"}, "Launching skill: pdf", False),
    ]
    digest = read_session(write_jsonl(tmp_path / "t.jsonl", lines))
    assert digest.skills_used == ["real", "pdf"]
    assert [(c.id, c.is_error, c.exit_code) for c in digest.errors] == [
        ("a", True, None),
        ("b", True, None),
    ]
    assert digest.error_fix_pairs() == [
        (digest.tool_calls[0], digest.tool_calls[3]),
        (digest.tool_calls[1], digest.tool_calls[2]),
    ]


def test_claude_tool_result_blocks(tmp_path: Path) -> None:
    use = {"type": "tool_use", "id": "t", "name": "Bash", "input": {"command": "x"}}
    blocks = [
        {"type": "text", "text": "one"},
        {"type": "image", "source": {}},
        {"type": "text", "text": "two"},
    ]
    res = {"type": "tool_result", "tool_use_id": "t", "content": blocks}
    lines = [
        {"type": "assistant", "message": {"content": [use]}},
        {"type": "user", "message": {"content": [res]}},
    ]
    digest = read_session(write_jsonl(tmp_path / "t.jsonl", lines))
    assert digest.tool_calls[0].output == "one\n[image]\ntwo"
    assert not digest.tool_calls[0].failed


# ----------------------------------------------------------------------------- Codex specifics


def codex_line(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "t", "type": kind, "payload": payload}


def codex_call(call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return codex_line(
        "response_item",
        {"type": "function_call", "name": name, "arguments": args, "call_id": call_id},
    )


def codex_output(call_id: str, output: Any) -> dict[str, Any]:
    return codex_line(
        "response_item", {"type": "function_call_output", "call_id": call_id, "output": output}
    )


def test_codex_older_output_formats(tmp_path: Path) -> None:
    """Formats of older Codex versions (synthetic: no recording of them exists here)."""
    lines = [
        codex_line("session_meta", {"id": "sid", "cwd": "/r"}),
        codex_call("a", "shell", {"command": ["bash", "-lc", "cat .codex/skills/x/SKILL.md"]}),
        codex_output("a", json.dumps({"output": "body\n", "metadata": {"exit_code": 0}})),
        codex_call("b", "shell", {"command": ["bash", "-lc", "false"]}),
        codex_output("b", json.dumps({"output": "", "metadata": {"exit_code": 1}})),
        codex_call("c", "exec_command", {"cmd": "make"}),
        codex_output("c", "Exit code: 2\nWall time: 0.1 seconds\nOutput:\nmake: *** boom\n"),
        codex_call("d", "exec_command", {"cmd": "ls"}),
        codex_line(
            "event_msg",
            {
                "type": "exec_command_end",
                "call_id": "d",
                "exit_code": 0,
                "aggregated_output": "f\n",
            },
        ),
        codex_line(
            "response_item",
            {
                "type": "custom_tool_call",
                "name": "apply_patch",
                "input": "*** Begin Patch",
                "call_id": "e",
            },
        ),
        codex_line(
            "response_item",
            {
                "type": "custom_tool_call_output",
                "call_id": "e",
                "output": {"content": "rejected", "success": False},
            },
        ),
        codex_line(
            "response_item",
            {
                "type": "local_shell_call",
                "call_id": "f",
                "action": {"command": ["cat", "/r/.agents/skills/y/SKILL.md"]},
            },
        ),
        codex_line(
            "response_item",
            {
                "type": "function_call_output",
                "call_id": "f",
                "output": [{"type": "input_text", "text": "body"}],
            },
        ),
    ]
    digest = read_session(write_jsonl(tmp_path / "r.jsonl", lines))
    assert [(c.id, c.name, c.output, c.is_error, c.exit_code) for c in digest.tool_calls] == [
        ("a", "shell", "body\n", False, 0),
        ("b", "shell", "", False, 1),
        ("c", "exec_command", "make: *** boom\n", False, 2),
        ("d", "exec_command", "f\n", False, 0),
        ("e", "apply_patch", "rejected", True, None),
        ("f", "local_shell", "body", False, None),
    ]
    assert [c.id for c in digest.errors] == ["b", "c", "e"]
    assert digest.skills_used == ["x", "y"]


def test_codex_prompts_without_provenance_metadata(tmp_path: Path) -> None:
    """Older rollouts have no content_item_metadata: injected blocks are known by prefix."""

    def user(*texts: str) -> dict[str, Any]:
        content = [{"type": "input_text", "text": t} for t in texts]
        return codex_line("response_item", {"type": "message", "role": "user", "content": content})

    lines = [
        user("<user_instructions>\nbe nice\n</user_instructions>"),
        user(
            "# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nx\n</INSTRUCTIONS>",
            "<environment_context>\n</environment_context>",
        ),
        user("fix the build"),
        user(
            "<skill>\n<name>deploy</name>\n<path>/r/.codex/skills/deploy/SKILL.md</path>\nbody\n</skill>"
        ),
        user("<skill>\n<name>named-only</name>\nbody\n</skill>"),
        user("<turn_aborted>\n</turn_aborted>"),
        user("part one", "part two"),
        codex_line(
            "response_item",
            {
                "type": "message",
                "role": "developer",
                "content": [{"type": "input_text", "text": "HOOK"}],
            },
        ),
    ]
    digest = read_session(write_jsonl(tmp_path / "r.jsonl", lines))
    assert digest.prompts == ["fix the build", "part one\npart two"]
    assert digest.skills_used == ["deploy", "named-only"]
    assert latest_prompts(str(tmp_path / "r.jsonl"), 5) == digest.prompts


# ----------------------------------------------------------------------------- error/fix pairs


def test_error_fix_pairs() -> None:
    def call(call_id: str, name: str, failed: bool) -> ToolCall:
        return ToolCall(call_id, name, {}, "", failed, None)

    calls = [
        call("a1", "Bash", True),
        call("a2", "Bash", True),
        call("b1", "Edit", True),
        call("a3", "Bash", False),
        call("a4", "Bash", False),
        call("b2", "Edit", False),
        call("c1", "Read", True),
    ]
    exit_failed = ToolCall("x", "exec_command", {}, "", False, 3)
    digest = SessionDigest("claude", None, None, [], [], [*calls, exit_failed], [], False)
    assert [(f.id, fix.id if fix else None) for f, fix in digest.error_fix_pairs()] == [
        ("a1", "a3"),
        ("a2", "a3"),
        ("b1", "b2"),
        ("c1", None),
        ("x", None),
    ]
    assert [c.id for c in digest.errors] == ["a1", "a2", "b1", "c1", "x"]
    assert digest.tool_call_count == 8


# ----------------------------------------------------------------------------- latest rollout


def touch(path: Path, mtime: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}\n", encoding="utf-8")
    os.utime(path, (mtime, mtime))


def test_latest_codex_rollout(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    assert latest_codex_rollout(str(tmp_path)) is None
    touch(sessions / "2025/12/31/rollout-2025-12-31T23-59-59-old.jsonl", 5_000)
    assert latest_codex_rollout(str(tmp_path)) == str(
        sessions / "2025/12/31/rollout-2025-12-31T23-59-59-old.jsonl"
    )
    touch(sessions / "2026/01/02/rollout-2026-01-02T08-00-00-a.jsonl", 3_000)
    newest = sessions / "2026/01/02/rollout-2026-01-02T09-00-00-b.jsonl"
    touch(newest, 1_000)  # the name wins over an older mtime
    touch(sessions / "2026/01/02/notes.jsonl", 9_000)
    touch(sessions / "2026/01/02/rollout-2026-01-02T23-00-00-c.txt", 9_000)
    (sessions / "2026/01/03").mkdir(parents=True)  # a newer day without rollouts
    (sessions / "2026/01/xx").mkdir(parents=True)
    assert latest_codex_rollout(str(tmp_path)) == str(newest)
    # Same second in the name: the mtime decides.
    tie = sessions / "2026/01/02/rollout-2026-01-02T09-00-00-a.jsonl"
    touch(tie, 2_000)
    assert latest_codex_rollout(str(tmp_path)) == str(tie)
    # Month 10 sorts after month 9.
    october = sessions / "2026/10/01/rollout-2026-10-01T00-00-00-z.jsonl"
    touch(october, 1)
    touch(sessions / "2026/9/30/rollout-2026-09-30T00-00-00-y.jsonl", 1)
    assert latest_codex_rollout(str(tmp_path)) == str(october)


# ----------------------------------------------------------------------------- latest_prompts


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("claude_transcript.jsonl", [PROMPT]),
        ("codex_rollout.jsonl", [PROMPT]),
        ("claude_sample_transcript.jsonl", ["Please run the demo skill"]),
        (
            "claude_slash_transcript.jsonl",
            ["/python-imports make nosuchmod importable", "Now show me lib/nosuchmod.py"],
        ),
        (
            "codex_mention_rollout.jsonl",
            ["$python-imports make `import nosuchmod` work", "now list lib"],
        ),
    ],
)
def test_latest_prompts_on_recordings(name: str, expected: list[str]) -> None:
    assert latest_prompts(fixture(name)) == expected
    assert latest_prompts(fixture(name), 1) == expected[-1:]
    assert latest_prompts(fixture(name), 10) == read_session(fixture(name)).prompts


def test_latest_prompts_edge_cases(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", [claude_prompt_line(f"p{i}") for i in range(5)])
    assert latest_prompts(path, 2) == ["p3", "p4"]
    assert latest_prompts(path, 0) == []
    assert latest_prompts(str(tmp_path / "missing.jsonl")) == []
    assert latest_prompts(str(tmp_path)) == []
    assert latest_prompts(None) == []  # type: ignore[arg-type]
    long = write_jsonl(tmp_path / "long.jsonl", [claude_prompt_line("q" * 9000)])
    assert [len(p) for p in latest_prompts(long)] == [4000]


def test_transcript_tail_imports_only_json_and_os() -> None:
    code = (
        "import sys; before = set(sys.modules); "
        "import fireworks_skill_memory.memory.sessions.transcript_tail; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    added = set(out.stdout.split())
    ours = {m for m in added if m.startswith("fireworks_skill_memory")}
    assert ours == {
        "fireworks_skill_memory",
        "fireworks_skill_memory.memory",
        "fireworks_skill_memory.memory.sessions",
        "fireworks_skill_memory.memory.sessions.transcript_tail",
    }
    for heavy in (
        "dataclasses",
        "typing",
        "pathlib",
        "shlex",
        "fireworks_skill_memory.memory.sessions.readers",
    ):
        assert heavy not in added
