"""Secret redaction for every piece of text that leaves the user's control.

Hooks capture error seeds, the distiller builds prompts from transcript excerpts, lessons
are stored, injected and logged: each passes its text through :func:`redact` (or
:func:`redact_obj` for JSON payloads) first.  A secret becomes a typed marker such as
``[REDACTED:anthropic_api_key]``; the text around it is kept byte for byte.

``find_secrets(text) -> list[Finding]``  sorted, non-overlapping spans with a kind
``redact(text) -> str``                  every finding replaced by ``marker(kind)``
``redact_obj(value) -> object``          deep copy of dicts/lists/tuples, strings redacted;
                                         a str under a secret-looking key is replaced whole
``marker(kind) -> str``                  ``"[REDACTED:<kind>]"``
``is_secret_key(name) -> str | None``    the kind for a secret-looking key name, else None

Idempotent (``redact(redact(x)) == redact(x)``), linear time, never raises.  The policies
are documented in the comment below (comments cost nothing at import).  The implementation
lives in ``memory/redact/engine.py`` and is imported, with its patterns compiled, on the
first call: importing this module imports nothing else.
"""

# What is detected.  Overlapping findings are merged; the most specific kind wins.
#  1. Private keys: "-----BEGIN ... PRIVATE KEY-----" to the matching END line (also PGP
#     "PRIVATE KEY BLOCK", JSON-escaped "\n" newlines); a truncated block with no END takes
#     the base64 / "Name: value" lines that follow.  PuTTY "Private-Lines:" bodies and
#     "AGE-SECRET-KEY-1..." too.  Kind private_key.
#  2. Provider tokens, by prefix + alphabet + length (see _PROVIDERS): Anthropic (sk-ant-;
#     sk-ant-oat/ort are anthropic_oauth_token), OpenAI (sk-, sk-proj-, sk-svcacct-,
#     sk-admin-), OpenRouter, AWS key ids (AKIA, ASIA, ABIA, ACCA), GitHub (ghp_ gho_ ghu_
#     ghs_ ghr_ github_pat_), GitLab (glpat- and siblings), Slack (xox?- xapp-, webhook
#     URLs), Discord webhooks, Google (AIza, GOCSPX-, ya29., 1//0), Stripe (sk|rk|pk x
#     live|test, whsec_), Hugging Face, npm, PyPI, SendGrid, DigitalOcean, Groq, xAI,
#     Replicate, Perplexity, Fireworks, Shopify, Databricks, Linear, Notion, Atlassian,
#     Doppler, Twilio, Mailgun, Sentry, Mapbox.  A token glued to a preceding [A-Za-z0-9_-]
#     is not one ("task-sk-list"), except right after a JSON escape ("\n") or "%3D".
#  3. JWTs: eyJ<header>.<payload>.<signature> (also unsigned, and 5-part JWE).
#  4. Credentials in context: an AWS secret key next to its key id; scheme://user:PASSWORD@
#     host (user and host kept: url_password); Authorization / Proxy-Authorization values
#     (bearer_token, basic_auth, authorization); "Bearer <token>"; "Basic <base64 of
#     user:pass>"; curl -u user:PASS; .netrc "password"; SQL IDENTIFIED BY '...' / WITH
#     PASSWORD '...'; Cookie / Set-Cookie values (cookie).
#  5. Assignments to a secret-looking name: KEY=value, export KEY=value, KEY: value (YAML,
#     headers), "key": "value" (also JSON inside JSON), key := value, key => value,
#     --flag value, --flag=value, URL query parameters.  Only the value is replaced; the
#     kind comes from the name (password, token, secret, api_key, private_key,
#     aws_secret_access_key, credentials, auth, signature, cookie).  Kept: $VAR, ${VAR},
#     %VAR%, <placeholder>, {{template}}, format strings, ***, "sk-...", empty, booleans,
#     None/null, numbers, type annotations (token: str), code references (api_key=api_key,
#     token=self.token, password=get_password(), "self.token = nextchar" with a spaced
#     "="), paths and URLs.  "key: word" mid-sentence is prose, not a secret.
#  6. Generic high-entropy tokens (kind high_entropy), see the entropy policy.
#
# Secret key names (is_secret_key): the name is split into lower-case words at _ - . and
# camelCase; trailing qualifiers are dropped (digits, value, data, b64, hex, raw, old, new,
# prod, dev, test, live, base...).  The last word decides: *password, *passwd, *passphrase,
# pwd, pass, pw -> password; *token, pat -> token; *secret -> secret; apikey, or key after
# api/access/secret/private/client/auth/session/signing/encryption/master/account/app/
# consumer/license/shared/storage/service/webhook/deploy/admin/hmac/jwt... -> api_key
# (private_key, aws_secret_access_key, secret for those qualifiers); credential(s)/creds ->
# credentials; *auth -> auth; sig/signature -> signature; *cookie -> cookie.  So
# max_tokens, token_count, tokenizer, TOKEN_URL, author, password_file, AWS_ACCESS_KEY_ID
# and a bare "key" are not secret; PWD / OLDPWD (directories) are not either.  "auth",
# "signature" and "cookie" names need a token-like value (8+ chars, letters and digits, not
# a dotted name or a hex digest).  DATABASE_URL-like names are not secret by themselves:
# the URL rule removes the password and keeps scheme, user, host and database readable.
#
# Hex policy (git SHAs): strings made only of hex digits (one letter case, "-" allowed) are
# never reported by the generic detector, whatever their length.  Commit ids (7-40 hex),
# SHA-256 digests, lockfile checksums and UUIDs are everywhere in agent transcripts and are
# not credentials.  A hex secret is still caught with context: a secret-looking name
# (SECRET_KEY=4f3c...), an Authorization / Bearer header, or a provider prefix (dop_v1_,
# dapi, sk-or-v1-, key-, SK...).
#
# Entropy policy (high_entropy): a maximal run of [A-Za-z0-9_+/.-] is cut at dots; a part
# of 20+ characters is judged whole unless it splits (at / + _ -) into 2+ word-like or
# hex pieces (a path, a snake/kebab name): then only the stretches between those pieces
# are judged.  A stretch is random when it has 16+ alphanumerics with letters AND digits,
# Shannon entropy >= min(3.5, log2(n) - 1) bits/char, no alphabet-like ascending runs, and
# a non-word shape: the share of its letters in word-like segments (CamelCase words with a
# vowel and no 5-consonant run, short acronyms) is < 0.65, or it has 4+ digit groups, or
# < 0.9 with 3+ digit groups.  Measured: 85-100% of random base62/base64/base32/hex-less
# tokens of 20-64 chars are caught (>= 96% from 32 chars); identifiers like
# Utf8JsonReaderWriterFactory2 or AmazonEBSCSIDriverPolicyV2 are not.  Exempt: API object
# ids (toolu_, msg_, req_, call_, chatcmpl-, resp_, wrkspc_...), lockfile hashes (sha512-,
# h1:, sha256:), data:...;base64, payloads, SSH public keys, certificate and public-key
# PEM blocks, and base64 of short readable text ("this is a test").  Runs over 512 chars
# are judged by their head and reported whole.
#
# Markers are inert: "[REDACTED:...]" never matches again, and redact() re-scans its own
# output (at most 4 passes), so redaction is idempotent.  Spans never cut a backslash
# escape in half, so redacted JSON text stays valid JSON.  bytes-like input is decoded as
# UTF-8 (errors replaced), anything else goes through str(); if the engine itself failed,
# redact() fails closed with "[REDACTED:unprocessable]".
#
# Performance: nothing is compiled at import; "re" is imported on first use.  A scan is
# three linear passes (token runs, keywords in the lower-cased text, "://") plus anchored
# matches at the hits; quantifiers that can backtrack are bounded.
#
# Limits: a secret in free prose with no name, prefix or header ("my password is hunter2")
# is missed; so are hex-only, letters-only, word-like or short (< 20 chars) secrets without
# context; a generic token glued to other word characters is judged as the text cuts it.

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - typing only, keeps the import cheap
    from types import ModuleType

