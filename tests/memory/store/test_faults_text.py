"""A byte that is not UTF-8 in one skill's KNOWLEDGE.md breaks nothing else (issue 18.3).

The line is skipped for ranking and the index, named by `doctor` (file:line), and kept
byte for byte on every rewrite; other lines and other skills work as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.errors import InvalidLesson
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.knowledge_doc import BadLine, KnowledgeDoc
from fireworks_skill_memory.memory.store.lesson import (
    clean_tag,
    clean_text,
    escape_undecodable,
    lesson_id,
    parse_entry,
    undecodable_reason,
)
from tests.conftest import CliInvoker
from tests.hook_support import cli as cli_process
from tests.hook_support import running_service, service_env

LATIN1_LINE = b"- [2026-01] [Encoding] Le caf\xe9 du coin ferme t\xf4t  [HIT:2]"
ALPHA = (
    "# alpha — experience\n\n## Entries\n\n"
    "- [2026-01] [Upload] Use the staging bucket for large uploads  [HIT:3]\n"
).encode()


def decoded(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


# ---- the parser (fast) -------------------------------------------------------------------
def test_a_line_with_an_undecodable_byte_is_not_an_entry() -> None:
    line = decoded(LATIN1_LINE)
    assert parse_entry(line, "alpha") is None
    assert parse_entry("- [2026-01] [Encoding] Le café du coin  [HIT:2]", "alpha") is not None


def test_the_document_lists_bad_lines_and_keeps_them_verbatim() -> None:
    raw = ALPHA + LATIN1_LINE + b"\n- [2026-02] [Tail] a later lesson  [HIT:1]\n"
    doc = KnowledgeDoc.parse(decoded(raw), "alpha")
    assert [lesson.text for lesson in doc.lessons()] == [
        "Use the staging bucket for large uploads",
        "a later lesson",
    ]
    (bad,) = doc.bad_lines()
    assert bad == BadLine(6, "not valid UTF-8 (byte 0xe9 at column 30)", decoded(LATIN1_LINE))
    assert bad.shown == "- [2026-01] [Encoding] Le caf\\xe9 du coin ferme t\\xf4t  [HIT:2]"
    assert doc.render().encode("utf-8", "surrogateescape") == raw


def test_bad_lines_survive_edits_byte_for_byte() -> None:
    from fireworks_skill_memory.memory.store.lesson import new_lesson

    raw = ALPHA + LATIN1_LINE + b"\n"
    doc = KnowledgeDoc.parse(decoded(raw), "alpha")
    doc.append(new_lesson("Check quotas first", skill="alpha", month="2026-03", tag="Q"))
    doc.remove(doc.entries()[:1])
    written = doc.render().encode("utf-8", "surrogateescape")
    assert LATIN1_LINE + b"\n" in written
    assert b"Check quotas first" in written and b"staging bucket" not in written
    assert [line.number for line in doc.bad_lines()] == [6]  # numbers follow the document


def test_bad_bytes_in_headers_and_crlf_files_are_reported_too() -> None:
    raw = b"# caf\xe9 \xe2\x80\x94 experience\r\n\r\n- [A] fine\r\n- [B] \xff\xfe broken\r\n"
    doc = KnowledgeDoc.parse(decoded(raw), "x")
    assert [(line.number, line.reason) for line in doc.bad_lines()] == [
        (1, "not valid UTF-8 (byte 0xe9 at column 6)"),
        (4, "not valid UTF-8 (byte 0xff at column 7)"),
    ]
    assert [lesson.text for lesson in doc.lessons()] == ["fine"]
    assert doc.render().encode("utf-8", "surrogateescape") == raw


def test_lone_surrogates_from_json_are_bad_lines_too() -> None:
    assert undecodable_reason("- [A] x\ud800y") == (
        "not valid UTF-8 (lone surrogate U+D800 at column 8)"
    )
    assert parse_entry("- [A] x\ud800y") is None
    assert escape_undecodable("x\ud800\udce9") == "x\\ud800\\xe9"
    assert undecodable_reason("plain café — ok") is None


def test_ids_never_raise_on_surrogates() -> None:
    assert len(lesson_id("alpha", decoded(b"caf\xe9"))) == 10
    assert lesson_id("alpha", "café") == lesson_id("alpha", "CAFÉ ")  # valid text: unchanged


def test_new_text_with_undecodable_bytes_is_refused() -> None:
    with pytest.raises(InvalidLesson, match=r"not valid UTF-8 \(byte 0xe9 at column 4\)"):
        clean_text(decoded(b"caf\xe9 lesson"))
    with pytest.raises(InvalidLesson, match="tag text is not valid UTF-8"):
        clean_tag(decoded(b"T\xe9"))


def test_the_embedder_guard_replaces_surrogates() -> None:
    from fireworks_skill_memory.models.embedders import tokenizable

    assert tokenizable(decoded(b"caf\xe9 x")) == "caf\ufffd x"
    assert tokenizable("plain") == "plain"


def test_legacy_import_reports_the_lines_it_leaves_behind(
    cli: CliInvoker, env: dict[str, str]
) -> None:
    from fireworks_skill_memory.memory.config import load_settings
    from fireworks_skill_memory.memory.ingest.legacy import import_legacy
    from fireworks_skill_memory.memory.screen import RULES_SCREEN
    from fireworks_skill_memory.memory.store.markdown_store import Store

    store = Store(load_settings(env))
    add_lesson(store, "alpha", "Use the staging bucket for large uploads")
    legacy = Path(env["HOME"]) / ".claude" / "skills" / "alpha" / "KNOWLEDGE.md"
    legacy.parent.mkdir(parents=True)
    legacy.write_bytes(b"# alpha\n\n- [A] a legacy lesson\n" + LATIN1_LINE + b"\n")
    (result,) = import_legacy(store, RULES_SCREEN)
    assert result.copied == 1
    assert [line.number for line in result.not_copied] == [4]
    assert LATIN1_LINE not in Path(store.knowledge_path("alpha")).read_bytes()
    assert legacy.read_bytes().endswith(LATIN1_LINE + b"\n")  # the legacy file is untouched


# ---- the whole product, real model and real LanceDB --------------------------------------
@pytest.fixture
def latin1_home(cli_real: CliInvoker, env: dict[str, str]) -> Path:
    """Skills alpha and beta with lessons; alpha's file ends with a Latin-1 line."""
    for skill, text in (
        ("alpha", "Use the staging bucket for large uploads"),
        ("alpha", "Retry S3 uploads with exponential backoff"),
        ("beta", "Pin the docker image tag in the compose file"),
        ("beta", "Prune dangling docker volumes before a rebuild"),
    ):
        assert cli_real("add", "--skill", skill, text).exit_code == 0
    path = Path(env["AI_MEMORY_HOME"]) / "skills" / "alpha" / "KNOWLEDGE.md"
    with path.open("ab") as handle:
        handle.write(LATIN1_LINE + b"\n")
    return path


