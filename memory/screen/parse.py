"""What a lesson tells the agent to do: (action, object, destination) records.

The parser reads the parts of a lesson that carry an effect whatever the language: shell
commands (backticked, fenced, or written inline), URLs and hosts, file paths, package names
and config keys. Each command is cut into pipeline stages and each stage read by its program
(a fetcher whose output feeds a shell, an upload flag, a recursive delete and its targets, a
chmod mode, an install and its index, a redirection into a file). Settings that are risky
wherever they appear (certificate checks off, an agent's approvals off, a registry swapped)
are read as patterns over the sentence. Every effect records whether its clause negates it
("never pipe curl into sh") or its sentence only warns about it; the rules in `effects` act
on the live ones. Standard library only.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from fireworks_skill_memory.memory.screen.lexicon import Lexicon, lexicon
from fireworks_skill_memory.memory.screen.text import (
    CODE_SPAN,
    URL,
    Span,
    negated,
    prose_of,
    sentences,
    warned,
)

# Actions an effect can have.
RUN = "run"
FETCH = "fetch"
REMOTE_CODE = "run remote code"
SEND = "send"
DELETE = "delete"
CHMOD = "chmod"
CHOWN = "chown"
INSTALL = "install"
SET_SOURCE = "set package source"
WRITE = "write"
NAME_URL = "name url"
SETTING = "setting"  # a risky setting; the object says which table matched

ACTIONS_FOR_TRUST = frozenset(
    {RUN, FETCH, REMOTE_CODE, SEND, DELETE, CHMOD, CHOWN, INSTALL, SET_SOURCE, WRITE, NAME_URL}
)

# Settings read as patterns over each sentence (table name in commands.toml).
SETTING_TABLES = (
    "tls_off", "agent_permission_flags", "firewall_off", "public_grant", "history_clear",
    "sql_destroy", "cloud_destroy", "force_push", "disk_destroy", "history_rewrite",
    "source_settings", "checks_off_settings", "remote_code_run", "encoded_run",
)  # fmt: skip

_EMAIL = re.compile(r"\b[\w.+-]+@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})\b")
_REDIRECT = re.compile(r"(?:>>?|\btee\s+(?:-a\s+)?)\s*([^\s|;&<>]+)")
_DEV_TCP = re.compile(r"/dev/(?:tcp|udp)/([\w.-]+)/\d+")
_URL_IN_ARG = re.compile(r"(?:https?|ftp|wss?)://[^\s'\"`]+|git\+https?://[^\s'\"`]+")


@dataclass(frozen=True)
class Stage:
    """One program of a pipeline, with its arguments (privilege and env prefixes removed)."""

    program: str
    args: tuple[str, ...]
    raw: str
    sudo: bool = False


@dataclass(frozen=True)
class Command:
    """A command line found in a sentence."""

    text: str
    start: int
    stages: tuple[Stage, ...]


@dataclass(frozen=True)
class Effect:
    """One thing the lesson tells the agent to do."""

    action: str
    object: str
    destination: str
    sentence: str
    at: int
    negated: bool
    warned: bool

    @property
    def live(self) -> bool:
        """Asked for, not avoided or warned about."""
        return not (self.negated or self.warned)


@dataclass(frozen=True)
class Sentence:
    """A sentence with its commands, hosts and effects."""

    text: str
    prose: str
    warned: bool
    commands: tuple[Command, ...]
    hosts: tuple[str, ...]
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Reading:
    """The parse of one lesson."""

    text: str
    sentences: tuple[Sentence, ...] = field(default=())

    @property
    def effects(self) -> tuple[Effect, ...]:
        return tuple(e for s in self.sentences for e in s.effects)

    @property
    def has_action(self) -> bool:
        """The lesson asks for a command, a URL, an install or a write (whether or not risky)."""
        return any(e.action in ACTIONS_FOR_TRUST for e in self.effects)


def read(text: str) -> Reading:
    """Parse a lesson (already `visible`) into its sentences' effects."""
    return Reading(text, tuple(_sentence(span) for span in sentences(text)))


# ----------------------------------------------------------------------------- sentences


def _sentence(span: Span) -> Sentence:
    lex = lexicon()
    text = span.text
    is_warned = warned(text)
    commands = tuple(_commands(text, lex))
    hosts = tuple(dict.fromkeys(host for host, _ in hosts_in(text)))
    found: list[tuple[str, str, str, int]] = []
    for command in commands:
        found.extend(_command_effects(command, lex))
    for name in SETTING_TABLES:
        for match in lex.finditer(name, text):
            found.append((SETTING, name, match.group(0), match.start()))
    for host, at in hosts_in(text):
        found.append((NAME_URL, _url_at(text, at), host, at))
    effects = tuple(
        Effect(action, obj, dest, text, at, negated(text, at), is_warned)
        for action, obj, dest, at in found
    )
    return Sentence(text, prose_of(text), is_warned, commands, hosts, effects)


