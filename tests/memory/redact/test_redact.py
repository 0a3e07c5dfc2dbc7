"""redact.redactor: every corpus secret disappears, look-alikes survive, and it never breaks."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fireworks_skill_memory.memory.redact.redactor import (
    Finding,
    find_secrets,
    is_secret_key,
    marker,
    redact,
    redact_obj,
)
from tests.secret_corpus import BENIGN, CASES, SECRETS, SecretCase

REPO = Path(__file__).resolve().parents[3]
IDS = [case.name for case in CASES]


# ------------------------------------------------------------------- corpus sanity


def test_corpus_is_large_and_unambiguous() -> None:
    assert len(SECRETS) >= 60
    assert len(BENIGN) >= 40
    assert len({case.name for case in CASES}) == len(CASES)
    assert len({case.core for case in CASES}) == len(CASES)
    for case in CASES:
        assert case.core in case.text
        assert len(case.core) >= 12, case.name  # long enough that "not in" means something


def test_corpus_is_deterministic() -> None:
    code = "from tests.secret_corpus import SECRETS; print(hash(tuple(SECRETS)))"
    env = {"PYTHONHASHSEED": "0", "PATH": ""}
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for _ in range(2)
    }
    assert len(runs) == 1


# --------------------------------------------------------------------- contexts

# Realistic places where secrets show up.  Each wraps the case text; "kind" tells whether
# the expected marker kind must appear (contexts that add no secret-looking name of their
# own), or only that the secret is gone.
Context = Callable[[SecretCase], str]


def _shell(case: SecretCase) -> str:
    return f"$ ./deploy.sh --verbose {case.text} && echo done\n[deploy] exit 0"


def _json_blob(case: SecretCase) -> str:
    return json.dumps({"tool_name": "Bash", "tool_response": {"stdout": f"value: {case.text}\n"}})


def _traceback(case: SecretCase) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/app/client.py", line 42, in connect\n'
        "    session = open_session(config)\n"
        f"ValueError: rejected credential {case.text} (status 401)\n"
    )


def _env_dump(case: SecretCase) -> str:
    return f"HOME=/home/dev\nSHELL=/bin/bash\n{case.text}\nLANG=C.UTF-8\nTERM=xterm-256color\n"


def _curl(case: SecretCase) -> str:
    return f"curl -sS -X POST https://api.example.com/v1/items -d '{case.text}' -H 'Accept: */*'"


def _dotenv(case: SecretCase) -> str:
    return f"# .env\nDEBUG=false\nPORT=8080\n{case.text}\nLOG_LEVEL=info\n"


def _prose(case: SecretCase) -> str:
    return f"The agent printed {case.text} in the logs, so the next run must not do that."


def _markdown_lesson(case: SecretCase) -> str:
    return f"- [2026-01] [Auth] Login failed until the config used `{case.text}`.  [HIT:2]"


def _nested_json(case: SecretCase) -> str:
    inner = json.dumps({"command": f"run {case.text}"})
    return json.dumps({"type": "tool_result", "content": inner})


def _git_remote(case: SecretCase) -> str:
    return f"$ git remote add origin https://x-access-token:{case.text}@github.com/org/repo.git"


NEUTRAL_CONTEXTS: dict[str, Context] = {
    "shell": _shell,
    "json": _json_blob,
    "traceback": _traceback,
    "env_dump": _env_dump,
    "curl": _curl,
    "dotenv": _dotenv,
    "prose": _prose,
    "markdown": _markdown_lesson,
    "nested_json": _nested_json,
}


def _is_single_token(case: SecretCase) -> bool:
    return case.text == case.core and not any(c in case.text for c in " \n\\\"'@:/")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_secret_alone_is_replaced_by_its_marker(case: SecretCase) -> None:
    out = redact(case.text)
    assert case.core not in out
    assert marker(case.kind) in out


@pytest.mark.parametrize("context", list(NEUTRAL_CONTEXTS), ids=list(NEUTRAL_CONTEXTS))
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_secret_in_context(case: SecretCase, context: str) -> None:
    text = NEUTRAL_CONTEXTS[context](case)
    out = redact(text)
    assert case.core not in out
    assert marker(case.kind) in out
    if context in ("json", "nested_json"):
        json.loads(out)  # redacting JSON text keeps it valid JSON
    assert redact(out) == out


@pytest.mark.parametrize("case", [c for c in CASES if _is_single_token(c)], ids=lambda c: c.name)
def test_token_in_git_remote_url(case: SecretCase) -> None:
    out = redact(_git_remote(case))
    assert case.core not in out
    assert "@github.com/org/repo.git" in out
    assert "https://x-access-token:" in out


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_secret_inside_json_string_and_json_of_json(case: SecretCase) -> None:
    for payload in (
        json.dumps({"stdout": case.text}),
        json.dumps(json.dumps({"stdout": case.text})),
    ):
        decoded = json.loads(redact(payload))  # still valid JSON
        if isinstance(decoded, str):
            decoded = json.loads(decoded)  # and so is the JSON inside it
        assert case.core not in decoded["stdout"]
        assert "[REDACTED:" in decoded["stdout"]


def test_all_secrets_in_one_document() -> None:
    doc = "\n".join(f"{i}. {case.text}" for i, case in enumerate(CASES))
    out = redact(doc)
    for case in CASES:
        assert case.core not in out, case.name
    assert redact(out) == out


# ------------------------------------------------------------------------ benign


@pytest.mark.parametrize("text", BENIGN)
def test_benign_survives_byte_for_byte(text: str) -> None:
    assert redact(text) == text
    assert find_secrets(text) == []


@pytest.mark.parametrize("text", BENIGN)
def test_benign_survives_in_context(text: str) -> None:
    for wrapped in (
        f"Step 3: {text}\nthen continue.",
        json.dumps({"content": text, "is_error": False}),
        f"$ echo {text!r} | tee out.log",
    ):
        assert redact(wrapped) == wrapped


def test_benign_document_survives() -> None:
    doc = "\n".join(BENIGN)
    assert redact(doc) == doc


# ----------------------------------------------------------------------- policies


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # git SHA policy: hex-only strings survive in prose, are redacted under a secret name
        ("HEAD is now at 3f786850e387550fdab836ed7e6dc881de23001b", None),
        ("SECRET_KEY=3f786850e387550fdab836ed7e6dc881de23001b", "secret"),
        # placeholders and code references survive
        ("password=$DB_PASSWORD", None),
        ("api_key=api_key", None),
        ("token: str | None = None", None),
        ("self.password = password", None),
        ("password = get_password()", None),
        ('"password": ""', None),
        ("--password-stdin", None),
        ("max_tokens=4096", None),
        # literals are redacted
        ("password = 'correct horse battery staple'", "password"),
        ('"clientSecret": "q8Zr2LmN0pX7vB4c"', "secret"),
        ("X-Api-Key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "api_key"),
        ("spring.datasource.password=Zq7!pL2x", "password"),
        ("https://example.com/cb?code=abc&access_token=Zk29fJ3mQ8pLx0Tn", "token"),
        ("PGPASSWORD=Hx82kLq0", "password"),
    ],
)
def test_context_policies(text: str, expected: str | None) -> None:
    out = redact(text)
    if expected is None:
        assert out == text
    else:
        assert marker(expected) in out


def test_url_password_keeps_user_and_host() -> None:
    out = redact("DATABASE_URL=postgresql://app:Zx81!qP0wLm@db.prod.internal:5432/orders")
    assert (
        out == "DATABASE_URL=postgresql://app:[REDACTED:url_password]@db.prod.internal:5432/orders"
    )


def test_private_key_block_is_redacted_whole() -> None:
    key = next(c for c in CASES if c.name == "private_key_rsa").text
    out = redact(f"cat id_rsa\n{key}\n$ ls")
    assert out == "cat id_rsa\n[REDACTED:private_key]\n$ ls"


def test_truncated_private_key_takes_the_body_only() -> None:
    key = next(c for c in CASES if c.name == "private_key_openssh_truncated").text
    out = redact(f"{key}\n... (output truncated)\nnext command")
    assert out == "[REDACTED:private_key]\n... (output truncated)\nnext command"


def test_markers_are_inert_and_normalised() -> None:
    assert marker("anthropic_api_key") == "[REDACTED:anthropic_api_key]"
    assert marker("Weird Kind!") == "[REDACTED:weird_kind]"
    assert marker("") == "[REDACTED:secret]"
    text = "token=[REDACTED:token] url=https://u:[REDACTED:url_password]@h/x [REDACTED:jwt]"
    assert redact(text) == text


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("GITHUB_TOKEN", "token"),
        ("accessToken", "token"),
        ("_authToken", "token"),
        ("OPENAI_API_KEY", "api_key"),
        ("x-api-key", "api_key"),
        ("AWS_SECRET_ACCESS_KEY", "aws_secret_access_key"),
        ("client_secret", "secret"),
        ("DB_PASSWORD", "password"),
        ("PGPASSWORD", "password"),
        ("MYSQL_PWD", "password"),
        ("private_key", "private_key"),
        ("credentials", "credentials"),
        ("GH_PAT", "token"),
        ("max_tokens", None),
        ("token_count", None),
        ("tokenizer", None),
        ("TOKEN_URL", None),
        ("author", None),
        ("PWD", None),
        ("key", None),
        ("password_file", None),
        ("AWS_ACCESS_KEY_ID", None),
    ],
)
def test_is_secret_key(name: str, kind: str | None) -> None:
    assert is_secret_key(name) == kind


# ---------------------------------------------------------------------- find_secrets


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_find_secrets_spans_cover_the_core(case: SecretCase) -> None:
    text = _traceback(case)
    findings = find_secrets(text)
    assert findings == sorted(findings, key=lambda f: f.start)
    for a, b in itertools.pairwise(findings):
        assert a.end <= b.start
    core_start = text.index(case.core)
    core_end = core_start + len(case.core)
    covered = [f for f in findings if f.start < core_end and f.end > core_start]
    assert covered
    assert min(f.start for f in covered) <= core_start
    assert max(f.end for f in covered) >= core_end
    assert case.kind in {f.kind for f in covered}


def test_finding_is_a_frozen_value() -> None:
    f = Finding("jwt", 1, 5)
    assert f == Finding("jwt", 1, 5)
    assert hash(f) == hash(Finding("jwt", 1, 5))
    assert repr(f) == "Finding(kind='jwt', start=1, end=5)"
    with pytest.raises(AttributeError):
        f.kind = "x"  # type: ignore[misc]


# --------------------------------------------------------------------- redact_obj


def test_redact_obj_deep_and_key_aware() -> None:
    ghp = next(c for c in CASES if c.name == "github_ghp").core
    payload = {
        "tool_input": {"command": f"gh auth login --with-token {ghp}", "timeout": 30},
        "env": [{"name": "DB_PASSWORD", "value": "x"}, ("keep", 1, None)],
        "password": "hunter2hunter2",
        "api_key": "",
        "token": "$GITHUB_TOKEN",
        "count": 3,
        ghp: "a token as a key",
        "raw": ghp.encode(),
    }
    before = json.dumps(payload, default=repr)
    out = redact_obj(payload)
    assert json.dumps(payload, default=repr) == before  # input untouched
    assert isinstance(out, dict)
    assert out["tool_input"] == {
        "command": "gh auth login --with-token [REDACTED:github_token]",
        "timeout": 30,
    }
    assert out["password"] == "[REDACTED:password]"
    assert out["api_key"] == ""
    assert out["token"] == "$GITHUB_TOKEN"
    assert out["count"] == 3
    assert out["env"][1] == ("keep", 1, None)
    assert "[REDACTED:github_token]" in out
    assert out["raw"] == b"[REDACTED:github_token]"
    assert ghp not in json.dumps(out, default=repr)


def test_redact_obj_survives_cycles_and_depth() -> None:
    loop: list[object] = ["sk-ant-api03-x"]
    loop.append(loop)
    out = redact_obj(loop)
    assert isinstance(out, list)
    assert out[1] == "[REDACTED:unprocessable]"
    deep: object = "leaf"
    for _ in range(500):
        deep = [deep]
    redact_obj(deep)  # no RecursionError


# --------------------------------------------------------------------- robustness


class _BadStr:
    def __str__(self) -> str:
        raise RuntimeError("boom")


@pytest.mark.parametrize(
    "value",
    [
        "",
        "x",
        None,
        12345,
        b"\xff\xfe token=\x00\x01 sk-ant-api03-\xc3",
        bytearray(b"password=hunter22"),
        memoryview(b"AKIAIOSFODNN7EXAMPLE"),
        "\ud800 lone surrogate password=abc\udfff123",
        "\x00" * 1000,
        "é" * 10_000 + " password=Zq7pL2x9 " + "漢字" * 10_000,
        "İ" * 1000 + " token=abc123def456 " + "ß" * 1000,
        "🔑" * 5000,
        _BadStr(),
    ],
)
def test_never_raises(value: object) -> None:
    out = redact(value)  # type: ignore[arg-type]
    assert isinstance(out, str)
    assert redact(out) == out
    assert isinstance(find_secrets(value), list)  # type: ignore[arg-type]


def test_engine_failure_fails_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    from fireworks_skill_memory.memory.redact import engine

    def boom(text: str) -> list[tuple[str, int, int]]:
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "find", boom)
    assert redact("an unscannable text") == "[REDACTED:unprocessable]"
    assert find_secrets("an unscannable text") == [Finding("unprocessable", 0, 19)]
    assert redact_obj({"a": ["an unscannable text"]}) == {"a": ["[REDACTED:unprocessable]"]}


def test_non_ascii_text_keeps_offsets() -> None:
    text = "İİİ Authorization: Bearer Zk29fJ3mQ8pLx0TnWq4r ✓"
    out = redact(text)
    assert out == "İİİ Authorization: Bearer [REDACTED:bearer_token] ✓"


# ---------------------------------------------------------------------- hypothesis

DELIMS = [" ", "\n", "\t", '"', "'", "(", ")", ",", ";", "=", ": ", "`", "<", ">", "|", " & "]
FUZZ = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


@FUZZ
@given(st.text(max_size=2000))
def test_fuzz_never_raises_and_is_idempotent(text: str) -> None:
    once = redact(text)
    assert isinstance(once, str)
    assert redact(once) == once


@FUZZ
@given(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=400),
    st.text(max_size=400),
    st.sampled_from(CASES),
    st.sampled_from(DELIMS),
    st.sampled_from(DELIMS),
)
def test_fuzz_inserted_secret_never_survives(
    before: str, after: str, case: SecretCase, left: str, right: str
) -> None:
    text = before + left + case.text + right + after
    once = redact(text)
    assert case.core not in once
    assert redact(once) == once


@FUZZ
@given(
    st.lists(
        st.one_of(
            st.sampled_from([c.text for c in CASES]),
            st.sampled_from(BENIGN),
            st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40),
        ),
        max_size=12,
    ),
    st.sampled_from(["\n", " ", " | ", "\\n", '","']),
)
def test_fuzz_mixed_documents(parts: list[str], sep: str) -> None:
    text = sep.join(parts)
    once = redact(text)
    assert redact(once) == once
    for case in CASES:
        if case.text in parts:
            assert case.core not in once


@FUZZ
@given(
    st.recursive(
        st.one_of(
            st.none(), st.integers(), st.text(max_size=50), st.sampled_from([c.text for c in CASES])
        ),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(
                st.sampled_from(["password", "token", "data", "x"]), children, max_size=4
            )
        ),
        max_leaves=20,
    )
)
def test_fuzz_redact_obj(value: object) -> None:
    out = redact_obj(value)
    before = _strings(value)
    after = _strings(out)
    for case in CASES:
        if any(case.text in s for s in before):
            assert not any(case.core in s for s in after)
    assert redact_obj(out) == out


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


# ---------------------------------------------------------------- linear time


ADVERSARIAL = {
    "letters": "a" * 1_000_000,
    "base64ish": ("aB3+/x9Z" * 125_000),
    "sk_prefixes": "sk-ant-" * 150_000,
    "jwt_headers": "eyJ" * 340_000,
    "jwt_dots": "eyJhbGciOi." * 95_000,
    "begin_no_end": "-----BEGIN RSA PRIVATE KEY-----\n" + "QUJD\n" * 200_000,
    "begins": "-----BEGIN EC PRIVATE KEY-----" * 33_000,
    "assignments": 'password="' * 100_000,
    "assignments_sq": "token='x" * 125_000,
    "json_keys": '"api_key": "' * 85_000,
    "url_userinfo": "https://a:b" * 100_000,
    "url_at": "s://" + "a:" * 500_000 + "@",
    "authorization": "Authorization: Bearer " * 45_000,
    "escapes": "\\n" * 500_000,
    "keywords": "passtokenkeyauthsecretpwdcred" * 34_000,
    "flags": "--password " * 90_000,
    "aws": "AKIAIOSFODNN7EXAMPLE " * 47_000,
    "digits_letters": "a1" * 500_000,
    "markers": "[REDACTED:x]" * 80_000,
    "netrc": "machine h login u password " * 36_000,
    "public_begins": "-----BEGIN CERTIFICATE-----\n" * 36_000,
    "certificates": (
        "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0B\n"
        "-----END CERTIFICATE-----\n"
    )
    * 10_000,
    "backslash_runs": ("\\" * 50 + "AbC123xYz987QwE456rTyU") * 14_000,
    "percent_glued": "%3Dsk-proj-" * 95_000,
    "json_pairs": '{"a_token":"x1","b_password":"y2","c":"AbC123xYz987QwE456rTyU"},' * 15_000,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_adversarial_megabyte_finishes(name: str) -> None:
    text = ADVERSARIAL[name]
    assert len(text) >= 900_000
    start = time.perf_counter()
    out = redact(text)
    elapsed = time.perf_counter() - start
    assert isinstance(out, str)
    assert out != "[REDACTED:unprocessable]"
    assert elapsed < 30, f"{name}: {elapsed:.1f}s"


# --------------------------------------------------------------------- import cost


def test_import_is_cheap_and_compiles_nothing() -> None:
    code = (
        "import sys; import fireworks_skill_memory.memory; before = set(sys.modules); "
        "import fireworks_skill_memory.memory.redact.redactor; "
        "after = set(sys.modules); import json; print(json.dumps(sorted(after - before)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    # nothing but the module itself (and the tiny __future__ its annotations import)
    assert set(json.loads(out)) <= {
        "fireworks_skill_memory.memory.redact",
        "fireworks_skill_memory.memory.redact.redactor",
        "__future__",
    }
