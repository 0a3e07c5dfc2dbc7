"""Structural checks: hidden payloads and spoofed turns or frames.

These look at the characters and markup of a lesson, not at its wording: invisible, bidi
and tag characters; javascript: or data: links; encoded text decoded into a shell, or readable
commands hidden in base64 or hex; instructions in HTML comments; Latin words mixed with
look-alike letters; fake system, role or tool-call markup, role markers where a sentence
starts, fences, headings and "end of notes" lines that would break the injection frame.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator

from fireworks_skill_memory.memory.screen.effects import Risk
from fireworks_skill_memory.memory.screen.lexicon import Lexicon, lexicon
from fireworks_skill_memory.memory.screen.text import (
    CODE_SPAN,
    blank,
    invisible_characters,
    visible,
)

HIDDEN, SPOOF = "hidden content", "spoofed markup"


def hidden(raw: str) -> Risk | None:
    """A hidden payload in the lesson as stored (`raw`, before invisible characters go)."""
    lex = lexicon()
    text = visible(raw)
    invisible = invisible_characters(raw)
    if lex.has("tag_characters", invisible):
        return Risk("hidden", HIDDEN, "hides text in invisible Unicode tag characters")
    if lex.has("bidi_controls", invisible):
        return Risk("hidden", HIDDEN, "contains bidi control characters that reorder what is shown")
    if invisible and not lex.has("harmless_invisibles", invisible):
        return Risk("hidden", HIDDEN, "contains zero-width or invisible characters")
    if lex.has("script_links", text):
        return Risk("hidden", HIDDEN, "contains a javascript: or data: link")
    if _decoded_into_shell(text, lex) or lex.has("encoded_run", text):
        return Risk("hidden", HIDDEN, "decodes an encoded payload and runs it")
    for payload in _decoded_payloads(text, lex):
        if lex.has("commandish", payload):
            return Risk("hidden", HIDDEN, "carries an encoded command or instruction")
    for match in lex.finditer("html_comment", text):
        body = match.group(1).strip()
        if len(body.split()) >= 3 and lex.has("addressed_words", body):
            return Risk("hidden", HIDDEN, "hides instructions in an HTML comment")
    if lex.has("mixed_script_word", raw):
        return Risk("hidden", HIDDEN, "mixes look-alike Latin and Cyrillic/Greek letters in a word")
    return None


def _decoded_into_shell(text: str, lex: Lexicon) -> bool:
    for match in lex.finditer("decoders", text):
        window = text[max(0, match.start() - 60) : match.end() + 60]
        if lex.has("into_shell", window):
            return True
    return False


def _decoded_payloads(text: str, lex: Lexicon) -> Iterator[str]:
    """Readable text hidden in base64 or hex blobs of the lesson."""
    for match in lex.finditer("base64_blob", text):
        blob = match.group(0)
        if len(blob) % 4 == 1:
            continue
        try:
            raw = base64.b64decode(blob + "=" * (-len(blob) % 4), validate=False)
        except (binascii.Error, ValueError):
            continue
        decoded = _readable(raw)
        if decoded:
            yield decoded
    for match in lex.finditer("hex_blob", text):
        decoded = _readable(bytes.fromhex(match.group(0)))
        if decoded:
            yield decoded


def _readable(raw: bytes) -> str | None:
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(1 for c in decoded if c.isprintable())
    if len(decoded) < 12 or printable < 0.95 * len(decoded) or " " not in decoded.strip():
        return None
    return decoded


def _real_markup(name: str, text: str, lex: Lexicon) -> bool:
    """True when some marker stands as markup, not as a quoted or listed mention of one."""
    quoted = blank(text, lex["quoted"].regex)  # type: ignore[arg-type]
    talk = lex.has("markup_talk", text)
    for match in lex.finditer(name, quoted):
        follows = lex["marker_as_data"].regex.match(quoted, match.end())  # type: ignore[union-attr]
        if talk and follows:
            continue
        return True
    return False


def spoof(raw: str) -> Risk | None:
    """Fake turns, markup or frame ends."""
    lex = lexicon()
    text = visible(raw)
    prose = blank(text, CODE_SPAN)
    if _real_markup("fake_tags", text, lex):
        return Risk("spoof", SPOOF, "contains fake system, role or tool-call markup")
    if lex.has("turn_openers", prose) and _real_markup("turn_openers", prose, lex):
        return Risk("spoof", SPOOF, "starts a fake system turn or closes the notes block")
    if lex.has("fake_brackets", text):
        return Risk("spoof", SPOOF, "contains a fake [SYSTEM]/[END OF ...] marker")
    if lex.has("role_markers", prose):
        return Risk("spoof", SPOOF, "starts a fake conversation or system turn (role marker)")
    if lex.has("fence", text):
        return Risk("spoof", SPOOF, "contains a code fence that could end the notes block")
    if lex.has("agent_heading", prose):
        return Risk("spoof", SPOOF, "contains a markdown heading meant to start a new section")
    if lex.has("end_of_frame", prose):
        return Risk("spoof", SPOOF, "claims the notes have ended")
    return None
