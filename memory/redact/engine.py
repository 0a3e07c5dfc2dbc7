"""The implementation behind :mod:`memory.redact.redactor`, imported on its first use.

Kept apart so that ``import memory.redact.redactor`` stays cheap in hook processes: this module
holds the patterns, the scan and the heuristics; the policies are documented at the top
of ``memory/redact/redactor.py``.  Not a public API.
"""

from __future__ import annotations

import re
from binascii import Error as BinasciiError
from binascii import a2b_base64
from bisect import bisect_left, bisect_right
from itertools import pairwise
from math import log2

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    _Add = Callable[[tuple[int, int, int, str]], None]
    _Handler = Callable[["_Scan", int, int], None]
    _Trie = dict[str, "_Trie"]

_TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_HEX = "0123456789abcdefABCDEF"


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
    "value val data b64 base64 hex raw plain plaintext enc encrypted old new prod "
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


def secret_key_kind(name: str) -> str | None:
    """The marker kind for a key name that looks secret (``GITHUB_TOKEN`` -> "token"), else None.

    The policy is described at the top of ``memory/redact/redactor.py``.
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


def _key_kind(name: str) -> str | None:
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
    "changeme_in_production todo tbd env value foo bar baz foobar dummy example sample".split()
)
_CODE_WORDS = frozenset("self cls this os process env config settings args kwargs".split())


def _is_template(value: str) -> bool:
    """``$VAR``, ``${VAR}``, ``%VAR%``, ``%s``, ``<token>``, ``{{x}}``, ``***``, a marker."""
    v = value.strip()
    if not v or v.startswith(("$", "%", "<", "{", "[", "#{", "*", "...", "\u2026")):
        return True
    if v.endswith(("%", ">", "}}", "...", "\u2026")) or len(set(v)) <= 1:
        return True  # "%VAR%", "<token>", "{{ x }}", "sk-...", "xxxxxxxx"
    return any(f in v for f in ("%s", "%d", "%r", "%(", "{}", "{0}", "${", "{{", "***"))


def _looks_placeholder(value: str) -> bool:
    v = value.strip()
    if len(v) < 3 or _is_template(v):
        return True
    low = v.lower()
    if low in _PLACEHOLDER_WORDS:
        return True
    if low.startswith(("your", "my_", "my-", "insert", "replace", "example", "placeholder")):
        return True
    if secret_key_kind(v) is not None and (v.isupper() or "_" in v or "-" in v):
        return True  # "YOUR_API_KEY", "api-token": a name, not a value
    return "://" in v  # a URL: its password (if any) is the URL rule's business


def _looks_code_or_path(value: str, key: str, after: str) -> bool:
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
        if secret_key_kind(v) is not None or any(
            w in low for w in ("token", "secret", "passw", "api_key", "apikey", "cred")
        ):
            return True  # token=access_token, api_key=api_key
    return v.isdigit() and len(v) < 6


# --------------------------------------------------------------------------- engine

# priorities: when spans overlap they are merged and the lowest priority names the kind
# (a provider kind beats a header, which beats a KEY=value name, which beats high_entropy)
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

# (kind, pattern, length of the prefix that the randomness check skips, extend the match
# over [A-Za-z0-9_-], the first two characters of every match)
_PROVIDERS: tuple[tuple[str, str, int, bool, tuple[str, ...]], ...] = (
    ("anthropic_oauth_token", r"sk-ant-o[ar]t\d{2}-[A-Za-z0-9_-]{20,400}", 13, True, ("sk",)),
    ("anthropic_api_key", r"sk-ant-[A-Za-z0-9_-]{20,400}", 7, True, ("sk",)),
    ("openrouter_api_key", r"sk-or-v\d-[A-Za-z0-9]{32,128}", 9, True, ("sk",)),
    ("openai_api_key", r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,400}", 3, True, ("sk",)),
    ("openai_api_key", r"sk-(?!ant-|or-)[A-Za-z0-9]{20,400}", 3, True, ("sk",)),
    (
        "aws_access_key_id",
        r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])",
        0,
        False,
        ("AK", "AS", "AB", "AC", "A3"),
    ),
    ("github_token", r"gh[pousr]_[A-Za-z0-9]{30,255}", 4, True, ("gh",)),
    ("github_token", r"github_pat_[A-Za-z0-9_]{40,255}", 11, True, ("gi",)),
    (
        "gitlab_token",
        r"gl(?:pat|dt|ptt|rt|soat|cbt|ft|imt|oas|agent)-[A-Za-z0-9_-]{20,255}"
        r"(?:\.[A-Za-z0-9_-]{2,64}){0,3}",
        4,
        True,
        ("gl",),
    ),
    ("gitlab_token", r"GR1348941[A-Za-z0-9_-]{20,64}", 9, True, ("GR",)),
    (
        "slack_token",
        r"(?:xox[abposre]|xoxe\.xox[bp]|xapp)-[A-Za-z0-9-]{10,255}",
        4,
        True,
        ("xo", "xa"),
    ),
    ("google_api_key", r"AIza[0-9A-Za-z_-]{35}", 4, True, ("AI",)),
    ("google_oauth_client_secret", r"GOCSPX-[A-Za-z0-9_-]{20,64}", 7, True, ("GO",)),
    ("google_oauth_token", r"ya29\.[A-Za-z0-9_-]{20,2048}", 5, True, ("ya",)),
    ("google_oauth_token", r"1//0[A-Za-z0-9_-]{30,512}", 4, True, ("1/",)),
    (
        "stripe_key",
        r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,255}",
        8,
        True,
        ("sk", "rk", "pk"),
    ),
    ("stripe_key", r"whsec_[A-Za-z0-9+/=]{24,128}", 6, False, ("wh",)),
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
    (
        "mapbox_secret_token",
        r"sk\.eyJ[A-Za-z0-9_-]{20,400}\.[A-Za-z0-9_-]{20,100}",
        3,
        True,
        ("sk",),
    ),
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
    "_pat=",
    "_pat:",
    '_pat"',
)
_ASSIGN_WORDS = frozenset(
    "password passphrase passwd pass pwd secret token apikey key auth cred sig cookie".split()
)
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def _trie_pattern(words: tuple[str, ...]) -> str:
    """A regex matching the longest of ``words`` at each position, factored as a trie.

    ``(?:a(?:pikey|uth(?:orization)?)|...)`` rejects a position in fewer steps than a flat
    ``apikey|auth|authorization|...`` alternation: the keyword pass is ~30% faster.
    """
    trie: _Trie = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: _Trie) -> str:
        alts = [re.escape(ch) + build(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = "(?:" + "|".join(alts) + ")"
        return body + "?" if "" in node else body

    return build(trie)


class _NextFinder:
    """The first match of ``rx`` at or after a position, for increasing positions.

    Remembers its last answer, so that repeated look-ups (one per ``BEGIN`` line) cost
    linear time in total instead of one scan each.
    """

    __slots__ = ("found", "rx", "searched", "text")

    def __init__(self, text: str, rx: re.Pattern[str]) -> None:
        self.text = text
        self.rx = rx
        self.found: re.Match[str] | None = None
        self.searched = -1

    def after(self, pos: int) -> re.Match[str] | None:
        stale = self.found is not None and self.found.start() < pos
        if self.searched < 0 or pos < self.searched or stale:
            self.found = self.rx.search(self.text, pos)
            self.searched = pos
        return self.found


class _Scan:
    """The state of one pass over the keyword hits of a text."""

    __slots__ = (
        "add",
        "low",
        "pem_done",
        "private_ends",
        "public",
        "public_ends",
        "seen_keys",
        "text",
    )

    def __init__(
        self, text: str, low: str, add: _Add, public: list[tuple[int, int]], engine: _Engine
    ) -> None:
        self.text = text
        self.low = low  # lower-cased, same length as text
        self.add = add
        self.public = public  # certificate / public key blocks: no entropy findings there
        self.seen_keys: set[int] = set()
        self.pem_done = -1
        self.public_ends = _NextFinder(low, engine.pem_public_end)
        self.private_ends = _NextFinder(text, engine.pem_end)


class _Engine:
    """Compiled patterns (built once, on first use) and the scan."""

    def __init__(self) -> None:
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
        # compiled on the first token with that prefix: most texts need only a few
        self.provider_sources = {k: "|".join(v) for k, v in by_prefix.items()}
        self.providers: dict[str, re.Pattern[str]] = {}
        self.piece_cache: dict[str, tuple[tuple[int, int], ...]] = {}
        self.extend = c(r"[A-Za-z0-9_-]+", a)
        self.inner_sep = c(r"[/.+]", a)
        self.aws_context = c(
            r"(?:AKIA|ASIA)[A-Z0-9]{16}[^\r\n]{1,120}?(?<![A-Za-z0-9/+])"
            r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
            a,
        )
        self.pem_begin = c(r"-{3,5} ?BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)? ?-{3,5}", a)
        self.pem_end = c(r"-{3,5} ?END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)? ?-{3,5}", a)
        self.pem_public_end = c(r"-----end ", a)
        sep = r"(?:\r?\n|(?:\\{1,3}r)?\\{1,3}n)"
        line = r"(?:[A-Za-z0-9+/=]{1,200}|[A-Za-z][A-Za-z0-9-]{0,40}: ?[^\r\n\\]{0,200})"
        self.pem_body = c(rf"[ \t]*[A-Za-z0-9+/=]{{0,200}}(?:{sep}[ \t]{{0,16}}{line}){{0,400}}", a)
        self.hex_only = c(r"[0-9a-f-]+|[0-9A-F-]+", a)
        self.digit = c(r"[0-9]", a)
        self.letter = c(r"[A-Za-z]", a)
        self.url = c(
            r"://[^\s:/?#@\"'<>\\\[\]]{0,256}:([^\s/?#\"'<>\\]{1,512})@(?=[^\s@/\"'<>]{1,256})", a
        )
        self.keywords = c(_trie_pattern(_KEYWORDS), a)
        # after a keyword: the rest of the key name, a closing quote, then "=" or ":"
        self.assign_tail = c(r"[a-z0-9_.-]{0,60}(?:\\{0,3}[\"'`])?[ \t]{0,8}[:=]", a)
        self.authorization = c(
            r"authorization\\{0,3}[\"']?[ \t]{0,8}[:=][ \t]{0,8}"
            r"(?:[fbr]{0,2}\\{0,3}[\"'])?[ \t]{0,4}"
            r"(?:(?P<scheme2>digest|negotiate|ntlm|aws4-hmac-sha256|hmac)[ \t]{1,8}"
            r"(?P<cred2>[^\r\n\"'\\]{1,2048})"
            r"|(?:(?P<scheme>bearer|basic|token|bot|dpop|oauth|apikey|api-key|sso-key|key|"
            r"splunk|gapps)[ \t]{1,8})?(?P<cred>[^\s\"'\\,;()\[\]{}<>]{1,4096}))",
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
        self.netrc_password = c(r"password[ \t]+([^\s\"'\\]{1,512})", a)
        self.netrc_line = c(r"\s*(?:machine[ \t]+\S+[ \t]+|default[ \t]+)login[ \t]+\S+[ \t]+$", a)
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
        assign = (self.on_assignment,)
        self.handlers: dict[str, tuple[_Handler, ...]] = {w: assign for w in _ASSIGN_WORDS}
        self.handlers.update(
            {
                "-----begin ": (self.on_public_begin,),
                "private key": (self.on_private_key,),
                "putty-user-key-file": (self.on_private_key,),
                "authorization": (self.on_authorization,),
                "bearer": (self.on_bearer,),
                "basic": (self.on_basic,),
                "identified": (self.on_sql,),
                "--user": (self.on_curl_user,),
                "--proxy-user": (self.on_curl_user,),
                "-u": (self.on_curl_user,),
                "password": (self.on_sql, self.on_netrc, self.on_assignment),
                "cookie": (self.on_cookie, self.on_assignment),
                "_pat=": (self.on_pat,),
                "_pat:": (self.on_pat,),
                '_pat"': (self.on_pat,),
            }
        )

    # ------------------------------------------------------------------ scanning

    def find(self, text: str) -> list[tuple[str, int, int]]:
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
            starts, ends = _merge_intervals(public)
            spans = [sp for sp in spans if sp[2] != _P_ENTROPY or not _inside(sp[0], starts, ends)]
        markers = [(m.start(), m.end()) for m in self.marker_rx.finditer(text)]
        return _merge(text, spans, markers)

    def provider_rx(self, prefix: str) -> re.Pattern[str] | None:
        rx = self.providers.get(prefix)
        if rx is None:
            source = self.provider_sources.get(prefix)
            if source is None:
                return None
            rx = self.providers[prefix] = re.compile(source, re.ASCII)
        return rx

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
            rx = self.provider_rx(text[pos : pos + 2])
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
            or self.hex_only.fullmatch(run.strip("/+_-"))
            or _exempt_context(text, start, run)
        ):
            return
        spans = self.piece_cache.get(run)
        if spans is None:
            if len(run) > 512:  # a long blob: judge its head, report it whole
                spans = ((0, len(run)),) if any(True for _ in _random_pieces(run[:512])) else ()
            else:
                spans = tuple(
                    (s, e) for s, e in _random_pieces(run) if not self.hex_only.fullmatch(run, s, e)
                )
            if len(self.piece_cache) >= 4096:
                self.piece_cache.clear()
            self.piece_cache[run] = spans  # paths and ids repeat a lot in hook payloads
        for s, e in spans:
            yield start + s, start + e

    def scan_keywords(self, text: str, add: _Add, public: list[tuple[int, int]]) -> None:
        low = text.lower()
        if len(low) != len(text):  # a few non-ASCII characters lower-case to two
            low = text.encode("ascii", "replace").decode("ascii").lower()
        scan = _Scan(text, low, add, public, self)
        handlers = self.handlers
        for hit in self.keywords.finditer(low):
            for handler in handlers[hit.group(0)]:
                handler(scan, hit.start(), hit.end())

    # keyword handlers: (scan, start of the keyword, end of the keyword)

    def on_public_begin(self, scan: _Scan, pos: int, _end: int) -> None:
        if "private" not in scan.low[pos : pos + 60]:
            end = scan.public_ends.after(pos)
            if end is not None and end.start() - pos <= 65536:
                scan.public.append((pos, end.start()))

    def on_private_key(self, scan: _Scan, pos: int, _end: int) -> None:
        if pos >= scan.pem_done:
            scan.pem_done = self.scan_pem(scan.text, max(0, pos - 60), scan.add, scan.private_ends)

    def on_authorization(self, scan: _Scan, pos: int, _end: int) -> None:
        if _left_ok(scan.text, pos) or scan.low.endswith("proxy-", 0, pos):
            self.header(self.authorization.match(scan.text, pos), scan.add)

    def on_bearer(self, scan: _Scan, pos: int, _end: int) -> None:
        m = self.bearer.match(scan.text, pos)
        if m is not None and _left_ok(scan.text, pos) and _check_bearer(m):
            scan.add((m.start(1), m.end(1), _P_HEADER + 10, "bearer_token"))

    def on_basic(self, scan: _Scan, pos: int, _end: int) -> None:
        m = self.basic.match(scan.text, pos)
        if m is not None and _left_ok(scan.text, pos) and _check_basic(m):
            scan.add((m.start(1), m.end(1), _P_HEADER + 20, "basic_auth"))

    def on_sql(self, scan: _Scan, pos: int, _end: int) -> None:
        self.command(self.sql_password.match(scan.text, pos), "password", scan.add)

    def on_curl_user(self, scan: _Scan, pos: int, _end: int) -> None:
        if _left_ok(scan.text, pos):
            self.command(self.curl_user.match(scan.text, pos), "password", scan.add)

    def on_netrc(self, scan: _Scan, pos: int, _end: int) -> None:
        low = scan.low
        line_start = max(low.rfind("\n", max(0, pos - 300), pos), pos - 300, 0)
        if self.netrc_line.search(low, line_start, pos):
            self.command(self.netrc_password.match(scan.text, pos), "password", scan.add)

    def on_cookie(self, scan: _Scan, pos: int, _end: int) -> None:
        if _left_ok(scan.text, pos) or scan.low.endswith("set-", 0, pos):
            m = self.cookie.match(scan.text, pos)
            if m is not None and _check_cookie(m):
                scan.add((m.start(1), m.end(1), _P_COOKIE, "cookie"))

    def on_pat(self, scan: _Scan, start: int, _end: int) -> None:
        """``GH_PAT=...``: "pat" alone is searched only this way ("path" is everywhere)."""
        self.assignment_at(scan.text, scan.low, start + 1, start + 4, scan.seen_keys, scan.add)

    def on_assignment(self, scan: _Scan, start: int, end: int) -> None:
        self.assignment_at(scan.text, scan.low, start, end, scan.seen_keys, scan.add)

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
        if _backslashes_before(text, key_start) % 2 == 1 and key_start < start:
            key_start += 1  # "\nDB_PASSWORD=..." inside a JSON string
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

    def scan_pem(self, text: str, pos: int, add: _Add, ends: _NextFinder) -> int:
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
        end = ends.after(m.end())
        if end is not None and end.start() - m.end() <= 65536:
            stop = end.end()
        else:
            stop = self.body_end(text, m.end())
        add((m.start(), stop, _P_PEM, "private_key"))
        return stop


def _merge(
    text: str, spans: list[tuple[int, int, int, str]], markers: list[tuple[int, int]]
) -> list[tuple[str, int, int]]:
    fixed: list[tuple[int, int, int, str]] = []
    for s, e, prio, kind in spans:
        s, e = _fix_span(text, s, e)
        if s < e and not _overlaps_marker(s, e, markers):
            fixed.append((s, e, prio, kind))
    fixed.sort()
    out: list[tuple[str, int, int]] = []
    cur_s = cur_e = -1
    cur_p = 0
    cur_k = ""
    for s, e, prio, kind in fixed:
        if s < cur_e:
            cur_e = max(cur_e, e)
            if prio < cur_p:
                cur_p, cur_k = prio, kind
            continue
        if cur_e > 0:
            out.append((cur_k, cur_s, cur_e))
        cur_s, cur_e, cur_p, cur_k = s, e, prio, kind
    if cur_e > 0:
        out.append((cur_k, cur_s, cur_e))
    return out


def _merge_intervals(intervals: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Sorted, disjoint (starts, ends) covering ``intervals``."""
    starts: list[int] = []
    ends: list[int] = []
    for a, b in sorted(intervals):
        if ends and a <= ends[-1]:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    return starts, ends


