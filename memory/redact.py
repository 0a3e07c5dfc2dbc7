"""Secret redaction for every piece of text that leaves the user's control.

Hooks capture error seeds, the distiller builds prompts from transcript excerpts,
lessons are written to markdown, injected back into the agent and logged: each of
these passes its text through :func:`redact` (or :func:`redact_obj` for JSON
payloads) first.  A secret is replaced by a typed marker such as
``[REDACTED:anthropic_api_key]``; the text around it is kept byte for byte.

API
---
``find_secrets(text) -> list[Finding]``   sorted, non-overlapping spans with a kind.
``redact(text) -> str``                   replaces every finding by ``marker(kind)``.
``redact_obj(value) -> object``           deep copy of dicts/lists/tuples with redacted
                                          strings; a str value under a secret-looking
                                          key (``{"password": "x"}``) is replaced whole.
``marker(kind) -> str``                   ``"[REDACTED:<kind>]"``.
``is_secret_key(name) -> str | None``     kind for a secret-looking key name, else None.

What is detected (first match wins when spans overlap; overlapping spans are merged)
----------------------------------------------------------------------------------
1. Private key blocks: ``-----BEGIN ... PRIVATE KEY-----`` through the matching END
   line (also PGP ``PRIVATE KEY BLOCK``, JSON-escaped ``\\n`` newlines, and truncated
   blocks with no END: the base64 body lines that follow are taken), PuTTY
   ``Private-Lines:`` bodies, ``AGE-SECRET-KEY-1...``.
2. Provider tokens recognised by prefix, length and alphabet: Anthropic (``sk-ant-``;
   ``sk-ant-oat``/``ort`` as ``anthropic_oauth_token``), OpenAI (``sk-``, ``sk-proj-``,
   ``sk-svcacct-``, ``sk-admin-``), OpenRouter, AWS access key ids (``AKIA``/``ASIA``/
   ``ABIA``/``ACCA``), GitHub (``ghp_ gho_ ghu_ ghs_ ghr_ github_pat_``), GitLab
   (``glpat-`` and siblings), Slack (``xoxb- xoxp- xoxa- xoxr- xoxs- xoxe- xapp-`` and
   webhook URLs), Discord webhooks, Google (``AIza``, ``GOCSPX-``, ``ya29.``, ``1//0``
   refresh tokens), Stripe (``sk|rk|pk`` x ``live|test``, ``whsec_``), Hugging Face,
   npm, PyPI, SendGrid, DigitalOcean, Groq, xAI, Replicate, Perplexity, Fireworks,
   Shopify, Databricks, Linear, Notion, Atlassian, Doppler, Twilio, Mailgun, Sentry,
   Mapbox secret tokens.
3. JWTs (``eyJ...``.``...``.``...``, also unsigned and 5-part JWE).
4. Credentials in context: AWS secret access keys next to an access key id,
   ``scheme://user:PASSWORD@host`` (user and host kept), ``Authorization:`` /
   ``Proxy-Authorization:`` header values (``Bearer``, ``Basic``, ``token`` ...),
   standalone ``Bearer <token>`` and ``Basic <base64 of user:pass>``, ``curl -u
   user:PASS``, ``.netrc`` ``password``, SQL ``IDENTIFIED BY '...'`` / ``WITH PASSWORD
   '...'``, ``Cookie:`` / ``Set-Cookie:`` header values.
5. Assignments whose key name looks secret (see :func:`is_secret_key`): ``KEY=value``,
   ``export KEY=value``, ``KEY: value`` (YAML / headers), JSON ``"key": "value"`` (also
   JSON escaped inside JSON), ``key := value``, ``key => value``, ``--flag value`` and
   ``--flag=value``, URL query parameters (``?access_token=...``).  Only the value is
   replaced.  Values that are clearly not literals are kept: ``$VAR``, ``${VAR}``,
   ``%VAR%``, ``<placeholder>``, ``{{template}}``, ``***``, empty strings, booleans,
   ``None``/``null``, type annotations (``token: str``), code references
   (``api_key=api_key``, ``token=self.token``, ``password=get_password()``), paths and
   URLs (a password inside a URL is handled by rule 4).  For ``key: value`` with an
   unquoted value the value must end the line, so prose such as "the token: it ..."
   survives.
6. Generic high-entropy tokens (kind ``high_entropy``), see below.

Policies
--------
* Secret key names: the key is split into lower-case words (``_ - .`` and camelCase
  boundaries).  After dropping trailing qualifier words (digits, ``value``, ``b64``,
  ``old``/``new``, ``prod``/``dev``/``test``/``live``...), the last word must be, or end
  with, ``password``/``passwd``/``passphrase``, or be ``pwd``/``pass``/``pw``
  (``password``); end with ``token`` (``token``; ``tokens``, ``max_tokens``,
  ``token_count``, ``tokenizer`` do not count); end with ``secret`` (``secret``); be
  ``apikey`` or ``key`` preceded by api/access/secret/private/client/auth/session/
  signing/encryption/master/account/app/consumer/license/shared/storage/subscription/
  service/webhook/deploy/admin/hmac/jwt... (``api_key``, ``private_key``,
  ``aws_secret_access_key``); ``credential(s)``/``creds`` (``credentials``); ``auth``
  (``auth``); ``sig``/``signature`` (``signature``); ``pat`` (``token``); ``cookie``
  (``cookie``).  ``PWD``/``OLDPWD`` (working directories) are not secret.  A
  ``DATABASE_URL``-like key is not secret by name; its password is caught by the URL
  rule, so the scheme, user, host and database stay readable.
* Hex policy: strings made only of hex digits (and ``-``) are never reported by the
  generic detector, whatever their length.  Git commit ids (7-40 hex), SHA-256
  digests, lockfile checksums and UUIDs are everywhere in agent transcripts and are
  not credentials.  A hex secret is still caught with context: a secret-looking key
  (``SECRET_KEY=4f3c...``), an ``Authorization``/``Bearer`` header, or a provider
  prefix (``dop_v1_``, ``dapi``, ``sk-or-v1-``, ``key-``...).
* Entropy policy (``high_entropy``): a maximal run of ``[A-Za-z0-9+/_-]`` (plus ``=``
  padding) is a secret when, after splitting on ``/ + _ -`` and discarding word-like
  pieces (paths, identifiers), a piece (or the whole run) of at least 20 alphanumerics
  has: letters and digits; Shannon entropy >= ``0.6 + 0.72 * log2(n)`` capped at 4.25
  bits/char (n = length; a random base62 string sits well above, identifiers below); and
  looks random rather than word-built (many letter/digit/case switches or long
  consonant clusters; CamelCase and snake_case identifiers made of words do not).
  Exempt: known non-secret ids (``toolu_``, ``msg_``, ``req_``, ``call_``,
  ``chatcmpl-``, ``resp_``...), subresource-integrity and module hashes
  (``sha512-...``, ``h1:...``), ``data:...;base64,`` payloads, and base64 that decodes
  to short printable text with spaces ("base64 of short words").
* Markers are inert: ``[REDACTED:...]`` is never matched again, so redaction is
  idempotent (``redact(redact(x)) == redact(x)``); :func:`redact` also re-scans its own
  output until nothing is found (at most a few passes).
* Boundaries: a prefixed token must not be glued to a preceding ``[A-Za-z0-9_-]``
  (``task-sk-list`` is not a key), except after a JSON escape (``\\n``) or a
  URL-encoded byte (``%3D``).  Spans never cut a JSON escape in half, so redacting JSON
  text keeps it valid JSON.
* Never raises: bytes-like input is decoded as UTF-8 (errors replaced), other objects
  go through ``str()``; if the engine itself failed, :func:`redact` fails closed and
  returns ``[REDACTED:unprocessable]``.

Performance: nothing is compiled at import (``re`` itself is imported on first use).
Every quantifier that can backtrack is bounded, and scans restart after each match, so
time is linear in the input size.

Limits: secrets in free prose without a key, prefix or header ("my password is
hunter2") are not found; hex-only or short (< 20 characters), letters-only or
word-like secrets are found only in context; a generic token glued to other word
characters is split as the text splits it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - typing only, keeps the import cheap
    import re
    from collections.abc import Callable, Iterator

    _Add = Callable[[tuple[int, int, int, str]], None]

__all__ = ["Finding", "find_secrets", "is_secret_key", "marker", "redact", "redact_obj"]

MARKER_PREFIX = "[REDACTED:"
_UNPROCESSABLE = "[REDACTED:unprocessable]"
_MAX_PASSES = 4
_MAX_DEPTH = 200

_TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_HEX = "0123456789abcdefABCDEF"


class Finding:
    """One secret: ``text[start:end]`` is to be replaced by ``marker(kind)``. Immutable."""

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

    ``kind`` is normalised to ``[a-z0-9_]`` (at most 40 characters) so that every marker
    is recognised as one by later passes.
    """
    clean = "".join(c if c.isascii() and c.isalnum() else "_" for c in str(kind).lower())
    return f"{MARKER_PREFIX}{clean.strip('_')[:40] or 'secret'}]"