__all__ = ["Finding", "find_secrets", "is_secret_key", "marker", "redact", "redact_obj"]

MARKER_PREFIX = "[REDACTED:"
_UNPROCESSABLE = "[REDACTED:unprocessable]"
_MAX_PASSES = 4
_MAX_DEPTH = 200


class Finding:
    """One secret: ``text[start:end]`` is to be replaced by ``marker(kind)``.

    Behaves like a ``@dataclass(frozen=True)`` (equality, hash, repr, immutable) but is
    written by hand: importing :mod:`dataclasses` costs ~20 ms, too much for a hook.
    """

    __slots__ = ("end", "kind", "start")
    __match_args__ = ("kind", "start", "end")

    kind: str
    start: int
    end: int

    def __init__(self, kind: str, start: int, end: int) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Finding is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Finding is immutable (cannot delete {name!r})")

    def __repr__(self) -> str:
        return f"Finding(kind={self.kind!r}, start={self.start}, end={self.end})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Finding):
            return NotImplemented
        return (self.kind, self.start, self.end) == (other.kind, other.start, other.end)

    def __hash__(self) -> int:
        return hash((self.kind, self.start, self.end))


def marker(kind: str) -> str:
    """The typed marker that replaces a secret: ``[REDACTED:<kind>]``.

    ``kind`` is normalised to ``[a-z0-9_]`` (at most 40 characters) so that every marker is
    recognised as one by later passes.
    """
    clean = "".join(c if c.isascii() and c.isalnum() else "_" for c in str(kind).lower())
    return f"{MARKER_PREFIX}{clean.strip('_')[:40] or 'secret'}]"