def _inside(pos: int, starts: list[int], ends: list[int]) -> bool:
    i = bisect_right(starts, pos)
    return i > 0 and pos < ends[i - 1]


def _overlaps_marker(s: int, e: int, markers: list[tuple[int, int]]) -> bool:
    """True if [s, e) overlaps one of the sorted, disjoint marker spans."""
    if not markers:
        return False
    i = bisect_left(markers, (e, -1))  # markers[:i] start before e
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
    after = m.string[m.end() : m.end() + 1]
    if m.group("scheme") is None and (after in ("(", "[") or cred.endswith(".")):
        return None  # code: "authorization = base64.decodebytes(authorization)"
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
    try:
        raw = a2b_base64(m.group(1))
    except (BinasciiError, ValueError):
        return False
    return b":" in raw and len(raw) >= 3


def _check_cookie(m: re.Match[str]) -> bool:
    """A ``Cookie:`` header value starts with ``name=``."""
    value = m.group(1).strip()
    name, eq, _ = value.partition("=")
    return (
        bool(eq and name)
        and all(c.isalnum() or c in "_.-" for c in name)
        and not (_looks_placeholder(value))
    )


def _check_assignment(m: re.Match[str]) -> str | None:
    key = m.group("key")
    kind = secret_key_kind(key)
    if kind is None:
        return None
    groups = m.groupdict()
    unquoted = groups.get("v4")
    value = unquoted
    for name in ("v1", "v2", "v3"):
        if groups.get(name) is not None:
            value = groups[name]
    if value is None or _looks_placeholder(value) or _numeric_literal(value):
        return None
    if kind in _WEAK_KINDS and not _token_like(value):
        return None  # "sig = result", "auth: enabled", "signature: (a, b)"
    text = m.string
    if unquoted is not None:
        if _looks_code_or_path(value, key, text[m.end() : m.end() + 2]):
            return None
        sep = groups.get("sep")
        bare_word = value.isidentifier() and not any(ch.isdigit() for ch in value)
        if sep is None and value.isalpha():
            return None  # prose: "pass the --token flag"
        if sep == ":" and not (_ends_line(text, m.end()) or _has_digit_and_letter(value)):
            return None  # prose: "the token: it expires", "auth: enabled for all"
        if bare_word and sep != ":" and " " in text[m.start("sep") - 1 : m.start("sep") + 2]:
            return None  # code: "self.token = nextchar" (a shell or .env line has no spaces)
    elif value.startswith(("~/", "./", "../")):
        return None
    return kind


