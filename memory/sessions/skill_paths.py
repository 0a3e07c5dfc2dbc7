"""Recognise skill usage from file paths, shell commands and tool calls.

Runs inside hook processes on every tool call, so importing it must stay cheap: only `os` and
the skill layout (`memory.skill_files`) at import time; `shlex`, `json` and
`memory.store.skill_names` are imported lazily, and only when a `SKILL.md` is actually mentioned.

A skill is any `.../skills/<name>/SKILL.md` (this covers `~/.claude/skills`,
`$CLAUDE_CONFIG_DIR/skills`, `<project>/.claude/skills`, `~/.agents/skills`,
`<repo>/.agents/skills`, `~/.codex/skills`, `$CODEX_HOME/skills` and `<repo>/.codex/skills`),
plus Codex's bundled `.../skills/.system/<name>/SKILL.md`. A skill of a Claude plugin
(`<plugin-root>/skills/<name>/SKILL.md`, the root holding `.claude-plugin/plugin.json`) is
named `<plugin>:<name>`, as Claude Code names it.
"""

from __future__ import annotations

import os

from fireworks_skill_memory.memory.skill_files import (
    CODEX_SYSTEM_DIR,
    SKILL_FILE,
    SKILLS_DIR,
    plugin_name,
)

MAX_SHELL_DEPTH = 3

# Programs whose file arguments are read (a SKILL.md argument means the skill is loaded).
READERS = frozenset(
    {"cat", "sed", "head", "tail", "less", "more", "bat", "batcat", "nl", "awk", "gawk", "grep"}
    | {"egrep", "rg", "tac", "view"}
)
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
# Words that run the command after them (their own options are skipped too).
COMMAND_PREFIXES = frozenset({"sudo", "env", "command", "exec", "time", "nice", "nohup"})
SEPARATORS = frozenset({"&&", "||", ";", ";;", "|", "|&", "&", "(", ")", "{", "}", "!"})
REDIRECTS = frozenset({">", ">>", ">|", "<", "<<", "<<<", "<>", ">&", "&>", "&>>", "<&"})
# Left over from unexpanded globs or variables: never part of a real skill name.
SHELL_RESIDUE = frozenset("*?[]{}$`\"'")
SHELL_TOOLS = frozenset({"Bash", "exec_command", "shell", "local_shell", "shell_command"})
READ_TOOLS = frozenset({"Read", "View"})


def skill_from_skill_md(path: str, cwd: str | None = None) -> str | None:
    """The skill name for a path to a `SKILL.md`, or None when it is not one.

    Relative paths are resolved against `cwd`, `~` is expanded. Plugin skills are named
    `<plugin>:<name>`. Names that `memory.store.skill_names.validate_skill` rejects give None.
    """
    if not isinstance(path, str) or not path.endswith(SKILL_FILE):
        return None
    full = _absolute(path, cwd if isinstance(cwd, str) else None)
    if os.path.basename(full) != SKILL_FILE:
        return None
    skill_dir = os.path.dirname(full)
    parent = os.path.dirname(skill_dir)
    if os.path.basename(parent) == CODEX_SYSTEM_DIR:
        parent = os.path.dirname(parent)
    if os.path.basename(parent) != SKILLS_DIR:
        return None
    name = os.path.basename(skill_dir)
    plugin = plugin_name(os.path.dirname(parent))
    return valid_skill_name(f"{plugin}:{name}" if plugin else name)


def skills_in_shell_command(command: str, cwd: str | None = None) -> list[str]:
    """Skills whose `SKILL.md` a shell command reads (`cat`, `sed -n`, `head`, ...), in order.

    Understands quoting, `&&`/`||`/`;`/pipes, `cd DIR && ...`, `VAR=x cmd`, `sudo`/`env`
    prefixes and `bash -lc "..."` wrappers. Returns unique names.
    """
    if not isinstance(command, str) or SKILL_FILE not in command:
        return []
    found: list[str] = []
    _scan_script(command, cwd if isinstance(cwd, str) else None, found, 0)
    return found


def skill_from_tool_call(tool_name: str, tool_input: object, cwd: str | None = None) -> list[str]:
    """Skills a tool call loads: `Skill`, a `Read` of a `SKILL.md`, or a shell command reading one.

    Accepts Claude (`Skill`, `Read`, `Bash`) and Codex (`exec_command` with `cmd`/`workdir`,
    `shell`/`local_shell` with an argv list) calls. Never raises on unexpected types.
    """
    if not isinstance(tool_name, str) or not isinstance(tool_input, dict):
        return []
    cwd = cwd if isinstance(cwd, str) else None
    if tool_name == "Skill":
        # Claude Code before 2.x sent {"command": "<name>"} instead of {"skill": ...}.
        valid = valid_skill_name(tool_input.get("skill", tool_input.get("command")))
        return [valid] if valid else []
    if tool_name in READ_TOOLS:
        path = tool_input.get("file_path")
        found = skill_from_skill_md(path, cwd) if isinstance(path, str) else None
        return [found] if found else []
    if tool_name in SHELL_TOOLS:
        return _skills_in_shell_input(tool_input, cwd)
    return []


