"""Fake secrets in real formats, and look-alikes that must survive redaction.

Every secret here is FAKE: right prefix, length and alphabet, random-looking, built at
import from a seeded ``random.Random`` (so the corpus is identical on every run and no
real credential ever sits in the repository).

Use ``SECRETS`` (``[(kind, text)]``) or, better, ``CASES`` whose ``core`` is the part that
must never appear in a prompt, a lesson, a log or an injected text.  For token-like
secrets ``text == core``; for secrets that need context to be recognised (a password in a
URL, ``KEY=value``, an ``Authorization`` header...) ``text`` carries that minimal context
and ``core`` is the sensitive part alone.  Each ``text`` is recognised when it is
delimited by whitespace or punctuation, wherever it is inserted.

``BENIGN`` holds strings that ``redact`` must leave byte for byte, including git commit
ids in prose, UUIDs, lockfile hashes (npm ``sha512-`` integrity, ``go.sum`` ``h1:``,
``sha256:`` digests), paths, URLs without a password, version strings, base64 of short
words, identifiers, non-secret API object ids and code that merely names secrets.
"""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass

_rng = random.Random(20261129)

B62 = string.ascii_letters + string.digits
B64 = B62 + "+/"
B64URL = B62 + "-_"
HEX = "0123456789abcdef"
B32 = string.ascii_uppercase + "234567"
UPPER_DIGITS = string.ascii_uppercase + string.digits
LOWER_DIGITS = string.ascii_lowercase + string.digits
PASSWORD_CHARS = B62 + "!@#^*-_+"