@pytest.mark.real_model
def test_other_skills_and_all_skills_commands_keep_working(
    cli_real: CliInvoker, latin1_home: Path
) -> None:
    inject = cli_real("inject", "--skill", "beta", "--task", "rebuild the docker image")
    assert inject.exit_code == 0, inject.output
    assert "Pin the docker image tag" in inject.output

    search = cli_real("search", "docker image tag", "--json")
    assert search.exit_code == 0, search.output
    found = {(hit["skill"], hit["text"]) for hit in json.loads(search.output)["results"]}
    assert ("beta", "Pin the docker image tag in the compose file") in found

    uploads = cli_real("search", "uploading large files to the bucket", "--json")
    texts = [hit["text"] for hit in json.loads(uploads.output)["results"]]
    assert texts[0] == "Use the staging bucket for large uploads"  # alpha's good lines count
    assert not any("caf" in text for text in texts)

    own = cli_real(
        "inject", "--skill", "alpha", "--task", "upload large files to the staging bucket"
    )
    assert own.exit_code == 0 and "staging bucket" in own.output

    show = cli_real("show", "--skill", "alpha", "--json")
    assert show.exit_code == 0
    assert len(json.loads(show.output)["lessons"]) == 2
    raw = cli_real("show", "--skill", "alpha", "--raw")
    assert raw.exit_code == 0 and raw.stdout_bytes == latin1_home.read_bytes()


@pytest.mark.real_model
def test_reindex_skips_the_bad_line(cli_real: CliInvoker, latin1_home: Path) -> None:
    result = cli_real("reindex")
    assert result.exit_code == 0, result.output
    search = cli_real("search", "coffee shop closes early", "--json")
    assert search.exit_code == 0
    hits = json.loads(search.output)["results"]
    assert 0 < len(hits) <= 4
    assert not any("caf" in hit["text"] for hit in hits)


@pytest.mark.real_model
def test_add_to_the_skill_keeps_the_bad_line_byte_for_byte(
    cli_real: CliInvoker, latin1_home: Path
) -> None:
    before = latin1_home.read_bytes()
    result = cli_real("add", "--skill", "alpha", "Compress artifacts before uploading them")
    assert result.exit_code == 0, result.output
    after = latin1_home.read_bytes()
    lines_before, lines_after = before.split(b"\n"), after.split(b"\n")
    added = [line for line in lines_after if line not in lines_before]
    assert len(added) == 1 and b"Compress artifacts before uploading them" in added[0]
    assert [line for line in lines_after if line != added[0]] == lines_before
    assert after.count(LATIN1_LINE + b"\n") == 1


@pytest.mark.real_model
def test_doctor_names_the_bad_line(
    cli_real: CliInvoker, latin1_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    number = latin1_home.read_bytes().split(b"\n").index(LATIN1_LINE) + 1
    result = cli_real("doctor", "--json")
    findings = json.loads(result.output)
    (text,) = [f for f in findings if f["check"] == "text"]
    assert text["status"] == "warn"
    assert text["detail"].startswith(f"{latin1_home}:{number}: not valid UTF-8 (byte 0xe9")
    assert not [f for f in findings if f["status"] == "fail"], findings


@pytest.mark.real_model
@pytest.mark.slow
def test_the_service_loads_and_answers(latin1_home: Path, env: dict[str, str]) -> None:
    service = service_env(Path(env["AI_MEMORY_HOME"]), Path(env["HOME"]))
    with running_service(service):  # waits until ready: a load error fails here
        done = cli_process(service, "search", "docker image tag", "--json")
        assert done.returncode == 0, done.stderr
        assert "Pin the docker image tag" in done.stdout
