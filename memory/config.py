"""The one place settings are resolved: memory home, environment overrides and defaults.

Standard library only and cheap to import: hook processes load it on every tool call.
`OPTIONS` is the single table of environment variables; `--help`, `skill-memory config`
and the README table are all derived from (and tested against) it.

A relative path in a path variable resolves against the current folder, as a shell would,
so a one-off `AI_MEMORY_HOME=./scratch skill-memory ...` means what it says. Hooks start in
the agent's project folder, though, so the same value in a profile means one home per
project: `Settings.relative_paths` names such variables and `skill-memory doctor` fails on
them (the fix is an absolute path). Resolution itself stays silent: hooks may not print.
"""

from __future__ import annotations

import os

from fireworks_skill_memory.memory.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: hooks load this module
if TYPE_CHECKING:
    from collections.abc import Mapping

DEFAULT_EMBED_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
EMBED_BACKENDS = ("onnx", "torch")


class Option:
    """One environment variable: its name, default, type and meaning."""

    __slots__ = ("default", "env", "help", "kind")

    def __init__(self, env: str, default: str | int | float, help: str) -> None:
        self.env = env
        self.default = default
        self.kind = type(default)
        self.help = help


# Defaults of the original tool are kept where the variable still means something.
OPTIONS: tuple[Option, ...] = (
    Option(
        "AI_MEMORY_HOME",
        "",
        "memory home; else $CODEX_HOME/memories/fireworks-skill-memory "
        "when CODEX_HOME is set, else ~/.ai-memory",
    ),
    Option("AI_MEMORY_SKILLS_DIR", "", "skills folder (default <home>/skills)"),
    Option("AI_MEMORY_GLOBAL_FILE", "", "global lessons file (default <home>/global/KNOWLEDGE.md)"),
    Option(
        "SKILLS_KNOWLEDGE_DIR",
        "",
        "legacy Claude skills folder, read and importable (default ~/.claude/skills)",
    ),
    Option("SKILL_MAX", 100, "max lessons per skill; the lowest-value ones are evicted"),
    Option("GLOBAL_MAX", 100, "max global lessons"),
    Option("SKILLS_INJECT_TOP", 20, "max lessons injected for one skill"),
    Option(
        "SKILL_MEMORY_INJECT_TOKENS", 600, "size cap of one injected block, in tokens (~4 chars)"
    ),
    Option("MIN_TOOL_CALLS", 5, "sessions with fewer tool calls are not distilled"),
    Option("TRANSCRIPT_LINES", 300, "transcript lines read from the end of a session"),
    Option(
        "SKILLS_DISTILLER_BACKEND",
        "auto",
        "distiller: auto (anthropic when ANTHROPIC_API_KEY "
        "is set, else claude-cli), anthropic, claude-cli, openai or null",
    ),
    Option("SKILLS_KNOWLEDGE_MODEL", "claude-haiku-4-5", "model the distiller asks"),
    Option(
        "SKILLS_DISTILLER_LOG", "", "distiller debug log file (default <home>/logs/distill.log)"
    ),
    Option("SKILL_MEMORY_DISTILL_EVERY", 1, "distil every Nth eligible session"),
    Option("SKILL_MEMORY_DISTILL_MAX_CALLS", 50, "distiller calls allowed per day"),
    Option(
        "SKILL_MEMORY_DISTILL_MAX_TOKENS", 400000, "distiller tokens (in + out) allowed per day"
    ),
    Option(
        "SKILL_MEMORY_EMBED_MODEL",
        DEFAULT_EMBED_MODEL,
        "embedding model: the bundled default, "
        "a local folder, or a hub name (a hub name may download)",
    ),
    Option("SKILL_MEMORY_DEVICE", "cpu", "torch device for the embedding model"),
    Option(
        "SKILL_MEMORY_EMBED_BACKEND",
        "onnx",
        "onnx (onnxruntime, no torch at run time; the model is exported once, with torch) "
        "or torch (sentence-transformers); a hub model or a device other than cpu uses torch",
    ),
    Option(
        "SKILL_MEMORY_MODELS_DIR",
        "",
        "where the ONNX export of the model is kept (default <home>/models; homes may share one)",
    ),
    Option(
        "SKILL_MEMORY_RANKING",
        "",
        "ranking weight overrides, e.g. gate_threshold=0.55,hub_weight=0.4 "
        "(fields of memory.retrieval.ranking.RankingWeights)",
    ),
    Option(
        "SKILL_MEMORY_HOOK_BUDGET_MS",
        150,
        "how long a hook waits for the service before ranking in-process",
    ),
    Option(
        "SKILL_MEMORY_SERVICE_IDLE", 1800, "seconds of inactivity after which the service exits"
    ),
    Option(
        "SKILL_MEMORY_NO_SERVICE",
        0,
        "1: CLI commands never start the warm service (they still use a running one; "
        "hooks and the MCP server start it as before)",
    ),
    Option(
        "SKILLS_SEEDS_DIR",
        "",
        "per-session hook state: prompts, error seeds, injections (default <home>/run/sessions)",
    ),
    Option(
        "SKILL_MEMORY_AUTHOR",
        "",
        "author recorded in each lesson's provenance (default: git user.email, else user@host)",
    ),
    Option(
        "SKILL_MEMORY_TEAM_URI",
        "",
        "team store: a LanceDB URI (s3://bucket/prefix, gs://..., az://... or a shared folder); "
        "credentials only from the storage's own environment (AWS_*, ...)",
    ),
    Option(
        "SKILL_MEMORY_TEAM_TIMEOUT",
        60,
        "seconds a team command waits for any one answer of the team store before it fails "
        "in one line (a store that hangs); `--timeout` of the team commands",
    ),
    Option(
        "SKILL_MEMORY_TEAM_PULL_EVERY",
        3600,
        "seconds between background team pulls started by SessionStart (with a team URI)",
    ),
    Option("SKILLS_STATS_FILE", "", "usage statistics (default <home>/skill-usage-stats.json)"),
    Option("SKILLS_MEMORY_LOG", "", "log file (default <home>/logs/skill-memory.log)"),
)