def _pick(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def _mixed(alphabet: str, n: int) -> str:
    """Random string holding every character class (upper, lower, digit) that ``alphabet`` has."""
    classes = [cls for cls in (str.isupper, str.islower, str.isdigit) if any(map(cls, alphabet))]
    while True:
        s = _pick(alphabet, n)
        if all(any(map(cls, s)) for cls in classes):
            return s


def _password(n: int = 18) -> str:
    while True:
        s = _pick(PASSWORD_CHARS, n)
        if s[0].isalnum() and any(c.isdigit() for c in s) and any(c.isupper() for c in s):
            return s


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _jwt(alg: str, claims: dict[str, object], sig_bytes: int) -> str:
    header = _b64url(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    payload = _b64url(json.dumps(claims, separators=(",", ":")).encode())
    sig = _b64url(_rng.randbytes(sig_bytes))
    return f"{header}.{payload}.{sig}"


def _pem(label: str, nbytes: int, *, end: bool = True, newline: str = "\n") -> str:
    body = base64.b64encode(_rng.randbytes(nbytes)).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    parts = [f"-----BEGIN {label}-----", *lines]
    if end:
        parts.append(f"-----END {label}-----")
    return newline.join(parts)


@dataclass(frozen=True)
class SecretCase:
    name: str  # unique id, e.g. "github_ghp"
    kind: str  # the marker kind redact() must produce: "[REDACTED:<kind>]"
    text: str  # the secret as it appears (with minimal context when it needs one)
    core: str  # the part that must never survive redaction


def _case(name: str, kind: str, text: str, core: str | None = None) -> SecretCase:
    return SecretCase(name, kind, text, text if core is None else core)


def _build_cases() -> list[SecretCase]:
    c: list[SecretCase] = []
    add = c.append
    # --- Anthropic ---
    add(_case("anthropic_api03", "anthropic_api_key", f"sk-ant-api03-{_mixed(B64URL, 93)}AA"))
    add(_case("anthropic_admin01", "anthropic_api_key", f"sk-ant-admin01-{_mixed(B64URL, 93)}AA"))
    add(
        _case(
            "anthropic_oauth_oat01", "anthropic_oauth_token", f"sk-ant-oat01-{_mixed(B64URL, 93)}AA"
        )
    )
    add(
        _case(
            "anthropic_oauth_ort01", "anthropic_oauth_token", f"sk-ant-ort01-{_mixed(B64URL, 93)}AA"
        )
    )
    # --- OpenAI and compatible ---
    add(_case("openai_legacy", "openai_api_key", f"sk-{_mixed(B62, 20)}T3BlbkFJ{_mixed(B62, 20)}"))
    add(_case("openai_project", "openai_api_key", f"sk-proj-{_mixed(B64URL, 156)}"))
    add(_case("openai_service_account", "openai_api_key", f"sk-svcacct-{_mixed(B64URL, 120)}"))
    add(_case("openai_admin", "openai_api_key", f"sk-admin-{_mixed(B64URL, 100)}"))
    add(_case("openai_compatible_hex", "openai_api_key", f"sk-{_pick(HEX, 32)}"))
    add(_case("openrouter", "openrouter_api_key", f"sk-or-v1-{_pick(HEX, 64)}"))
    # --- AWS ---
    add(_case("aws_akia", "aws_access_key_id", f"AKIA{_pick(B32, 16)}"))
    add(_case("aws_asia", "aws_access_key_id", f"ASIA{_pick(B32, 16)}"))
    aws_secret = _mixed(B64, 40)
    add(
        _case(
            "aws_secret_credentials_file",
            "aws_secret_access_key",
            f"aws_secret_access_key = {aws_secret}",
            aws_secret,
        )
    )
    aws_secret2 = _mixed(B64, 40)
    add(
        _case(
            "aws_secret_after_key_id",
            "aws_secret_access_key",
            f"AKIA{_pick(B32, 16)},{aws_secret2}",
            aws_secret2,
        )
    )
    # --- GitHub ---
    for prefix in ("ghp", "gho", "ghu", "ghs", "ghr"):
        add(_case(f"github_{prefix}", "github_token", f"{prefix}_{_mixed(B62, 36)}"))
    add(
        _case(
            "github_fine_grained_pat",
            "github_token",
            f"github_pat_11{_mixed(UPPER_DIGITS, 20)}_{_mixed(B62, 59)}",
        )
    )
    # --- GitLab ---
    add(_case("gitlab_pat", "gitlab_token", f"glpat-{_mixed(B64URL, 20)}"))
    add(_case("gitlab_deploy_token", "gitlab_token", f"gldt-{_mixed(B64URL, 20)}"))
    add(_case("gitlab_runner_token", "gitlab_token", f"glrt-{_mixed(B64URL, 20)}"))
    # --- Slack ---
    add(
        _case(
            "slack_bot",
            "slack_token",
            f"xoxb-{_pick(string.digits, 12)}-{_pick(string.digits, 13)}-{_mixed(B62, 24)}",
        )
    )
    add(
        _case(
            "slack_user",
            "slack_token",
            f"xoxp-{_pick(string.digits, 12)}-{_pick(string.digits, 12)}-"
            f"{_pick(string.digits, 13)}-{_pick(HEX, 32)}",
        )
    )
    add(
        _case(
            "slack_app",
            "slack_token",
            f"xapp-1-A{_pick(UPPER_DIGITS, 10)}-{_pick(string.digits, 13)}-{_pick(HEX, 64)}",
        )
    )
    hook = f"T{_pick(UPPER_DIGITS, 10)}/B{_pick(UPPER_DIGITS, 10)}/{_mixed(B62, 24)}"
    add(_case("slack_webhook", "slack_webhook", f"https://hooks.slack.com/services/{hook}", hook))
    discord = f"{_pick(string.digits, 18)}/{_mixed(B64URL, 68)}"
    add(
        _case(
            "discord_webhook",
            "discord_webhook",
            f"https://discord.com/api/webhooks/{discord}",
            discord,
        )
    )
    # --- Google ---
    add(_case("google_api_key", "google_api_key", f"AIza{_mixed(B64URL, 35)}"))
    add(
        _case(
            "google_oauth_client_secret",
            "google_oauth_client_secret",
            f"GOCSPX-{_mixed(B64URL, 28)}",
        )
    )
    add(_case("google_oauth_access_token", "google_oauth_token", f"ya29.{_mixed(B64URL, 160)}"))
    add(_case("google_oauth_refresh_token", "google_oauth_token", f"1//0{_mixed(B64URL, 99)}"))
    # --- Stripe ---
    add(_case("stripe_secret_live", "stripe_key", f"sk_live_{_mixed(B62, 99)}"))
    add(_case("stripe_restricted_live", "stripe_key", f"rk_live_{_mixed(B62, 99)}"))
    add(_case("stripe_secret_test", "stripe_key", f"sk_test_{_mixed(B62, 24)}"))
    add(_case("stripe_publishable_live", "stripe_key", f"pk_live_{_mixed(B62, 99)}"))
    add(_case("stripe_webhook_secret", "stripe_key", f"whsec_{_mixed(B62, 32)}"))
    # --- other providers ---
    add(_case("huggingface", "huggingface_token", f"hf_{_pick(string.ascii_letters, 34)}"))
    add(_case("npm", "npm_token", f"npm_{_mixed(B62, 36)}"))
    add(_case("pypi", "pypi_token", f"pypi-AgEIcHlwaS5vcmc{_mixed(B64URL, 150)}"))
    add(_case("sendgrid", "sendgrid_api_key", f"SG.{_mixed(B64URL, 22)}.{_mixed(B64URL, 43)}"))
    add(_case("digitalocean", "digitalocean_token", f"dop_v1_{_pick(HEX, 64)}"))
    add(_case("groq", "groq_api_key", f"gsk_{_mixed(B62, 52)}"))
    add(_case("xai", "xai_api_key", f"xai-{_mixed(B62, 80)}"))
    add(_case("replicate", "replicate_api_token", f"r8_{_mixed(B62, 37)}"))
    add(_case("perplexity", "perplexity_api_key", f"pplx-{_mixed(B62, 48)}"))
    add(_case("fireworks", "fireworks_api_key", f"fw_{_mixed(B62, 24)}"))
    add(_case("shopify", "shopify_token", f"shpat_{_pick(HEX, 32)}"))
    add(_case("databricks", "databricks_token", f"dapi{_pick(HEX, 32)}"))
    add(_case("linear", "linear_api_key", f"lin_api_{_mixed(B62, 40)}"))
    add(_case("notion", "notion_token", f"ntn_{_mixed(B62, 46)}"))
    add(_case("atlassian", "atlassian_api_token", f"ATATT3xFfGF0{_mixed(B64URL, 180)}"))
    add(_case("doppler", "doppler_token", f"dp.pt.{_mixed(B62, 43)}"))
    add(_case("twilio", "twilio_api_key", f"SK{_pick(HEX, 32)}"))
    add(_case("mailgun", "mailgun_api_key", f"key-{_pick(HEX, 32)}"))
    add(_case("sentry_org", "sentry_token", f"sntrys_{_mixed(B62, 90)}"))
    # --- JWT ---
    add(
        _case(
            "jwt_hs256",
            "jwt",
            _jwt(
                "HS256",
                {"sub": str(_rng.randrange(10**9)), "name": "Jane Doe", "iat": 1716239022},
                32,
            ),
        )
    )
    add(
        _case(
            "jwt_rs256_long",
            "jwt",
            _jwt(
                "RS256",
                {
                    "iss": "https://auth.example.com/",
                    "sub": f"auth0|{_pick(HEX, 24)}",
                    "aud": ["https://api.example.com"],
                    "scope": "openid profile email read:repos",
                    "exp": 1893456000,
                },
                256,
            ),
        )
    )
    # --- private keys ---
    add(_case("private_key_rsa", "private_key", _pem("RSA PRIVATE KEY", 900)))
    openssh = _pem("OPENSSH PRIVATE KEY", 300, end=False)
    add(_case("private_key_openssh_truncated", "private_key", openssh, openssh))
    ec = _pem("EC PRIVATE KEY", 120, newline="\\n")  # as it sits inside a JSON string
    add(_case("private_key_ec_json_escaped", "private_key", ec))
    add(_case("private_key_pgp", "private_key", _pem("PGP PRIVATE KEY BLOCK", 600)))
    add(_case("private_key_pkcs8_encrypted", "private_key", _pem("ENCRYPTED PRIVATE KEY", 700)))
    add(_case("age_secret_key", "private_key", f"AGE-SECRET-KEY-1{_pick(UPPER_DIGITS, 58)}"))
    # --- credentials in context ---
    pw = _password()
    add(
        _case(
            "url_password_postgres",
            "url_password",
            f"postgres://app_user:{pw}@db.internal:5432/app",
            pw,
        )
    )
    pw = _password()
    add(_case("url_password_redis_no_user", "url_password", f"redis://:{pw}@cache:6379/0", pw))
    pw = _password(24)
    add(
        _case(
            "url_password_git_remote",
            "url_password",
            f"https://deploy:{pw}@git.example.com/group/repo.git",
            pw,
        )
    )
    tok = _mixed(B62, 40)
    add(_case("authorization_bearer", "bearer_token", f"Authorization: Bearer {tok}", tok))
    basic = base64.b64encode(f"deploy:{_password()}".encode()).decode()
    add(_case("authorization_basic", "basic_auth", f"Authorization: Basic {basic}", basic))
    pw = _password()
    add(_case("env_db_password", "password", f"DB_PASSWORD={pw}", pw))
    key = _mixed(B62, 32)
    add(_case("json_api_key", "api_key", f'"api_key": "{key}"', key))
    sec = _mixed(B64URL, 40)
    add(_case("yaml_client_secret", "secret", f"client_secret: {sec}", sec))
    sec = _pick(HEX, 32)
    add(_case("env_hex_signing_secret", "secret", f"SLACK_SIGNING_SECRET={sec}", sec))
    sec = _password(50)
    add(_case("export_secret_key", "secret", f'export SECRET_KEY="{sec}"', sec))
    pw = _password()
    add(_case("cli_password_flag", "password", f"--password {pw}", pw))
    pw = _password()
    add(_case("curl_user_password", "password", f"curl -u admin:{pw} https://api.example.com", pw))
    sid = _mixed(B62, 32)
    add(
        _case(
            "cookie_header", "cookie", f"Cookie: sessionid={sid}; csrftoken={_mixed(B62, 32)}", sid
        )
    )
    pw = _password()
    add(_case("netrc_password", "password", f"machine api.example.com login bob password {pw}", pw))
    pw = _password()
    add(_case("sql_identified_by", "password", f"CREATE USER app IDENTIFIED BY '{pw}';", pw))
    # --- generic high-entropy tokens (no prefix, no context) ---
    add(_case("generic_base62_32", "high_entropy", _mixed(B62, 32)))
    add(_case("generic_base64_40", "high_entropy", _mixed(B64, 38) + "/+"))
    add(_case("generic_base64url_48", "high_entropy", _mixed(B64URL, 48)))
    return c


CASES: list[SecretCase] = _build_cases()

SECRETS: list[tuple[str, str]] = [(case.kind, case.text) for case in CASES]

_SHA = "3f786850e387550fdab836ed7e6dc881de23001b"
_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

BENIGN: list[str] = [
    # git commit ids: kept (hex-only strings are never reported without context)
    f"fixed in commit {_SHA}",
    "git show a1b2c3d --stat",
    "9fceb02 Fix token refresh when the session expires",
    f"https://github.com/anthropics/claude-code/blob/{_SHA}/src/index.ts",
    f"Merge: {_SHA[:12]} 1d5a33bc44e2",
    # UUIDs and API object ids
    "session fa9b1564-5fd9-43aa-9db9-dac39bfb9350 resumed",
    "123e4567-e89b-12d3-a456-426614174000",
    '"tool_use_id": "toolu_01A09q90qw90lq917835lq9"',
    '"id": "msg_01XFDUDYJgAACzvnptvVoYEL"',
    "request-id: req_011CSHoEeqs5C35K2UUqR7Fy",
    '"id": "chatcmpl-9x8YhQ2kLmN3oPqRsTuVwXyZ01234"',
    # lockfile and content hashes
    f"sha256:{_SHA256}",
    f"python:3.11-slim@sha256:{_SHA256}",
    '"integrity": "sha512-p7ZCkZ2r1vJ9wQ8yXh3nT5mG6fK0sB4dL1aE2cV9uI7oP3qW8eR5tY6uI0oP2aS4dF'
    '7gH9jK1lZ3xC5vB7nM9qA=="',
    "golang.org/x/text v0.14.0 h1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=",
    f"--hash=sha256:{_SHA256}",
    # paths
    "/home/user/projects/fireworks-skill-memory/memory/redact.py",
    "~/.claude/projects/-tmp-e2e-proj/fa9b1564-5fd9-43aa-9db9-dac39bfb9350.jsonl",
    "C:\\Users\\dev\\AppData\\Local\\Programs\\Python\\Python311\\python.exe",
    "node_modules/@babel/core/lib/transformation/normalize-opts.js",
    "src/components/UserProfileSettingsPanel/UserProfileSettingsPanel2.test.tsx",
    "__pycache__/redact.cpython-311.pyc",
    # URLs without a password
    "https://api.example.com/v1/users?page=2&per_page=50&sort=created_at",
    "git@github.com:yizhiyanhua-ai/fireworks-skill-memory.git",
    "ssh://git@github.com:22/org/repo.git",
    "https://alice@example.com/path/to/repo",
    "http://localhost:8080/health",
    # "sk-" and token-ish words in normal text
    "task-sk-list",
    "risk-sk-assessment-for-q3-2024",
    "tokens start with ghp_ or github_pat_ and keys with sk-",
    # versions and dates
    "v2.10.0-rc.1+build.20240101",
    "numpy==1.26.4 pandas>=2.2.0,<3",
    "2024-01-15T10:30:00.123456+00:00",
    # base64 of short words
    "aGVsbG8gd29ybGQ=",
    "dGhpcyBpcyBhIHRlc3Q=",
    "SGVsbG8sIFdvcmxkIQ==",
    # identifiers
    "AbstractSingletonProxyFactoryBean",
    "TestRedactProviderTokensInJsonPayloads",
    "Utf8JsonReaderWriterFactory2",
    "test_redact_removes_secrets_from_json_payloads_and_logs",
    "MAX_TOKENS_PER_REQUEST_DEFAULT",
    "fireworks-skill-memory-v2-release-candidate",
    # code that names secrets without holding one
    "def login(password: str, token: str | None = None) -> bool:",
    "client = Anthropic(api_key=api_key)",
    'token = os.environ["GITHUB_TOKEN"]',
    'headers = {"Authorization": f"Bearer {token}"}',
    "password = getpass.getpass()",
    '{"max_tokens": 4096, "input_tokens": 1234, "token_count": 17}',
    # placeholders
    "export API_KEY=$API_KEY",
    "DB_PASSWORD=${DB_PASSWORD}",
    "Authorization: Bearer <your-token>",
    'api_key: "YOUR_API_KEY"',
    'password: "********"',
    # prose
    "The token: it expires after one hour.",
    "Use the --token flag to pass a token.",
    "Bearer tokens must be refreshed before they expire.",
    "The Authorization: header is missing from the request.",
    "PWD=/home/user/project OLDPWD=/home/user",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHg2fXbqH0Ew3yTqkLr8s5bQ1mW7cZpV4nJ9dKxYf6aS alice@laptop",
]