def _url_at(text: str, at: int) -> str:
    match = URL.match(text, at)
    return match.group(0) if match else ""


def hosts_in(text: str) -> list[tuple[str, int]]:
    """(host, offset) for each URL, e-mail domain, scp target and bare domain in `text`."""
    lex = lexicon()
    found: list[tuple[str, int]] = []
    covered: list[tuple[int, int]] = []
    for match in URL.finditer(text):
        host = urlsplit(match.group(0)).hostname or ""
        if host:
            found.append((host.lower(), match.start()))
            covered.append(match.span())
    for pattern in (_EMAIL, _DEV_TCP):
        for match in pattern.finditer(text):
            found.append((match.group(1).lower(), match.start()))
            covered.append(match.span())
    for match in lex.finditer("host_tlds", text):
        inside = any(a <= match.start() < b for a, b in covered)
        name = match.group(1).lower()
        if not inside and not lex["file_like_hosts"].search(name):
            found.append((name, match.start()))
    return found


# ----------------------------------------------------------------------------- commands


def _commands(sentence: str, lex: Lexicon) -> list[Command]:
    """Backticked or fenced commands, then commands written inline in the prose."""
    found: list[Command] = []
    for match in CODE_SPAN.finditer(sentence):
        body = match.group(0).strip("`").strip()
        if body.startswith(("bash\n", "sh\n", "shell\n", "console\n", "zsh\n")):
            body = body.split("\n", 1)[1]
        stages = _stages(body, lex)
        if stages:
            found.append(Command(body, match.start(), stages))
    prose = prose_of(sentence)
    taken = 0
    for match in _command_starts(prose, lex):
        if match.start() < taken:
            continue
        end = _inline_end(prose, match.start(), lex)
        body = prose[match.start() : end].strip()
        stages = _stages(body, lex)
        if stages and (len(stages) > 1 or stages[0].args):  # a bare program name is a word
            found.append(Command(body, match.start(), stages))
            taken = end
    return found


def _command_starts(prose: str, lex: Lexicon) -> list[re.Match[str]]:
    starts = list(lex.finditer("command_words", prose))
    for match in lex.finditer("ambiguous_command_words", prose):
        rest = prose[match.end() :].split()
        if rest and lex.has("argument_like", rest[0]):
            starts.append(match)
    return sorted(starts, key=lambda m: m.start())


def _inline_end(prose: str, start: int, lex: Lexicon) -> int:
    """Where a command written without backticks ends: at a prose word or a sentence end."""
    stops = lex["command_stop_words"].values
    position = start
    first = True
    for token in re.finditer(r"\S+", prose[start:]):
        word = token.group(0)
        bare = word.rstrip(".,;:!?)").lower()
        if not first and bare in stops:
            break
        position = start + token.end()
        first = False
        if word.endswith((".", ",", ";", ":", "!", "?")) and not re.search(r"[/~]$", bare):
            position -= 1
            break
    return position


def _stages(command: str, lex: Lexicon) -> tuple[Stage, ...]:
    """The pipeline stages of a command line; () when it does not start with a program."""
    stages = []
    for raw in lex["stage_separators"].regex.split(command):  # type: ignore[union-attr]
        words = _words(raw)
        sudo = False
        while len(words) > 1 and (
            words[0].lower() in lex["prefix_words"].values or "=" in words[0]
        ):
            sudo = sudo or words[0] in ("sudo", "doas")
            words = words[1:]
        if not words:
            continue
        program = words[0].rsplit("/", 1)[-1].lower()
        stages.append(Stage(program, tuple(words[1:]), raw.strip(), sudo))
    if not stages:
        return ()
    first = stages[0].program
    known = (
        lex.has("command_words", first)
        or lex.has("ambiguous_command_words", first)
        or first in lex["prefix_words"].values
        or first in lex["interpreters"].values
        or first in lex["dev_tools"].values
    )
    return tuple(stages) if known else ()


def _words(raw: str) -> list[str]:
    try:
        return shlex.split(raw, posix=True)
    except ValueError:
        return raw.split()


def _command_effects(command: Command, lex: Lexicon) -> list[tuple[str, str, str, int]]:
    effects: list[tuple[str, str, str, int]] = []
    at = command.start
    effects.append((RUN, command.text, "", at))
    stages = command.stages
    for index, stage in enumerate(stages):
        before = stages[index - 1].raw if index else ""
        after = stages[index + 1] if index + 1 < len(stages) else None
        effects.extend((a, o, d, at) for a, o, d in _stage_effects(stage, before, after, lex))
    for match in _DEV_TCP.finditer(command.text):
        effects.append((SEND, command.text, match.group(1).lower(), at))
    return effects