_WEAK_KINDS = frozenset({"auth", "signature", "cookie"})


def _token_like(value: str) -> bool:
    """For weak key names: a value that looks like a credential, not a word, name or hash."""
    if len(value) < 8 or any(c.isspace() for c in value) or not _has_digit_and_letter(value):
        return False
    if all(p.isidentifier() for p in value.split(".")):
        return False  # "CallableType2", "pkg.module.func"
    return not all(c in _HEX for c in value)  # a digest, e.g. the CACHEDIR.TAG signature


def _numeric_literal(value: str) -> bool:
    """``0x08074b50``, ``1.3.6.1.5.5.7.3.1``, ``3.14``, ``4096``: numbers, not secrets."""
    v = value.lower()
    if v.startswith(("0x", "0o", "0b")):
        return all(c in "0123456789abcdef_" for c in v[2:])
    digits = v.replace(".", "").replace("_", "")
    return digits.isdigit() and ("." in v or len(digits) < 6)


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
    structural = [_is_word_piece(run[s:e]) or _is_hex_piece(run[s:e]) for s, e in pieces]
    if sum(structural) < 2:
        if _looks_random(run) and not _short_text_b64(run):
            yield 0, n
        return
    stretch_start = -1
    stretch_end = -1
    for (s, e), is_structure in zip([*pieces, (n + 1, n + 1)], [*structural, True], strict=True):
        if not is_structure:
            if stretch_start < 0:
                stretch_start = s
            stretch_end = e
            continue
        stretch = run[stretch_start:stretch_end] if stretch_start >= 0 else ""
        if len(stretch) >= 20 and _looks_random(stretch):
            yield stretch_start, stretch_end
        stretch_start = -1


