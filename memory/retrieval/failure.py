"""The task text of a failed tool call: what the failure hook and `eval retrieval` rank for.

`failure_task(command, output)` keeps the failed command and the lines of its output that
say what went wrong, normalised so that lexical matching sees the error's own signal
(exception names, error codes, flags, the meaningful part of paths, identifiers) and not
its noise (line and column numbers, hex ids and hashes, timestamps, temporary paths,
durations, progress bars and table borders). The one function is shared, so the figures of
`eval retrieval` on failure queries are the hook's figures.

The task text is two lines: the command, then the error lines; it is embedded and matched
as a whole, like a task (embedding the error lines alone ranked worse under
cross-validation once the glossary's explanations are mixed in).

Standard library only (`re`): it runs in the warm service and in the eval, never on a
hook's in-process path.
"""

from __future__ import annotations

import re

COMMAND_CHARS = 300
SCAN_CHARS = 12_000  # the output's tail that is read (the end of an output says the most)
TASK_WORDS = 90  # the error lines' budget in words (for the lexical match)
SIGNAL_LINES = 6  # most error-looking lines kept, the last ones first
TAIL_LINES = 3  # the output's last lines, kept whatever they say
FRAME_LINES = 1  # stack frames kept (the first is usually the user's code)

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
_NOISE = [
    # ISO dates and times, clock times, bracketed epoch stamps
    re.compile(
        r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?"
    ),
    re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b"),
    re.compile(r"\[\d{9,}(?:\.\d+)?\]"),
    re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),?\s+\d{1,2}\s+\w{3}\s+\d{4}\b"),
    # temporary and home-directory prefixes: the rest of the path keeps its meaning
    re.compile(r"(?:/private)?/(?:tmp|var/folders|var/tmp)/[^\s:'\"]*"),
    re.compile(r"(?:/home|/Users)/[^/\s]+/"),
    re.compile(r"[A-Za-z]:\\Users\\[^\\\s]+\\"),
    # hex: 0x.., digests and ids with at least one digit and one letter of a-f
    re.compile(r"\b0x[0-9a-fA-F]+\b"),
    re.compile(r"\b(?:sha\d+:)?(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b"),
    re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I),
    re.compile(r"\b[\w]*\d[\w]*(?:-[\w]*\d[\w]*){2,}\b"),  # request ids like 8m2xq-17307-3c9d
    # positions: file:line:col, "line 88", "(Foo.java:27)", "+0x5a"
    re.compile(r"(?<=\w):\d+(?::\d+)?\b"),
    re.compile(r"\bline \d+\b", re.I),
    re.compile(r"^\s*#?\d+(?::\d+)?\s+(?=\S)"),  # "14:36  error", "20.84 npm", "#7 RUN"
    # durations, sizes, counts of progress
    re.compile(
        r"\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|m|min|µs|us|ns|kB|KB|MB|GB|KiB|MiB|GiB|B)\b"
    ),
    re.compile(r"\b\d+(?:\.\d+)?%"),
    re.compile(r"\(\d+/\d+\)|\[\d+/\d+\]"),
    re.compile(r"(?<![\w.])\d+\.\d+\b(?!\.\d)"),  # bare decimals: timings (x.y.z versions stay)
    re.compile(r"\b\d{5,}\b"),  # pids, ports above 9999, epoch seconds, byte counts
    # progress bars, table borders, pointer lines
    re.compile(r"[\u2500-\u259f\u25a0-\u25ff\u2800-\u28ff]+"),
    re.compile(r"[=#>.\-_~^|*+]{3,}"),
]
_FRAME = re.compile(r"^(?:at |File \"|\d+: |❯ |in )|^[\w.$/]+\(.*\)$|^\S+\.(?:go|rs|py|js|ts)\b")
_SIGNAL = re.compile(
    r"error|exception|fail|fatal|panic|denied|not found|no such|cannot|can't|could not|unable"
    r"|invalid|refused|timed? ?out|timeout|undefined|unexpected|missing|mismatch|incompatible"
    r"|unsupported|forbidden|unauthori[sz]ed|conflict|violat|abort|killed|segmentation|warn",
    re.I,
)
_CODE = re.compile(r"\b[A-Z]{1,4}\d{3,}\b|\b[A-Z][A-Z_]{5,}\b")  # TS2345, E0382, EBADENGINE
_SPACES = re.compile(r"[ \t]+")


def normalise_line(line: str) -> str:
    """One output line without its noise (may come back empty)."""
    line = _ANSI.sub("", line)
    for pattern in _NOISE:
        line = pattern.sub(" ", line)
    return _SPACES.sub(" ", line).strip(" \t:;,|")


def failure_task(command: str, output: str) -> str:
    """The task text for a failed command and its output (empty when there is neither).

    Its first line is the normalised command, the second the error lines (either may be
    empty when the failure has none).
    """
    head, *errors = failure_lines(command, output)
    error = " ".join(_cap(" ".join(errors).split(), TASK_WORDS))
    return f"{head}\n{error}".strip()


def failure_lines(command: str, output: str) -> list[str]:
    """The normalised command (maybe ""), then the output lines saying what went wrong."""
    head = normalise_line(" ".join(command.split())[:COMMAND_CHARS])
    lines = [normalise_line(line) for line in output[-SCAN_CHARS:].splitlines()]
    lines = _without_repeats(lines)
    frames = [i for i, line in enumerate(lines) if _FRAME.search(line)]
    dropped = set(frames[FRAME_LINES:])
    kept = [line for i, line in enumerate(lines) if i not in dropped and _has_words(line)]
    signal = [i for i, line in enumerate(kept) if _SIGNAL.search(line) or _CODE.search(line)]
    signal = signal[-SIGNAL_LINES:]
    chosen = sorted(set(signal) | set(range(max(0, len(kept) - TAIL_LINES), len(kept))))
    return [head, *(line for line in (kept[i] for i in chosen) if line)]


def _without_repeats(lines: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for line in lines:
        if line and line not in seen:
            seen.add(line)
            out.append(line)
    return out


def _has_words(line: str) -> bool:
    return sum(c.isalpha() for c in line) >= 3


def _cap(words: list[str], limit: int) -> list[str]:
    """The first `limit` words, dropping repeats of long words first (a name said twice)."""
    if len(words) <= limit:
        return words
    seen: set[str] = set()
    unique = []
    for word in words:
        key = word.lower()
        if len(key) > 3 and key in seen:
            continue
        seen.add(key)
        unique.append(word)
    return unique[:limit]


FAILURE_HEADING = "## Past notes about this kind of failure (fireworks-skill-memory)"


def failure_block(
    bullets: list[str], global_bullets: list[str], *, max_tokens: int
) -> tuple[str, int, int]:
    """The injected block for a failure: the skill block's frame under the failure heading.

    Returns the text ("" when nothing fits) and how many skill and global bullets it holds.
    """
    from fireworks_skill_memory.memory.retrieval.inject_text import fit

    return fit(
        "",
        bullets,
        global_bullets,
        max_tokens=max_tokens,
        ranked_for_task=True,
        heading=FAILURE_HEADING,
    )