_BY_ENV = {option.env: option for option in OPTIONS}
PATH_VARIABLES = (
    "AI_MEMORY_HOME",
    "AI_MEMORY_SKILLS_DIR",
    "AI_MEMORY_GLOBAL_FILE",
    "SKILLS_KNOWLEDGE_DIR",
    "SKILLS_SEEDS_DIR",
    "SKILLS_STATS_FILE",
    "SKILLS_MEMORY_LOG",
    "SKILLS_DISTILLER_LOG",
    "SKILL_MEMORY_MODELS_DIR",
)


def _expand(path: str) -> str:
    return os.path.abspath(os.path.expanduser(path))


def resolve_home(env: Mapping[str, str] | None = None) -> str:
    """The memory home, by the original tool's rules."""
    env = os.environ if env is None else env
    if env.get("AI_MEMORY_HOME"):
        return _expand(env["AI_MEMORY_HOME"])
    if env.get("CODEX_HOME"):
        return _expand(os.path.join(env["CODEX_HOME"], "memories", "fireworks-skill-memory"))
    return _expand("~/.ai-memory")


class Settings:
    """Every setting, resolved once from an environment mapping."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self._env: Mapping[str, str] = dict(os.environ if env is None else env)
        self.home = resolve_home(self._env)
        self.skills_dir = self._path("AI_MEMORY_SKILLS_DIR", os.path.join(self.home, "skills"))
        self.global_file = self._path(
            "AI_MEMORY_GLOBAL_FILE", os.path.join(self.home, "global", "KNOWLEDGE.md")
        )
        self.legacy_dir = self._path("SKILLS_KNOWLEDGE_DIR", "~/.claude/skills")
        self.index_dir = os.path.join(self.home, "index")
        self.run_dir = os.path.join(self.home, "run")
        self.log_dir = os.path.join(self.home, "logs")
        self.sessions_dir = self._path("SKILLS_SEEDS_DIR", os.path.join(self.run_dir, "sessions"))
        self.stats_file = self._path(
            "SKILLS_STATS_FILE", os.path.join(self.home, "skill-usage-stats.json")
        )
        self.log_file = self._path(
            "SKILLS_MEMORY_LOG", os.path.join(self.log_dir, "skill-memory.log")
        )
        self.distill_log = self._path(
            "SKILLS_DISTILLER_LOG", os.path.join(self.log_dir, "distill.log")
        )
        self.skill_max = self._int("SKILL_MAX", minimum=1)
        self.global_max = self._int("GLOBAL_MAX", minimum=1)
        self.inject_top = self._int("SKILLS_INJECT_TOP", minimum=1)
        self.inject_tokens = self._int("SKILL_MEMORY_INJECT_TOKENS", minimum=50)
        self.min_tool_calls = self._int("MIN_TOOL_CALLS", minimum=0)
        self.transcript_lines = self._int("TRANSCRIPT_LINES", minimum=10)
        self.distiller_backend = self._choice(
            "SKILLS_DISTILLER_BACKEND", ("auto", "anthropic", "claude-cli", "openai", "null")
        )
        self.knowledge_model = self._str("SKILLS_KNOWLEDGE_MODEL")
        self.distill_every = self._int("SKILL_MEMORY_DISTILL_EVERY", minimum=1)
        self.distill_max_calls = self._int("SKILL_MEMORY_DISTILL_MAX_CALLS", minimum=0)
        self.distill_max_tokens = self._int("SKILL_MEMORY_DISTILL_MAX_TOKENS", minimum=0)
        self.embed_model = self._str("SKILL_MEMORY_EMBED_MODEL")
        self.device = self._str("SKILL_MEMORY_DEVICE")
        self.embed_backend = self._choice("SKILL_MEMORY_EMBED_BACKEND", EMBED_BACKENDS)
        self.models_dir = self._path("SKILL_MEMORY_MODELS_DIR", os.path.join(self.home, "models"))
        self.ranking_overrides = self._pairs("SKILL_MEMORY_RANKING")
        self.hook_budget_ms = self._int("SKILL_MEMORY_HOOK_BUDGET_MS", minimum=1)
        self.service_idle = self._int("SKILL_MEMORY_SERVICE_IDLE", minimum=1)
        self.no_service = self._int("SKILL_MEMORY_NO_SERVICE", minimum=0) > 0
        self.author = self._str("SKILL_MEMORY_AUTHOR").strip()
        self.team_uri = self._raw("SKILL_MEMORY_TEAM_URI")
        self.team_pull_every = self._int("SKILL_MEMORY_TEAM_PULL_EVERY", minimum=1)
        self.team_timeout = self._int("SKILL_MEMORY_TEAM_TIMEOUT", minimum=1)
        self.team_dir = os.path.join(self.home, "team")

    @property
    def environ(self) -> Mapping[str, str]:
        """The environment these settings were resolved from."""
        return self._env

    def relative_paths(self) -> list[tuple[str, str]]:
        """(variable, value) of each path setting given relative to the current folder."""
        names = list(PATH_VARIABLES)
        if not self._raw("AI_MEMORY_HOME"):
            names.append("CODEX_HOME")  # then it decides where the home is
        found = []
        for name in names:
            raw = self._raw(name)
            if raw and not os.path.isabs(os.path.expanduser(raw)):
                found.append((name, raw))
        return found

    def effective_distiller(self) -> str:
        """The distiller backend `auto` stands for in this environment."""
        if self.distiller_backend != "auto":
            return self.distiller_backend
        return "anthropic" if self._env.get("ANTHROPIC_API_KEY") else "claude-cli"

    def as_dict(self) -> dict[str, object]:
        """Resolved values, for `skill-memory config --json` and `doctor`."""
        return {name: getattr(self, name) for name in _SETTING_NAMES}

    def _raw(self, name: str) -> str:
        value = self._env.get(name, "")
        return value.strip()

    def _str(self, name: str) -> str:
        return self._raw(name) or str(_BY_ENV[name].default)

    def _path(self, name: str, default: str) -> str:
        return _expand(self._raw(name) or default)

    def _int(self, name: str, *, minimum: int) -> int:
        raw = self._raw(name)
        if not raw:
            return int(_BY_ENV[name].default)
        try:
            value = int(raw)
        except ValueError:
            raise ConfigError(f"{name}={raw!r} is not an integer") from None
        if value < minimum:
            raise ConfigError(f"{name}={value} is below the minimum {minimum}")
        return value

    def _pairs(self, name: str) -> dict[str, float]:
        pairs: dict[str, float] = {}
        for item in filter(None, (part.strip() for part in self._raw(name).split(","))):
            key, sep, value = item.partition("=")
            try:
                pairs[key.strip()] = float(value)
            except ValueError:
                raise ConfigError(f"{name}: {item!r} is not key=number") from None
            if not sep:
                raise ConfigError(f"{name}: {item!r} is not key=number")
        return pairs

    def _choice(self, name: str, choices: tuple[str, ...]) -> str:
        value = self._str(name).lower()
        if value not in choices:
            raise ConfigError(f"{name}={value!r} is not one of {', '.join(choices)}")
        return value


_SETTING_NAMES = (
    "home", "skills_dir", "global_file", "legacy_dir", "index_dir", "run_dir", "log_dir",
    "sessions_dir", "stats_file", "log_file", "distill_log", "skill_max", "global_max",
    "inject_top", "inject_tokens", "min_tool_calls", "transcript_lines", "distiller_backend",
    "knowledge_model", "distill_every", "distill_max_calls", "distill_max_tokens", "embed_model",
    "device", "embed_backend", "models_dir", "ranking_overrides", "hook_budget_ms",
    "service_idle", "no_service", "team_uri", "team_pull_every", "team_timeout", "team_dir",
)  # fmt: skip


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Resolve settings from `env` (default: the process environment)."""
    return Settings(env)