# --------------------------------------------------------------------------- helpers


def _left_ok(text: str, i: int) -> bool:
    """True if a token may start at ``i``: not glued to a preceding word character."""
    if i <= 0:
        return True
    c = text[i - 1]
    if c not in _TOKEN_CHARS:
        return True
    if i >= 2 and text[i - 2] == "\\" and c in "nrtbf":
        return True  # a JSON/C escape such as "\n" right before the token
    return i >= 3 and text[i - 3] == "%" and text[i - 2] in _HEX and c in _HEX


def _backslashes_before(text: str, i: int) -> int:
    n = 0
    while i - n - 1 >= 0 and text[i - n - 1] == "\\":
        n += 1
    return n


def _fix_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink a span so that it never cuts a backslash escape in half."""
    if start < end and _backslashes_before(text, start) % 2 == 1:
        c = text[start]
        if c == "u" and end - start >= 5 and all(h in _HEX for h in text[start + 1 : start + 5]):
            start += 5
        else:
            start += 1
    if start < end and text[end - 1] == "\\" and _backslashes_before(text, end) % 2 == 1:
        end -= 1
    return start, end


def _has_digit_and_letter(s: str) -> bool:
    return any(c.isdigit() for c in s) and any(c.isalpha() for c in s)


def _randomish(s: str) -> bool:
    """Loose check for a prefixed token body: digits and letters, or both letter cases."""
    has_digit = any(c.isdigit() for c in s)
    has_lower = any(c.islower() for c in s)
    has_upper = any(c.isupper() for c in s)
    return (has_digit and (has_lower or has_upper)) or (has_lower and has_upper)


# ------------------------------------------------------------------- key-name policy

_PASSWORD_WORDS = ("password", "passwd", "passphrase", "passwort")
_KEY_QUALIFIERS = frozenset(
    "api access secret private client auth session signing sign encryption encrypt "
    "master account app consumer license licence shared storage subscription service "
    "webhook deploy admin write read sas hmac jwt cipher aes crypto security root "
    "primary secondary partner integration bot developer dev prod live test".split()
)
_IGNORED_SUFFIXES = frozenset(
    "value val str string data b64 base64 hex raw plain plaintext enc encrypted old new prod "
    "production dev development test testing staging stage live base current prev "
    "previous primary secondary default local remote".split()
)
_NOT_SECRET_KEYS = frozenset({"pwd", "oldpwd"})


def _split_key(name: str) -> list[str]:
    words: list[str] = []
    cur = ""
    prev = ""
    for c in name:
        if not (c.isascii() and c.isalnum()):
            if cur:
                words.append(cur)
            cur = ""
        elif c.isupper() and prev.islower() and cur:
            words.append(cur)
            cur = c
        else:
            cur += c
        prev = c
    if cur:
        words.append(cur)
    return [w.lower() for w in words]


_KEY_CACHE: dict[str, str | None] = {}


def is_secret_key(name: str) -> str | None:
    """The marker kind for a key name that looks secret (``GITHUB_TOKEN`` -> "token"), else None.

    See the module docstring for the policy.  Used for ``KEY=value`` style assignments and
    for dict keys in :func:`redact_obj`.
    """
    if not isinstance(name, str) or len(name) > 100:
        return None
    cached = _KEY_CACHE.get(name)
    if cached is not None or name in _KEY_CACHE:
        return cached
    kind = _key_kind(name)
    if len(_KEY_CACHE) < 4096:
        _KEY_CACHE[name] = kind
    return kind


def _key_kind(name: str) -> str | None:  # noqa: PLR0911 - a flat decision table
    bare = name.strip("-$@:\"'` ").lower()
    if bare in _NOT_SECRET_KEYS:
        return None
    words = _split_key(name)
    while len(words) > 1 and (words[-1].isdigit() or words[-1] in _IGNORED_SUFFIXES):
        words.pop()
    if not words:
        return None
    last = words[-1]
    prev = words[-2] if len(words) > 1 else ""
    if last.endswith(_PASSWORD_WORDS) or last in ("pwd", "pass", "pw") or last.endswith("pwd"):
        return "password"
    if last == "key":
        if prev == "private":
            return "private_key"
        if prev == "access" and "secret" in words:
            return "aws_secret_access_key"
        if prev == "secret":
            return "secret"
        return "api_key" if prev in _KEY_QUALIFIERS else None
    if last.endswith("apikey"):
        return "api_key"
    if last.endswith("privatekey"):
        return "private_key"
    if last.endswith("secretaccesskey"):
        return "aws_secret_access_key"
    if last.endswith("token") or last == "pat":
        return "token"
    if last.endswith("secret") or last == "secretkey":
        return "secret"
    if last in ("credential", "credentials", "creds", "cred") or last.endswith("credentials"):
        return "credentials"
    if last.endswith("auth") and last not in ("noauth",):
        return "auth"
    if last in ("sig", "signature"):
        return "signature"
    if last.endswith("cookie"):
        return "cookie"
    return None


# --------------------------------------------------------------------- value policy

_PLACEHOLDER_WORDS = frozenset(
    "none null nil undefined true false yes no on off required optional str string int "
    "bytes bool any object dict list float secretstr omit hidden redacted masked empty "
    "changeme_in_production todo tbd env".split()
)
_CODE_WORDS = frozenset("self cls this os process env config settings args kwargs".split())


def _is_template(value: str) -> bool:
    """``$VAR``, ``${VAR}``, ``%VAR%``, ``%s``, ``<token>``, ``{{x}}``, ``***``, a marker."""
    v = value.strip()
    if not v or v.startswith(("$", "%", "<", "{", "[", "#{", "*", "...", "\u2026")):
        return True
    return v.endswith(("%", ">", "}}")) or len(set(v)) <= 1


def _looks_placeholder(value: str) -> bool:  # noqa: PLR0911 - a flat decision table
    v = value.strip()
    if len(v) < 3 or _is_template(v):
        return True
    low = v.lower()
    if low in _PLACEHOLDER_WORDS:
        return True
    if low.startswith(("your", "my_", "my-", "insert", "replace", "example", "placeholder")):
        return True
    if is_secret_key(v) is not None and (v.isupper() or "_" in v or "-" in v):
        return True  # "YOUR_API_KEY", "api-token": a name, not a value
    return "://" in v  # a URL: its password (if any) is the URL rule's business


def _looks_code_or_path(value: str, key: str, after: str) -> bool:  # noqa: PLR0911
    v = value
    if v.startswith(("~/", "./", "../")) or (v.startswith("/") and v.count("/") >= 2):
        return True
    if after[:1] in ("(", "[", "."):
        return True  # get_password(), settings["x"], obj.attr
    parts = v.split(".")
    if all(p.isidentifier() for p in parts):
        if len(parts) > 1 and not v.endswith("."):
            return True  # self.token, cfg.api_key, os.environ
        low = v.lower()
        if low == key.lower().lstrip("-") or low in _CODE_WORDS:
            return True
        if is_secret_key(v) is not None or any(
            w in low for w in ("token", "secret", "passw", "api_key", "apikey", "cred")
        ):
            return True  # token=access_token, api_key=api_key
    return v.isdigit() and len(v) < 6


# --------------------------------------------------------------------------- engine

# (kind, pattern, length of the prefix that the randomness check skips, extend over
# [A-Za-z0-9_-] past the pattern, first two characters of every match)
# priorities: the lowest wins when spans overlap (a provider kind beats a generic one)
_P_PEM = 0
_P_PROVIDER = 10
_P_JWT = 100
_P_WEBHOOK = 150
_P_AWS_CONTEXT = 160
_P_URL = 200
_P_HEADER = 300
_P_COMMAND = 330
_P_COOKIE = 340
_P_ASSIGN = 400
_P_ENTROPY = 500

# (kind, pattern, chars of the prefix not counted by the randomness check, extend)
_PROVIDERS: tuple[tuple[str, str, int, bool, tuple[str, ...]], ...] = (
    ("anthropic_oauth_token", r"sk-ant-o[ar]t\d{2}-[A-Za-z0-9_-]{20,400}", 13, True, ("sk",)),
    ("anthropic_api_key", r"sk-ant-[A-Za-z0-9_-]{20,400}", 7, True, ("sk",)),
    ("openrouter_api_key", r"sk-or-v\d-[A-Za-z0-9]{32,128}", 9, True, ("sk",)),
    ("openai_api_key", r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,400}", 3, True, ("sk",)),
    ("openai_api_key", r"sk-(?!ant-|or-)[A-Za-z0-9]{20,400}", 3, True, ("sk",)),
    ("aws_access_key_id", r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])", 0, False, ("AK", "AS", "AB", "AC", "A3")),
    ("github_token", r"gh[pousr]_[A-Za-z0-9]{30,255}", 4, True, ("gh", "gi")),
    ("github_token", r"github_pat_[A-Za-z0-9_]{40,255}", 11, True, ("gh", "gi")),
    (
        "gitlab_token",
        r"gl(?:pat|dt|ptt|rt|soat|cbt|ft|imt|oas|agent)-[A-Za-z0-9_-]{20,255}"
        r"(?:\.[A-Za-z0-9_-]{2,64}){0,3}",
        4,
        True,
        ("gl",),
    ),
    ("gitlab_token", r"GR1348941[A-Za-z0-9_-]{20,64}", 9, True, ("gl", "GR")),
    ("slack_token", r"(?:xox[abposre]|xoxe\.xox[bp]|xapp)-[A-Za-z0-9-]{10,255}", 4, True, ("xo", "xa")),
    ("google_api_key", r"AIza[0-9A-Za-z_-]{35}", 4, True, ("AI",)),
    ("google_oauth_client_secret", r"GOCSPX-[A-Za-z0-9_-]{20,64}", 7, True, ("GO",)),
    ("google_oauth_token", r"ya29\.[A-Za-z0-9_-]{20,2048}", 5, True, ("ya", "1/")),
    ("google_oauth_token", r"1//0[A-Za-z0-9_-]{30,512}", 4, True, ("ya", "1/")),
    ("stripe_key", r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,255}", 8, True, ("sk", "rk", "pk", "wh")),
    ("stripe_key", r"whsec_[A-Za-z0-9+/=]{24,128}", 6, False, ("sk", "rk", "pk", "wh")),
    ("huggingface_token", r"hf_[A-Za-z0-9]{30,64}", 3, True, ("hf",)),
    ("npm_token", r"npm_[A-Za-z0-9]{36,64}", 4, True, ("np",)),
    ("pypi_token", r"pypi-AgE[A-Za-z0-9_-]{50,1024}", 5, True, ("py",)),
    ("sendgrid_api_key", r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}", 3, True, ("SG",)),
    ("digitalocean_token", r"do[por]_v1_[a-f0-9]{64}", 7, True, ("do",)),
    ("groq_api_key", r"gsk_[A-Za-z0-9]{40,64}", 4, True, ("gs",)),
    ("xai_api_key", r"xai-[A-Za-z0-9]{60,100}", 4, True, ("xa",)),
    ("replicate_api_token", r"r8_[A-Za-z0-9]{30,64}", 3, True, ("r8",)),
    ("perplexity_api_key", r"pplx-[A-Za-z0-9]{40,64}", 5, True, ("pp",)),
    ("fireworks_api_key", r"fw_[A-Za-z0-9]{20,64}", 3, True, ("fw",)),
    ("shopify_token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", 6, True, ("sh",)),
    ("databricks_token", r"dapi[a-f0-9]{32}(?:-\d)?", 4, True, ("da",)),
    ("linear_api_key", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}", 8, True, ("li",)),
    ("notion_token", r"(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,60})", 4, True, ("se", "nt")),
    ("atlassian_api_token", r"ATATT3[A-Za-z0-9_=-]{100,300}", 6, True, ("AT",)),
    ("doppler_token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,64}", 6, True, ("dp",)),
    ("twilio_api_key", r"SK[0-9a-fA-F]{32}(?![A-Za-z0-9])", 2, False, ("SK",)),
    ("mailgun_api_key", r"key-[0-9a-f]{32}(?![A-Za-z0-9])", 4, False, ("ke",)),
    ("sentry_token", r"sntry[su]_[A-Za-z0-9+/=_]{40,300}", 7, True, ("sn",)),
    ("mapbox_secret_token", r"sk\.eyJ[A-Za-z0-9_-]{20,400}\.[A-Za-z0-9_-]{20,100}", 3, True, ("sk",)),
    ("private_key", r"AGE-SECRET-KEY-1[0-9A-Z]{50,70}", 16, False, ("AG",)),
)
_JWT = (
    r"eyJ[A-Za-z0-9_-]{8,8192}\.(?:eyJ[A-Za-z0-9_-]{4,16384}\.[A-Za-z0-9_-]{0,4096}"
    r"|[A-Za-z0-9_-]{8,16384}\.[A-Za-z0-9_-]{8,4096})(?:\.[A-Za-z0-9_-]{1,8192}){0,2}"
)
_WEBHOOKS = (
    (
        "slack_webhook",
        r"hooks\.slack\.com/(?P<w0>(?:services|workflows|triggers)/[A-Za-z0-9_/-]{16,255})",
        "ho",
    ),
    (
        "discord_webhook",
        r"discord(?:app)?\.com/api/webhooks/(?P<w1>\d{5,30}/[A-Za-z0-9_-]{30,255})",
        "di",
    ),
)
# words searched in the lower-cased text; each hit runs the handlers named here
_KEYWORDS = (
    "authorization",
    "private key",
    "-----begin ",
    "putty-user-key-file",
    "bearer",
    "basic",
    "cookie",
    "identified",
    "password",
    "--proxy-user",
    "--user",
    "-u",
    "passphrase",
    "passwd",
    "pass",
    "pwd",
    "secret",
    "token",
    "apikey",
    "key",
    "auth",
    "cred",
    "sig",
)
_ASSIGN_WORDS = frozenset(
    "password passphrase passwd pass pwd secret token apikey key auth cred sig cookie".split()
)
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


class _Engine:
    """Compiled patterns (built once, on first use) and the scan."""

    def __init__(self) -> None:  # noqa: PLR0915 - one table of patterns
        import re

        c = re.compile
        a = re.ASCII
        ai = re.ASCII | re.IGNORECASE

        self.marker_rx = c(r"\[REDACTED:[a-z0-9_]{1,40}\]")
        self.runs = c(r"[A-Za-z0-9_+/.-]{15,}", a)
        by_prefix: dict[str, list[str]] = {}
        for i, (_, pat, _, _, prefixes) in enumerate(_PROVIDERS):
            for prefix in prefixes:
                by_prefix.setdefault(prefix, []).append(f"(?P<p{i}>{pat})")
        by_prefix.setdefault("ey", []).append(f"(?P<jwt>{_JWT})")
        for i, (_, pat, prefix) in enumerate(_WEBHOOKS):
            by_prefix.setdefault(prefix, []).append(f"(?P<h{i}>{pat})")
        self.providers = {k: c("|".join(v), a) for k, v in by_prefix.items()}
        self.extend = c(r"[A-Za-z0-9_-]+", a)
        self.inner_sep = c(r"[/.+]", a)
        self.aws_context = c(
            r"(?:AKIA|ASIA)[A-Z0-9]{16}[^\r\n]{1,120}?(?<![A-Za-z0-9/+])"
            r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
            a,
        )
        self.pem_begin = c(r"-{3,5} ?BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)? ?-{3,5}", a)
        self.pem_end = c(r"-{3,5} ?END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)? ?-{3,5}", a)
        sep = r"(?:\r?\n|(?:\\{1,3}r)?\\{1,3}n)"
        line = r"(?:[A-Za-z0-9+/=]{1,200}|[A-Za-z][A-Za-z0-9-]{0,40}: ?[^\r\n\\]{0,200})"
        self.pem_body = c(rf"[ \t]*[A-Za-z0-9+/=]{{0,200}}(?:{sep}[ \t]{{0,16}}{line}){{0,400}}", a)
        self.hex_only = c(r"[0-9a-f-]+|[0-9A-F-]+", a)
        self.digit = c(r"[0-9]", a)
        self.letter = c(r"[A-Za-z]", a)
        self.url = c(
            r"://[^\s:/?#@\"'<>\\\[\]]{0,256}:([^\s/?#\"'<>\\]{1,512})@(?=[^\s@/\"'<>]{1,256})", a
        )
        self.keywords = c("|".join(re.escape(w) for w in _KEYWORDS), a)
        # after a keyword: the rest of the key name, a closing quote, then "=" or ":"
        self.assign_tail = c(r"[a-z0-9_.-]{0,60}(?:\\{0,3}[\"'`])?[ \t]{0,8}[:=]", a)
        self.authorization = c(
            r"authorization\\{0,3}[\"']?[ \t]{0,8}[:=][ \t]{0,8}"
            r"(?:[fbr]{0,2}\\{0,3}[\"'])?[ \t]{0,4}"
            r"(?:(?P<scheme2>digest|negotiate|ntlm|aws4-hmac-sha256|hmac)[ \t]{1,8}"
            r"(?P<cred2>[^\r\n\"'\\]{1,2048})"
            r"|(?:(?P<scheme>bearer|basic|token|bot|dpop|oauth|apikey|api-key|sso-key|key|"
            r"splunk|gapps)[ \t]{1,8})?(?P<cred>[^\s\"'\\,;]{1,4096}))",
            ai,
        )
        self.bearer = c(r"bearer[ \t]{1,4}([A-Za-z0-9._~+/-]{16,4096}=*)", ai)
        self.basic = c(r"Basic[ \t]{1,4}([A-Za-z0-9+/]{8,1024}={0,2})", a)
        self.curl_user = c(
            r"(?:-u|--user|--proxy-user)[ \t=]{1,4}\\{0,3}[\"']?[^\s:\"'\\]{1,128}:"
            r"([^\s\"'\\]{1,512})",
            a,
        )
        self.sql_password = c(r"(?:identified[ \t]+by|password)[ \t]+'([^'\r\n]{1,256})'", ai)
        self.netrc_password = c(r"password[ \t]+([^\s]{1,512})", a)
        self.netrc_line = c(r"(?:^|\s)(?:machine|login|default)[ \t]", a)
        self.cookie = c(
            r"cookie\\{0,3}[\"']?[ \t]{0,4}:[ \t]{0,4}\\{0,3}[\"']?([^\r\n\"'\\]{1,4096})", ai
        )
        value = (
            r"(?:\\{1,3}\"(?P<v1>[^\"\\\r\n]{1,512})\\{1,3}\""
            r"|\"(?P<v2>(?:[^\"\\\r\n]|\\[^\r\n]){1,512})\""
            r"|'(?P<v3>(?:[^'\\\r\n]|\\[^\r\n]){1,512})'"
            r"|(?P<v4>[^\s\"'`,;&<>(){}\[\]|\\]{1,512}))"
        )
        self.assignment = c(
            r"(?P<key>-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,79})(?:\\{0,3}[\"'`])?[ \t]{0,8}"
            r"(?P<sep>:=|=>|=(?![=~>])|:[ \t]{0,4}(?:str|bytes|SecretStr|Optional\[str\]|"
            r"str[ \t]{0,2}\|[ \t]{0,2}None)[ \t]{0,4}=(?!=)|:(?![:/\\=]))[ \t]{0,8}" + value,
            a,
        )
        self.flag = c(
            r"(?P<key>--[A-Za-z][A-Za-z0-9_-]{0,60})[ \t]{1,4}"
            r"(?:\\{0,3}[\"'](?P<v1>[^\"'\\\r\n]{1,512})\\{0,3}[\"']"
            r"|(?P<v4>[^\s\"'`;&|<>\\-][^\s\"'`;&|<>\\]{0,511}))",
            a,
        )

    # ------------------------------------------------------------------ scanning

    def find(self, text: str) -> list[Finding]:
        spans: list[tuple[int, int, int, str]] = []
        add = spans.append
        for run in self.runs.finditer(text):
            self.scan_run(text, run.start(), run.end(), add)
        for m in self.url.finditer(text):
            if m.start() > 0 and text[m.start() - 1].isalnum() and _check_plain_secret(m):
                add((m.start(1), m.end(1), _P_URL, "url_password"))
        public: list[tuple[int, int]] = []  # certificate and public key blocks
        self.scan_keywords(text, add, public)
        if not spans:
            return []
        if public:
            spans = [
                sp
                for sp in spans
                if sp[2] != _P_ENTROPY or not any(a <= sp[0] < b for a, b in public)
            ]
        markers = [(m.start(), m.end()) for m in self.marker_rx.finditer(text)]
        return _merge(text, spans, markers)

    def scan_run(self, text: str, start: int, end: int, add: _Add) -> None:
        # a provider token starts at a boundary: the run start (or just after a "\\n" or
        # "%3D" glued to it) or right after "/", "." or "+" inside the run
        starts = [start]
        if _backslashes_before(text, start) % 2 == 1:
            starts.append(start + 1)
        elif start > 0 and text[start - 1] == "%":
            starts.append(start + 2)
        starts.extend(m.end() for m in self.inner_sep.finditer(text, start, end))
        covered = start
        for pos in starts:
            if pos < covered:
                continue
            rx = self.providers.get(text[pos : pos + 2])
            m = None if rx is None else rx.match(text, pos, end)
            if m is None:
                continue
            name = m.lastgroup or ""
            s, e = m.span()
            if name.startswith("p"):
                kind, _, skip, extend, _ = _PROVIDERS[int(name[1:])]
                if not _left_ok(text, s) or not _randomish(text[s + skip : e]):
                    continue
                if extend:
                    tail = self.extend.match(text, e)
                    e = tail.end() if tail is not None else e
                add((s, e, _P_PROVIDER + int(name[1:]), kind))
                if kind == "aws_access_key_id":
                    ctx = self.aws_context.match(text, s)
                    if ctx is not None and _check_aws_secret(ctx):
                        add((ctx.start(1), ctx.end(1), _P_AWS_CONTEXT, "aws_secret_access_key"))
            elif name == "jwt":
                if not _left_ok(text, s):
                    continue
                add((s, e, _P_JWT, "jwt"))
            else:
                i = int(name[1:])
                add((m.start(f"w{i}"), m.end(f"w{i}"), _P_WEBHOOK, _WEBHOOKS[i][0]))
                continue
            covered = max(covered, e)
        self.scan_entropy(text, start, end, covered, add)

    def scan_entropy(self, text: str, start: int, end: int, covered: int, add: _Add) -> None:
        # a run may hold dotted names ("a.b.c"): judge the dot-separated parts
        pos = start
        while pos < end:
            dot = text.find(".", pos, end)
            stop = end if dot < 0 else dot
            if stop - pos >= 20 and stop > covered:
                for s, e in self.random_spans(text, pos, stop):
                    while e < len(text) and e - stop < 2 and text[e] == "=":
                        e += 1
                    add((s, e, _P_ENTROPY, "high_entropy"))
            pos = stop + 1

    def random_spans(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        run = text[start:end]
        if _backslashes_before(text, start) % 2 == 1:  # "\nAbC..." inside JSON
            skip = 5 if run[:1] == "u" and all(h in _HEX for h in run[1:5]) else 1
            run = run[skip:]
            start += skip
        if (
            len(run) < 20
            or self.digit.search(run) is None
            or self.letter.search(run) is None
            or self.hex_only.fullmatch(run)
            or _exempt_context(text, start, run)
        ):
            return
        for s, e in _random_pieces(run):
            if not self.hex_only.fullmatch(run, s, e):
                yield start + s, start + e

    def scan_keywords(self, text: str, add: _Add, public: list[tuple[int, int]]) -> None:  # noqa: PLR0912 - a dispatch table
        low = text.lower()
        if len(low) != len(text):  # a few non-ASCII characters lower-case to two
            low = text.encode("ascii", "replace").decode("ascii").lower()
        seen_keys: set[int] = set()
        pem_done = -1
        for hit in self.keywords.finditer(low):
            word = hit.group(0)
            pos = hit.start()
            if word == "-----begin ":
                if "private" not in low[pos : pos + 60]:
                    end = low.find("-----end ", pos, pos + 65536)
                    if end > 0:
                        public.append((pos, end))
                continue
            if word == "authorization":
                if _left_ok(text, pos) or low.endswith("proxy-", 0, pos):
                    self.header(self.authorization.match(text, pos), add)
                continue
            if word in ("private key", "putty-user-key-file"):
                if pos >= pem_done:
                    pem_done = self.scan_pem(text, max(0, pos - 60), add)
                continue
            if word == "bearer":
                m = self.bearer.match(text, pos)
                if m is not None and _left_ok(text, pos) and _check_bearer(m):
                    add((m.start(1), m.end(1), _P_HEADER + 10, "bearer_token"))
                continue
            if word == "basic":
                m = self.basic.match(text, pos)
                if m is not None and _left_ok(text, pos) and _check_basic(m):
                    add((m.start(1), m.end(1), _P_HEADER + 20, "basic_auth"))
                continue
            if word == "identified":
                self.command(self.sql_password.match(text, pos), "password", add)
                continue
            if word in ("--user", "--proxy-user", "-u"):
                if _left_ok(text, pos):
                    self.command(self.curl_user.match(text, pos), "password", add)
                continue
            if word == "password":
                self.command(self.sql_password.match(text, pos), "password", add)
                line_start = max(low.rfind("\n", 0, pos), 0)
                if self.netrc_line.search(text, line_start, pos):
                    self.command(self.netrc_password.match(text, pos), "password", add)
            if word == "cookie" and (_left_ok(text, pos) or low.endswith("set-", 0, pos)):
                m = self.cookie.match(text, pos)
                if m is not None and _check_cookie(m):
                    add((m.start(1), m.end(1), _P_COOKIE, "cookie"))
            if word in _ASSIGN_WORDS:
                self.assignment_at(text, low, hit.start(), hit.end(), seen_keys, add)

    def assignment_at(
        self, text: str, low: str, start: int, end: int, seen: set[int], add: _Add
    ) -> None:
        is_assignment = self.assign_tail.match(low, end) is not None
        if not is_assignment and low.find("--", max(0, start - 62), start) < 0:
            return  # neither "key=value" / "key: value" nor "--flag value"
        key_start = start
        limit = max(0, start - 80)
        while key_start > limit and text[key_start - 1] in _KEY_CHARS:
            key_start -= 1
        if key_start in seen:
            return
        seen.add(key_start)
        if key_start > 0 and text[key_start - 1] == "$":
            return  # "$TOKEN=..." reads a variable
        if text.endswith("//", 0, key_start):
            return  # "https://user:pass@host": the URL rule keeps the user and the host
        if is_assignment:
            m = self.assignment.match(text, key_start)
        elif text.startswith("--", key_start):
            m = self.flag.match(text, key_start)
        else:
            return
        if m is None:
            return
        kind = _check_assignment(m)
        if kind is not None:
            for g in ("v1", "v2", "v3", "v4"):
                if m.re.groupindex.get(g) and m.start(g) >= 0:
                    add((m.start(g), m.end(g), _P_ASSIGN, kind))
                    break

    def header(self, m: re.Match[str] | None, add: _Add) -> None:
        if m is None:
            return
        kind = _check_authorization(m)
        if kind is not None:
            g = "cred" if m.start("cred") >= 0 else "cred2"
            add((m.start(g), m.end(g), _P_HEADER, kind))

    def command(self, m: re.Match[str] | None, kind: str, add: _Add) -> None:
        if m is not None and _check_plain_secret(m):
            add((m.start(1), m.end(1), _P_COMMAND, kind))

    def body_end(self, text: str, pos: int) -> int:
        """End of the base64 lines (and ``Name: value`` headers) of a key body at ``pos``."""
        m = self.pem_body.match(text, pos)
        return pos if m is None else m.end()

    def scan_pem(self, text: str, pos: int, add: _Add) -> int:
        """Report the key blocks that start at or after ``pos``; return where scanning stopped."""
        m = self.pem_begin.search(text, pos, pos + 200)
        if m is None:
            i = text.find("PuTTY-User-Key-File-", pos, pos + 200)
            if i < 0:
                return pos + 1
            j = text.find("Private-Lines:", i, i + 8192)
            if j < 0:
                return i + 1
            stop = self.body_end(text, j)
            add((i, stop, _P_PEM, "private_key"))
            return stop
        end = self.pem_end.search(text, m.end(), m.end() + 65536)
        stop = end.end() if end is not None else self.body_end(text, m.end())
        add((m.start(), stop, _P_PEM, "private_key"))
        return stop


def _merge(
    text: str, spans: list[tuple[int, int, int, str]], markers: list[tuple[int, int]]
) -> list[Finding]:
    fixed: list[tuple[int, int, int, str]] = []
    for s, e, prio, kind in spans:
        s, e = _fix_span(text, s, e)
        if s < e and not _overlaps_marker(s, e, markers):
            fixed.append((s, e, prio, kind))
    fixed.sort()
    out: list[Finding] = []
    cur_s = cur_e = -1
    cur_p = 0
    cur_k = ""
    for s, e, prio, kind in fixed:
        if s < cur_e:
            if e > cur_e:
                cur_e = e
            if prio < cur_p:
                cur_p, cur_k = prio, kind
            continue
        if cur_e > 0:
            out.append(Finding(cur_k, cur_s, cur_e))
        cur_s, cur_e, cur_p, cur_k = s, e, prio, kind
    if cur_e > 0:
        out.append(Finding(cur_k, cur_s, cur_e))
    return out


def _overlaps_marker(s: int, e: int, markers: list[tuple[int, int]]) -> bool:
    """True if [s, e) overlaps one of the sorted, disjoint marker spans."""
    if not markers:
        return False
    import bisect

    i = bisect.bisect_left(markers, (e, -1))  # markers[:i] start before e
    return i > 0 and markers[i - 1][1] > s


# ------------------------------------------------------------------ rule checks


def _check_plain_secret(m: re.Match[str]) -> bool:
    """A password after ``user:``, ``password`` or ``IDENTIFIED BY``: anything but a template."""
    value = m.group(1)
    return not (_is_template(value) or value.isdigit())  # "$PASS", "{pw}", "-u 1000:1000"


def _check_aws_secret(m: re.Match[str]) -> bool:
    v = m.group(1)
    return any(c.isupper() for c in v) and any(c.islower() for c in v)


def _check_authorization(m: re.Match[str]) -> str | None:
    if m.group("cred2") is not None:
        return "authorization" if _has_digit_and_letter(m.group("cred2")) else None
    cred = m.group("cred")
    if _looks_placeholder(cred) or cred.lower() in ("bearer", "basic", "token"):
        return None
    if not (_randomish(cred) or len(cred) >= 24):
        return None  # prose: "the Authorization: header", "Bearer token is required"
    scheme = (m.group("scheme") or "").lower()
    if scheme in ("bearer", "token", "bot", "dpop", "oauth"):
        return "bearer_token"
    return "basic_auth" if scheme == "basic" else "authorization"


def _check_bearer(m: re.Match[str]) -> bool:
    cred = m.group(1)
    return _has_digit_and_letter(cred) and not _looks_placeholder(cred)


def _check_basic(m: re.Match[str]) -> bool:
    """``Basic <base64>`` outside a header counts only if it decodes to ``user:password``."""
    import binascii

    try:
        raw = binascii.a2b_base64(m.group(1))
    except (binascii.Error, ValueError):
        return False
    return b":" in raw and len(raw) >= 3


def _check_cookie(m: re.Match[str]) -> bool:
    value = m.group(1).strip()
    return "=" in value and not _looks_placeholder(value)


def _check_assignment(m: re.Match[str]) -> str | None:
    key = m.group("key")
    kind = is_secret_key(key)
    if kind is None:
        return None
    groups = m.groupdict()
    unquoted = groups.get("v4")
    value = unquoted
    for name in ("v1", "v2", "v3"):
        if groups.get(name) is not None:
            value = groups[name]
    if value is None or _looks_placeholder(value):
        return None
    text = m.string
    if unquoted is not None:
        if _looks_code_or_path(value, key, text[m.end() : m.end() + 2]):
            return None
        sep = groups.get("sep")
        if sep is None and value.isalpha():
            return None  # prose: "pass the --token flag"
        if sep == ":" and not _ends_line(text, m.end()):
            return None  # prose "the token: it ..." or a dict literal continuing
    elif value.startswith(("~/", "./", "../")):
        return None
    return kind


def _ends_line(text: str, i: int) -> bool:
    n = len(text)
    while i < n and text[i] in " \t":
        i += 1
    if i >= n:
        return True
    c = text[i]
    return c in "\r\n,}#]" or (c == "\\" and text[i + 1 : i + 2] in ("n", "r"))


def _random_pieces(run: str) -> Iterator[tuple[int, int]]:
    """Spans of ``run`` that look random: the whole run, or the stretches between words.

    A run made of words and separators (a path, a snake_case or kebab-case name) is not
    judged as a whole: only the stretches between its word-like pieces are.
    """
    n = len(run)
    pieces: list[tuple[int, int]] = []
    i = 0
    while i <= n:
        j = i
        while j < n and run[j] not in "/+_-":
            j += 1
        pieces.append((i, j))
        i = j + 1
    if not any(_is_word_piece(run[s:e]) for s, e in pieces):
        if _looks_random(run) and not _short_text_b64(run):
            yield 0, n
        return
    stretch_start = -1
    stretch_end = -1
    for s, e in [*pieces, (n + 1, n + 1)]:
        if s <= n and not _is_word_piece(run[s:e]):
            if stretch_start < 0:
                stretch_start = s
            stretch_end = e
            continue
        if stretch_start >= 0 and stretch_end - stretch_start >= 20:
            if _looks_random(run[stretch_start:stretch_end]):
                yield stretch_start, stretch_end
        stretch_start = -1


# ------------------------------------------------------------- entropy heuristics

_ID_PREFIXES = (
    "toolu_",
    "srvtoolu_",
    "msg_",
    "req_",
    "call_",
    "chatcmpl-",
    "resp_",
    "run_",
    "thread_",
    "asst_",
    "file-",
    "file_",
    "batch_",
    "evt_",
    "cus_",
    "sha1-",
    "sha256-",
    "sha384-",
    "sha512-",
    "md5-",
)
_VOWELS = "aeiouyAEIOUY"


def _is_word_piece(p: str) -> bool:
    """A path or identifier component: a word, an acronym, a short number, "python3"."""
    if not p:
        return False
    if p.isdigit():
        return len(p) <= 4
    stem = p.rstrip("0123456789")
    if len(p) - len(stem) > 3 or len(stem) < 2 or not stem.isalpha() or not stem.isascii():
        return False
    if not (stem.islower() or stem.isupper() or stem.istitle()):
        return False
    return len(stem) <= 3 or any(c in _VOWELS for c in stem)


def _exempt_context(text: str, start: int, run: str) -> bool:
    """Non-secret ids, lockfile / content hashes, data URIs and SSH public keys."""
    if run.startswith(_ID_PREFIXES):
        return True
    before = text[max(0, start - 8) : start]
    if before.endswith(("h1:", "base64,", "sha256:", "sha512:", "sha1:", "md5:")):
        return True
    return run.startswith("AAAA") and _ssh_public_blob(run)


def _ssh_public_blob(run: str) -> bool:
    """True for the base64 of an SSH public key: a length-prefixed "ssh-..." / "ecdsa-..." name."""
    import binascii

    try:
        head = binascii.a2b_base64(run[:24])
    except (binascii.Error, ValueError):
        return False
    return head[4:].startswith((b"ssh-", b"ecdsa-", b"sk-ssh-", b"sk-ecdsa-"))


def _shannon(s: str) -> float:
    import math

    counts: dict[str, int] = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(s)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


def _looks_random(s: str) -> bool:
    """Random-looking alphanumerics (separators ignored); see the entropy policy."""
    import math

    alnum = [c for c in s if c.isalnum()]
    n = len(alnum)
    if n < 20:
        return False
    digits = sum(c.isdigit() for c in alnum)
    uppers = sum(c.isupper() for c in alnum)
    lowers = n - digits - uppers
    if digits == 0 or digits == n:
        return False
    word = "".join(alnum)
    if _shannon(word) < min(4.25, 0.6 + 0.72 * math.log2(n)):
        return False
    switches = 0
    prev = ""
    for c in alnum:
        cls = "d" if c.isdigit() else ("u" if c.isupper() else "l")
        if prev and cls != prev:
            switches += 1
        prev = cls
    # expected switches for independent characters with these class frequencies
    p = [digits / n, uppers / n, lowers / n]
    expected = (n - 1) * (1.0 - sum(q * q for q in p))
    if switches >= 0.7 * expected and switches >= 0.2 * (n - 1):
        return True
    # letters: long consonant clusters do not happen in word-built identifiers
    clusters = 0
    run = 0
    for c in alnum:
        if c.isalpha() and c not in _VOWELS:
            run += 1
            if run == 4:
                clusters += 4
            elif run > 4:
                clusters += 1
        else:
            run = 0
    return clusters >= 0.25 * n and switches >= 0.15 * (n - 1)


def _short_text_b64(s: str) -> bool:
    """True for base64 of short readable text such as "this is a test"."""
    if len(s) > 96 or len(s) % 4 == 1:
        return False
    import binascii

    try:
        raw = binascii.a2b_base64(s + "=" * (-len(s) % 4))
    except (binascii.Error, ValueError):
        return False
    if not raw or not all(32 <= b < 127 for b in raw):
        return False
    letters = sum(chr(b).isalpha() for b in raw)
    return b" " in raw and letters >= 0.6 * len(raw)


# ------------------------------------------------------------------------ public

_ENGINE: list[_Engine] = []


def _engine() -> _Engine:
    if not _ENGINE:
        _ENGINE.append(_Engine())
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
        return _engine().find(s)
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
            for f in findings:
                parts.append(s[pos : f.start])
                parts.append(marker(f.kind))
                pos = f.end
            parts.append(s[pos:])
            s = "".join(parts)
        return s
    except Exception:  # noqa: BLE001 - fail closed: never let an unscanned text out
        return _UNPROCESSABLE


def redact_obj(value: object) -> object:
    """Deep-redact a JSON-like value: strings inside dicts, lists and tuples.

    A string value whose dict key looks secret (:func:`is_secret_key`) is replaced whole
    by the key's marker unless it is a placeholder (``""``, ``"$TOKEN"``, ``"***"``...).
    Dict keys are redacted too.  Other objects are returned unchanged; containers are
    copied, the input is never modified.  Cycles and nesting deeper than 200 levels are
    replaced by ``[REDACTED:unprocessable]``.
    """
    return _redact_obj(value, 0, set())


def _redact_obj(value: object, depth: int, seen: set[int]) -> object:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, (bytes, bytearray)):
        return redact(value.decode("utf-8", errors="surrogateescape")).encode(
            "utf-8", errors="surrogateescape"
        )
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
                if kind is not None and isinstance(v, str) and not _looks_placeholder(v):
                    out[_redact_obj(k, depth + 1, seen)] = marker(kind)
                else:
                    out[_redact_obj(k, depth + 1, seen)] = _redact_obj(v, depth + 1, seen)
            return out
        items = [_redact_obj(v, depth + 1, seen) for v in value]
        return items if isinstance(value, list) else tuple(items)
    finally:
        seen.discard(id(value))