def valid_skill_name(name: object) -> str | None:
    """`name` when it is a usable skill name (see `memory.store.skill_names`), else None."""
    if not isinstance(name, str):
        return None
    from fireworks_skill_memory.memory.errors import InvalidSkillName
    from fireworks_skill_memory.memory.store.skill_names import validate_skill

    if any(ch in SHELL_RESIDUE for ch in name):
        return None
    try:
        return validate_skill(name)
    except InvalidSkillName:
        return None


def _skills_in_shell_input(tool_input: dict[object, object], cwd: str | None) -> list[str]:
    command = tool_input.get("command", tool_input.get("cmd"))
    workdir = tool_input.get("workdir")
    if isinstance(workdir, str) and workdir:
        cwd = _absolute(workdir, cwd)
    if isinstance(command, str):
        return skills_in_shell_command(command, cwd)
    if isinstance(command, list) and all(isinstance(word, str) for word in command):
        if not any(SKILL_FILE in word for word in command):
            return []
        found: list[str] = []
        _scan_words(list(command), cwd, found, 0)
        return found
    return []


def _absolute(path: str, cwd: str | None) -> str:
    path = os.path.expanduser(path)
    if not os.path.isabs(path) and cwd:
        path = os.path.join(os.path.expanduser(cwd), path)
    return os.path.normpath(path)


def _scan_script(script: str, cwd: str | None, found: list[str], depth: int) -> None:
    import shlex

    lexer = shlex.shlex(script.replace("\n", ";"), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        words = list(lexer)
    except ValueError:  # unbalanced quotes: fall back to plain words
        words = script.split()
    _scan_words(words, cwd, found, depth)


def _scan_words(words: list[str], cwd: str | None, found: list[str], depth: int) -> None:
    command: list[str] = []
    for word in [*words, ";"]:
        if word not in SEPARATORS:
            command.append(word)
            continue
        cwd = _scan_simple_command(command, cwd, found, depth)
        command = []


def _scan_simple_command(
    words: list[str], cwd: str | None, found: list[str], depth: int
) -> str | None:
    """Collect the skills one simple command reads; return the cwd for the next command."""
    program, args = _program_and_args(words)
    if program == "cd":
        target = args[0] if args else "~"
        return _absolute(os.path.expandvars(target), cwd)
    if program in SHELLS and depth < MAX_SHELL_DEPTH:
        script = _shell_script_arg(args)
        if script is not None and SKILL_FILE in script:
            _scan_script(script, cwd, found, depth + 1)
    elif program in READERS:
        for arg in args:
            if arg.endswith(SKILL_FILE) and not arg.startswith("-"):
                name = skill_from_skill_md(os.path.expandvars(arg), cwd)
                if name and name not in found:
                    found.append(name)
    return cwd


def _program_and_args(words: list[str]) -> tuple[str, list[str]]:
    """Strip `VAR=x` assignments, prefixes (`sudo`, `env`...) and redirections."""
    index = 0
    after_prefix = False
    while index < len(words):
        word = words[index]
        if _is_assignment(word) or (after_prefix and word.startswith("-")):
            index += 1
        elif os.path.basename(word) in COMMAND_PREFIXES:
            after_prefix = True
            index += 1
        else:
            break
    if index >= len(words):
        return "", []
    args: list[str] = []
    skip_next = False
    for word in words[index + 1 :]:
        if skip_next:
            skip_next = False
        elif word in REDIRECTS:
            skip_next = True
        else:
            args.append(word)
    return os.path.basename(words[index]), args


def _is_assignment(word: str) -> bool:
    name, sep, _ = word.partition("=")
    return bool(sep) and name.isidentifier()


def _shell_script_arg(args: list[str]) -> str | None:
    """The script of `bash -c SCRIPT` / `bash -lc SCRIPT`, or None."""
    for index, arg in enumerate(args):
        if arg.startswith("-") and not arg.startswith("--") and "c" in arg:
            return args[index + 1] if index + 1 < len(args) else None
        if not arg.startswith("-"):
            return None
    return None