# ------------------------------------------------------------- entropy heuristics

_ID_PREFIXES = (
    "toolu_",
    "srvtoolu_",
    "msg_",
    "msgbatch_",
    "wrkspc_",
    "apikey_",
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


def _is_hex_piece(p: str) -> bool:
    """A digest or id made of hex digits (one letter case), e.g. a blob name in a path."""
    return len(p) >= 8 and (p.islower() or p.isupper() or p.isdigit()) and all(c in _HEX for c in p)


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
    return len(stem) <= 4 or any(c in _VOWELS for c in stem)  # "pkcs12", "utf8", "lib"


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
    try:
        head = a2b_base64(run[:24])
    except (BinasciiError, ValueError):
        return False
    return head[4:].startswith((b"ssh-", b"ecdsa-", b"sk-ssh-", b"sk-ecdsa-"))


def _shannon(s: str) -> float:
    counts: dict[str, int] = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(s)
    return -sum(k / n * log2(k / n) for k in counts.values())


def _looks_random(s: str) -> bool:
    """Random-looking alphanumerics (separators ignored); see the entropy policy."""
    alnum = "".join(c for c in s if c.isalnum())
    n = len(alnum)
    if n < 16 or alnum.isalpha() or alnum.isdigit():
        return False
    if _shannon(alnum) < min(3.5, log2(n) - 1.0):
        return False
    steps = sum(1 for x, y in pairwise(alnum) if ord(y) - ord(x) == 1)
    if steps >= 0.4 * (n - 1):
        return False  # "abcdefghijklmnopqrstuvwxyz0123456789"
    wordy, digit_groups = _word_shape(alnum)
    return wordy < 0.65 or digit_groups >= 4 or (wordy < 0.9 and digit_groups >= 3)


def _word_shape(alnum: str) -> tuple[float, int]:
    """Share of letters that sit in word-like segments, and the number of digit groups.

    Segments are CamelCase words, acronyms and digit groups.  A segment is word-like when it
    has 3+ letters, a vowel and no run of 5+ consonants (an acronym of up to 5 capitals
    counts too inside a mixed-case name).  Identifiers score near 1, random strings low.
    """
    has_lower = any(c.islower() for c in alnum)
    letters = wordy = digit_groups = 0
    i = 0
    n = len(alnum)
    while i < n:
        j = i + 1
        c = alnum[i]
        if c.isdigit():
            while j < n and alnum[j].isdigit():
                j += 1
            digit_groups += 1
        elif c.islower() or (j < n and alnum[j].islower()):
            while j < n and alnum[j].islower():
                j += 1
        else:  # a run of capitals, minus the one that starts the next CamelCase word
            while j < n and alnum[j].isupper():
                j += 1
            if j < n and alnum[j].islower() and j - i > 1:
                j -= 1
        seg = alnum[i:j]
        if not c.isdigit():
            letters += len(seg)
            if _word_like(seg, has_lower):
                wordy += len(seg)
        i = j
    return (wordy / letters if letters else 1.0), digit_groups


def _word_like(seg: str, has_lower: bool) -> bool:
    if seg.isupper() and has_lower:
        return len(seg) <= 5
    if len(seg) < 3:
        return False
    run = longest = 0
    vowels = 0
    for c in seg:
        if c in _VOWELS:
            vowels += 1
            run = 0
        else:
            run += 1
            longest = max(longest, run)
    return vowels > 0 and longest <= 4


def _short_text_b64(s: str) -> bool:
    """True for base64 of short readable text such as "this is a test"."""
    if len(s) > 96 or len(s) % 4 == 1:
        return False
    try:
        raw = a2b_base64(s + "=" * (-len(s) % 4))
    except (BinasciiError, ValueError):
        return False
    if not raw or not all(32 <= b < 127 for b in raw):
        return False
    letters = sum(chr(b).isalpha() for b in raw)
    return b" " in raw and letters >= 0.6 * len(raw)


_ENGINE = _Engine()


def find(text: str) -> list[tuple[str, int, int]]:
    """Sorted, disjoint ``(kind, start, end)`` secrets in ``text``."""
    return _ENGINE.find(text)


def looks_placeholder(value: str) -> bool:
    """True for values that are not literal secrets: ``$VAR``, ``<token>``, ``***``, ``""``..."""
    return _looks_placeholder(value)
