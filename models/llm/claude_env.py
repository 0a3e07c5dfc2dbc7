"""The minimal environment of a `claude -p` child: login, provider and proxy settings only."""

from __future__ import annotations

import os
from collections.abc import Mapping

PASS_NAMES = frozenset(
    {
        "PATH",
        "HOME",
        "USER",
        "LOGNAME",
        "SHELL",
        "LANG",
        "LC_ALL",
        "LC_CTYPE",
        "TZ",
        "TMPDIR",
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
        "XDG_STATE_HOME",
        "XDG_RUNTIME_DIR",
        "CLAUDE_CONFIG_DIR",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "NO_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "no_proxy",
        "all_proxy",
        "NODE_EXTRA_CA_CERTS",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "DISABLE_TELEMETRY",
        "DISABLE_ERROR_REPORTING",
        "DISABLE_AUTOUPDATER",
        "CLOUD_ML_REGION",
    }
)
# Credentials and provider selection (API key, OAuth token, Bedrock, Vertex, Foundry).
PASS_PREFIXES = ("ANTHROPIC_", "CLAUDE_CODE_", "AWS_", "GOOGLE_", "VERTEX_REGION_")
# Set by a parent Claude Code session; a child must not look like part of it.
DROP_NAMES = frozenset({"CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_SSE_PORT"})
#: Present in the child's environment so our own hooks can recognise the distiller.
CHILD_MARKER = "SKILL_MEMORY_DISTILLER_CHILD"


def child_env(
    env: Mapping[str, str], *, timeout: float, max_attempts: int, max_tokens: int
) -> dict[str, str]:
    """Pass through what login and networking need; pin retries, timeout and output size."""
    child = {
        name: value
        for name, value in env.items()
        if (name in PASS_NAMES or name.startswith(PASS_PREFIXES)) and name not in DROP_NAMES
    }
    child.setdefault("PATH", os.defpath)
    child.setdefault("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
    child.update(
        {
            "CLAUDE_CODE_MAX_RETRIES": str(max(0, max_attempts - 1)),
            "API_TIMEOUT_MS": str(max(1, int(timeout * 1000))),
            "CLAUDE_CODE_MAX_OUTPUT_TOKENS": str(max_tokens),
            "CLAUDE_CODE_DISABLE_THINKING": "1",
            "CLAUDE_CODE_DISABLE_CLAUDE_MDS": "1",
            "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1",
            CHILD_MARKER: "1",
        }
    )
    return child