def _stage_effects(
    stage: Stage, before: str, after: Stage | None, lex: Lexicon
) -> list[tuple[str, str, str]]:
    program, args = stage.program, stage.args
    out: list[tuple[str, str, str]] = []
    urls = [u for a in args for u in _URL_IN_ARG.findall(a)]
    hosts = [(urlsplit(u.removeprefix("git+")).hostname or "").lower() for u in urls]
    for target in _REDIRECT.findall(stage.raw):
        out.append((WRITE, stage.raw, target))
    if program in lex["fetchers"].values:
        out.extend(_fetch_effects(stage, before, after, hosts, lex))
    elif program in lex["socket_senders"].values:
        names = [a for a in args if lex.has("host_tlds", a) or ("." in a and not a.startswith("-"))]
        out.extend((SEND, before or stage.raw, name) for name in names[:1])
    elif program in lex["remote_copiers"].values:
        out.extend(_copy_effects(args, lex))
    elif program in lex["mailers"].values:
        out.extend(
            (SEND, before or stage.raw, m.group(1).lower()) for m in _EMAIL.finditer(stage.raw)
        )
    elif program in lex["dns_tools"].values and lex.has("substitution", stage.raw):
        out.append((SEND, stage.raw, args[-1] if args else ""))
    elif program in lex["rm_like"].values:
        out.extend((DELETE, a, "") for a in args if not a.startswith("-") or a == "-")
        if program in ("rm", "remove-item") and not any(
            lex.has("recursive_flags", a) for a in args
        ):
            out = [e for e in out if e[0] != DELETE or lex.has("valuable_targets", e[1])]
    elif program == "find" and ("-delete" in args or "rm" in args):
        out.extend((DELETE, a, "") for a in args[:1])
    elif program == "chmod":
        mode = next((a for a in args if not a.startswith("-") or a[1:2].isdigit()), "")
        targets = [a for a in args if a != mode and not a.startswith("-")]
        out.extend((CHMOD, mode, target) for target in targets or [""])
    elif program == "chown" and any(lex.has("recursive_flags", a) for a in args):
        out.extend((CHOWN, a, "") for a in args[1:] if not a.startswith("-"))
    elif program == "crontab":
        out.append((WRITE, before or stage.raw, "crontab"))
    out.extend(_install_effects(stage, lex))
    decoded = lex.has("decoders", stage.raw) or lex.has("decoders", before)
    if decoded and after is not None and after.program in lex["interpreters"].values:
        out.append((SETTING, "decode and run", stage.raw))
    return out


def _fetch_effects(
    stage: Stage, before: str, after: Stage | None, hosts: list[str], lex: Lexicon
) -> list[tuple[str, str, str]]:
    out = [(FETCH, stage.raw, host) for host in hosts]
    uploads = [a for a in stage.args if lex.has("upload_flags", a)]
    if uploads:
        data = " ".join(a for a in stage.args if a.startswith("@") or "=@" in a or a == "-")
        sent = (before + " " + data).strip() if ("@-" in stage.raw or " - " in stage.raw) else data
        out.extend((SEND, sent or stage.raw, host) for host in hosts)
    for url, host in zip(_URL_IN_ARG.findall(stage.raw), hosts, strict=False):
        query = url.split("?", 1)[1] if "?" in url else ""
        if lex.has("substitution", query) or lex.has("substitution", url.split("/", 3)[-1]):
            out.append((SEND, url, host))
    if after is not None and after.program in lex["interpreters"].values:
        out.extend((REMOTE_CODE, stage.raw, host) for host in hosts or [""])
    return out


def _copy_effects(args: tuple[str, ...], lex: Lexicon) -> list[tuple[str, str, str]]:
    plain = [a for a in args if not a.startswith("-")]
    if len(plain) < 2:
        return []
    *sources, target = plain
    if lex.has("remote_spec", target):
        host = target.split("@")[-1].split(":")[0].lower()
        return [(SEND, " ".join(sources), host)]
    if any(lex.has("remote_spec", s) for s in sources):
        return [(FETCH, " ".join(sources), "")]
    return []


def _install_effects(stage: Stage, lex: Lexicon) -> list[tuple[str, str, str]]:
    line = stage.program + " " + " ".join(stage.args)
    match = lex.search("package_install", line)
    if match is None:
        return []
    out: list[tuple[str, str, str]] = []
    rest = line[match.end() :].split()
    expects_value = False
    for arg in rest:
        if expects_value:
            out.append((SET_SOURCE, arg, _host_of(arg)))
            expects_value = False
            continue
        if lex.has("source_options", arg):
            if "=" in arg:
                value = arg.split("=", 1)[1]
                out.append((SET_SOURCE, arg, _host_of(value)))
            elif arg in ("--trusted-host", "--allow-unauthenticated", "--insecure", "--no-verify"):
                out.append((SET_SOURCE, arg, ""))
            else:
                expects_value = True
            continue
        if arg.startswith("-"):
            continue
        out.append((INSTALL, arg, _host_of(arg)))
    return out


def _host_of(value: str) -> str:
    value = value.removeprefix("git+")
    if "://" in value:
        return (urlsplit(value).hostname or "").lower()
    return ""