_ENGINE: list[ModuleType] = []


def _engine() -> ModuleType:
    """The implementation module, imported (and its patterns compiled) on first use."""
    if not _ENGINE:
        from fireworks_skill_memory.memory.redact import engine as _redact_engine

        _ENGINE.append(_redact_engine)
    return _ENGINE[0]


def _as_text(text: object) -> str:
    if isinstance(text, str):
        return text
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text).decode("utf-8", errors="replace")
    try:
        return str(text)
    except Exception:  # noqa: BLE001 - a broken __str__ must not break redaction
        return ""


def find_secrets(text: str) -> list[Finding]:
    """Sorted, non-overlapping secrets found in ``text`` (positions refer to ``text``).

    Raises nothing: on an internal error the whole text is reported as one finding of
    kind ``unprocessable``.
    """
    s = _as_text(text)
    if len(s) < 8:
        return []
    try:
        return [Finding(kind, start, end) for kind, start, end in _engine().find(s)]
    except Exception:  # noqa: BLE001 - fail closed
        return [Finding("unprocessable", 0, len(s))]


def redact(text: str) -> str:
    """``text`` with every secret replaced by its typed marker. Idempotent; never raises."""
    s = _as_text(text)
    try:
        for _ in range(_MAX_PASSES):
            if len(s) < 8:
                return s
            findings = _engine().find(s)
            if not findings:
                return s
            parts: list[str] = []
            pos = 0
            for kind, start, end in findings:
                parts.append(s[pos:start])
                parts.append(marker(kind))
                pos = end
            parts.append(s[pos:])
            s = "".join(parts)
        return s
    except Exception:  # noqa: BLE001 - fail closed: never let an unscanned text out
        return _UNPROCESSABLE


def is_secret_key(name: str) -> str | None:
    """The marker kind for a key name that looks secret (``GITHUB_TOKEN`` -> "token"), else None.

    Used for ``KEY=value`` style assignments and for dict keys in :func:`redact_obj`; the
    policy is described at the top of this module.
    """
    try:
        kind: str | None = _engine().secret_key_kind(name)
    except Exception:  # noqa: BLE001 - never raise
        return None
    return kind


def redact_obj(value: object) -> object:
    """Deep-redact a JSON-like value: strings inside dicts, lists and tuples.

    A string value whose dict key looks secret (:func:`is_secret_key`) is replaced whole by
    the key's marker unless it is a placeholder (``""``, ``"$TOKEN"``, ``"***"``...).  Dict
    keys are redacted too; bytes are redacted as UTF-8 text.  Other objects are returned
    unchanged; containers are copied, the input is never modified.  Cycles and nesting
    deeper than 200 levels are replaced by ``[REDACTED:unprocessable]``.
    """
    try:
        return _redact_obj(value, 0, set())
    except Exception:  # noqa: BLE001 - fail closed
        return _UNPROCESSABLE


def _redact_obj(value: object, depth: int, seen: set[int]) -> object:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, (bytes, bytearray)):
        text = value.decode("utf-8", errors="surrogateescape")
        return redact(text).encode("utf-8", errors="surrogateescape")
    if not isinstance(value, (dict, list, tuple)):
        return value
    if depth >= _MAX_DEPTH or id(value) in seen:
        return _UNPROCESSABLE
    seen.add(id(value))
    try:
        if isinstance(value, dict):
            out: dict[object, object] = {}
            for k, v in value.items():
                kind = is_secret_key(k) if isinstance(k, str) else None
                if kind is not None and isinstance(v, str) and not _engine().looks_placeholder(v):
                    out[_redact_obj(k, depth + 1, seen)] = marker(kind)
                else:
                    out[_redact_obj(k, depth + 1, seen)] = _redact_obj(v, depth + 1, seen)
            return out
        items = [_redact_obj(v, depth + 1, seen) for v in value]
        return items if isinstance(value, list) else tuple(items)
    finally:
        seen.discard(id(value))
