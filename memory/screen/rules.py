"""The precise rules of the poisoning screen: structure, characters, encodings, destinations.

Each rule names one category of attack (`KINDS`) and says why in a few words. The rules look
at what an attack needs rather than at its topic: a secret *and* an unknown destination *and*
a way to send it; a decoder *feeding* a shell; a role marker where a sentence starts, not
inside quotes. Lessons that merely talk about a risk ("never pipe curl into sh") pass: the
rules that flag a recommended action skip it when the clause negates it. Standard library only.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

KINDS = (
    "override", "exfiltrate", "destructive", "permission", "conceal",
    "persistence", "hidden", "spoof", "supplychain",
)  # fmt: skip


@dataclass(frozen=True)
class RuleHit:
    """One rule that matched: the attack category and a short human reason."""

    kind: str
    reason: str


# ----------------------------------------------------------------------------- text helpers

_INVISIBLE_RANGES = (
    (0x200B, 0x200F),  # zero-width space/joiners, LRM/RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x2064),  # word joiner, invisible operators
    (0x2066, 0x2069),  # bidi isolates
    (0xFE00, 0xFE0F),  # variation selectors (can carry data)
    (0xE0000, 0xE007F),  # Unicode tag characters (invisible ASCII)
    (0xE0100, 0xE01EF),  # variation selectors supplement
)
_INVISIBLE_SINGLES = frozenset({0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x180E, 0x3164, 0xFEFF})


def is_invisible(char: str) -> bool:
    """True for zero-width, bidi-control, tag and other format characters."""
    code = ord(char)
    if code in _INVISIBLE_SINGLES or any(lo <= code <= hi for lo, hi in _INVISIBLE_RANGES):
        return True
    return unicodedata.category(char) == "Cf"


def visible(text: str) -> str:
    """The text as a reader sees it: invisible characters dropped, compatibility forms folded."""
    return unicodedata.normalize("NFKC", "".join(c for c in text if not is_invisible(c)))


_NEGATION = re.compile(
    r"\b(?:never|don['’]?t|do not|does not|doesn['’]?t|shouldn['’]?t|should not|must not|"
    r"mustn['’]?t|can['’]?t|cannot|won['’]?t|not|no|avoid|avoiding|instead of|rather than|"
    r"without|refuse|refuses|warn|warns|unsafe|dangerous|risky|bad idea|nunca|jamás|evita|"
    r"evitar|nie|niemals|nicht|kein|keine|vermeide|vermeiden)\b|不要|别|切勿|避免|禁止|不能|"
    r"不应|no\s",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(
    r"[.;!?。；！？]\s|[—–]\s|\bbut\b|\bthen\b|\bso\b|\bbecause\b|,\s*(?:and|then)\b"
)


def negated(text: str, start: int) -> bool:
    """True when the clause before `start` negates what follows ("never", "instead of" ...)."""
    before = text[max(0, start - 120) : start]
    ends = list(_CLAUSE_END.finditer(before))
    clause = before[ends[-1].end() :] if ends else before
    return bool(_NEGATION.search(clause))


def _first_unnegated(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    for match in pattern.finditer(text):
        if not negated(text, match.start()):
            return match
    return None


_CODE_SPAN = re.compile(r"`[^`]*`")


def without_code(text: str) -> str:
    """The prose of a lesson: inline code spans blanked (same length)."""
    return _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)


# ----------------------------------------------------------------------------- destinations

# Hosts a lesson may legitimately send things to or install from: the big registries, code
# hosts and clouds. Anything else named as a destination is "an external host".
WELL_KNOWN_HOSTS = (
    "github.com", "githubusercontent.com", "github.io", "ghcr.io", "gitlab.com",
    "bitbucket.org", "pypi.org", "pythonhosted.org", "python.org", "npmjs.org", "npmjs.com",
    "yarnpkg.com", "docker.io", "docker.com", "gcr.io", "quay.io", "k8s.io", "kubernetes.io",
    "amazonaws.com", "aws.amazon.com", "azure.com", "microsoft.com", "googleapis.com",
    "google.com", "cloudflare.com", "anthropic.com", "claude.ai", "openai.com",
    "huggingface.co", "crates.io", "rust-lang.org", "rustup.rs", "golang.org", "go.dev",
    "proxy.golang.org", "rubygems.org", "maven.org", "apache.org", "hashicorp.com",
    "terraform.io", "debian.org", "ubuntu.com", "fedoraproject.org", "alpinelinux.org",
    "nodejs.org", "deno.land", "jsdelivr.net", "unpkg.com", "readthedocs.io", "sentry.io",
    "modelcontextprotocol.io", "astral.sh", "brew.sh", "mozilla.org", "apple.com",
)  # fmt: skip
_INTERNAL_SUFFIXES = (".local", ".internal", ".corp", ".lan", ".localhost", ".test")
_URL = re.compile(r"\b(?:https?|ftp|wss?|s3|gs)://([A-Za-z0-9.-]+)", re.IGNORECASE)
_EMAIL = re.compile(r"\b[\w.+-]+@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})\b")
_BARE_HOST = re.compile(
    r"(?<![\w./-])((?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|app|sh|co|cloud|xyz|ru|cn|top|"
    r"site|online|info|biz|example|me|tk|ml|ga|cf|gq|pw|cc|ws|link|click|host|tools))\b",
    re.IGNORECASE,
)
_PRIVATE_IP = re.compile(r"^(?:127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|0\.0\.0\.0)")


def is_well_known(host: str) -> bool:
    """True for the big public services and for local or internal hosts."""
    host = host.lower().rstrip(".")
    if host in ("localhost", "") or _PRIVATE_IP.match(host):
        return True
    if host.endswith(_INTERNAL_SUFFIXES):
        return True
    return any(host == known or host.endswith("." + known) for known in WELL_KNOWN_HOSTS)


def external_hosts(text: str) -> list[str]:
    """Hosts named as URLs, mail domains or bare domains that are not well known."""
    found: list[str] = []
    for pattern in (_URL, _EMAIL, _BARE_HOST):
        found.extend(m.group(1).lower() for m in pattern.finditer(text))
    hosts = [h for h in dict.fromkeys(found) if "." in h or h == "localhost"]
    return [h for h in hosts if not is_well_known(h) and not _looks_like_file(h)]


_FILE_SUFFIXES = (".sh", ".py", ".md", ".json", ".txt", ".io.ts", ".co.uk.md")


def _looks_like_file(host: str) -> bool:
    return host.endswith((".sh", ".py", ".md", ".json", ".txt", ".yaml", ".yml", ".toml"))


def unknown_urls(text: str) -> list[str]:
    """Hosts of URLs (not bare names) that are not well known."""
    hosts = dict.fromkeys(m.group(1).lower() for m in _URL.finditer(text))
    return [h for h in hosts if not is_well_known(h)]


# ----------------------------------------------------------------------------- hidden

_JS_LINK = re.compile(
    r"\]\(\s*(?:javascript|data|vbscript):|(?:href|src)\s*=\s*['\"]?\s*(?:javascript|vbscript):|"
    r"javascript:\s*(?:fetch|eval|document|window|location|atob|btoa|new\s|import|\w+\.\w+\()|"
    r"\bdata:(?:text/html|application/(?:x-)?javascript|image/svg\+xml)[;,]",
    re.IGNORECASE,
)
_DECODER = (
    r"(?:base64\s+(?:-d|--decode|-D)\b|b64decode|xxd\s+-r|xxd\s+-p\s+-r|"
    r"openssl\s+(?:enc\s+)?(?:-d\s+)?-?base64\s+-d|uudecode|atob\s*\(|fromhex|"
    r"Buffer\.from\([^)]*(?:base64|hex))"
)
_INTERPRETER = (
    r"(?:sudo\s+)?(?:ba|z|k|da|fi)?sh\b|python[0-9.]*\b|perl\b|"
    r"ruby\b|node\b|php\b|eval\b|source\b|iex\b|powershell\b|psql\b|mysql\b"
)
_DECODE_EXEC = re.compile(
    rf"{_DECODER}[^|;&`]*\|\s*(?:{_INTERPRETER})|"  # decoded into a shell
    rf"\$\((?:[^()]|\([^()]*\))*{_DECODER}(?:[^()]|\([^()]*\))*\)|"  # decoded inside $( )
    rf"\b(?:eval|exec)\s*\(?\s*[\"'$(]*[^\n]{{0,40}}{_DECODER}|"
    rf"{_DECODER}[^\n]{{0,60}}\b(?:exec|eval)\b",
    re.IGNORECASE,
)
_BASE64_BLOB = re.compile(r"(?<![\w+/])[A-Za-z0-9+/]{24,}={0,2}(?![\w+/])")
_HEX_BLOB = re.compile(r"(?<![\w])(?:[0-9a-fA-F]{2}){12,}(?![\w])")
_HTML_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.DOTALL)
_ADDRESSED = re.compile(
    r"\b(?:assistant|agent|ai|llm|model|claude|codex|gpt|copilot|you|your|instructions?|"
    r"system|ignore|don['’]?t|do not|never|always|must|fetch|curl|send|upload|secret|token|"
    r"password|cookie)\b",
    re.IGNORECASE,
)
_MIXED_SCRIPT = re.compile(
    r"\b\w*(?:[A-Za-z][\u0400-\u04FF\u0370-\u03FF]|[\u0400-\u04FF\u0370-\u03FF][A-Za-z])\w*\b"
)
_COMMANDISH = re.compile(
    r"\b(?:curl|wget|nc|bash|sh|rm|chmod|DROP|DELETE|TRUNCATE|eval|exec|fetch|import|"
    r"powershell|ssh|scp|cat|echo|python|sudo|ignore|system)\b",
    re.IGNORECASE,
)


def _decoded_payloads(text: str) -> Iterator[str]:
    """Readable text hidden in base64 or hex blobs of the lesson."""
    for match in _BASE64_BLOB.finditer(text):
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
    for match in _HEX_BLOB.finditer(text):
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


def _hidden(raw: str, text: str) -> RuleHit | None:
    invisible = [c for c in raw if is_invisible(c)]
    if any(0xE0000 <= ord(c) <= 0xE007F for c in invisible):
        return RuleHit("hidden", "hides text in invisible Unicode tag characters")
    if any(0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069 for c in invisible):
        return RuleHit("hidden", "contains bidi control characters that reorder what is shown")
    if invisible and any(c not in "\u200d\ufe0f" for c in invisible):
        return RuleHit("hidden", "contains zero-width or invisible characters")
    if _JS_LINK.search(text):
        return RuleHit("hidden", "contains a javascript: or data: link")
    if _DECODE_EXEC.search(text):
        return RuleHit("hidden", "decodes an encoded payload and runs it")
    for payload in _decoded_payloads(text):
        if _COMMANDISH.search(payload) or screen_rules(None, payload):
            return RuleHit("hidden", "carries an encoded command or instruction")
    for match in _HTML_COMMENT.finditer(text):
        body = match.group(1).strip()
        if len(body.split()) >= 3 and _ADDRESSED.search(body):
            return RuleHit("hidden", "hides instructions in an HTML comment")
    if _MIXED_SCRIPT.search(raw):
        return RuleHit("hidden", "mixes look-alike Latin and Cyrillic/Greek letters in a word")
    return None


# ----------------------------------------------------------------------------- spoof

_ROLE_WORDS = (
    r"(?:Human|Assistant|System|Developer|Operator|HUMAN|"
    r"ASSISTANT|SYSTEM|DEVELOPER|OPERATOR|ADMIN|ADMINISTRATOR|USER|AI)"
)
_ROLE_MARKER = re.compile(
    rf"(?:^|(?<=[.!?)\]>`\"'”»]\s)|(?<=[.!?)\]>`\"'”»]))\s*{_ROLE_WORDS}(?:\s+(?:NOTICE|MESSAGE|NOTE|OVERRIDE|UPDATE|PROMPT))?\s*:\s+(?=[\w\"'(])"
)
_CAPS_ROLE = re.compile(
    r"(?<![\w'\"‘“`])(?:SYSTEM|OPERATOR|ADMIN|DEVELOPER|ASSISTANT|HUMAN)(?:\s+(?:NOTICE|MESSAGE|"
    r"NOTE|OVERRIDE|UPDATE|PROMPT|DIRECTIVE|INSTRUCTIONS?))?\s*:(?!['\"’”`])"
)
_FAKE_TAG = re.compile(
    r"</?\s*(?:system|system[-_]?(?:prompt|reminder|message)|tool_use|tool_result|tool_call|"
    r"function_calls?|function_results?|invoke|antml:\w+|assistant|user|human|developer|"
    r"im_start|im_end|instructions?|admin|operator|memory|past[-_]notes|skill[-_]notes|"
    r"lessons?|context|env|policy)\b[^>]*>|<\|(?:im_start|im_end|endoftext|system|user|"
    r"assistant|start_header_id|end_header_id|eot_id)\|>|<<\s*/?SYS\s*>>|\[/?INST\]",
    re.IGNORECASE,
)
_FAKE_BRACKET = re.compile(
    r"\[\s*/?\s*(?:SYSTEM|ADMIN|OPERATOR|DEVELOPER|ASSISTANT|HUMAN|USER|INSTRUCTIONS?|"
    r"NEW INSTRUCTIONS?|PRIORITY[^\]]*|OVERRIDE|IMPORTANT[^\]]*|END\b[^\]]*|BEGIN\b[^\]]*)\s*\]"
)
_END_OF_FRAME = re.compile(
    r"(?<!the )(?<!at )(?<!of )\b(?:end|close|closing)\s+of\s+(?:the\s+)?(?:lessons?|notes|"
    r"skill notes|past notes|memory|context|injected[\w ]*|system prompt|instructions|"
    r"observations|knowledge)\b(?!\s+(?:file|section|list|table))",
    re.IGNORECASE,
)
_HEADING = re.compile(r"(?:^|\s)#{1,6}\s+(?=[A-Z\u4e00-\u9fff])")
_AGENT_HEADING = re.compile(
    r"(?:^|\s)#{1,6}\s+(?:new|updated|revised|system|important|override|admin|operator|"
    r"priority|agent|assistant)\b",
    re.IGNORECASE,
)
_FENCE = re.compile(r"```|~~~")
_RULE_LINE = re.compile(
    r"(?:^|\s)(?:-{3,}|={3,}|\*{3,})\s*(?:end|begin|new|system)\b", re.IGNORECASE
)


def _spoof(text: str) -> RuleHit | None:
    prose = without_code(text)
    if _FAKE_TAG.search(text):
        return RuleHit("spoof", "contains fake system, role or tool-call markup")
    if _FAKE_BRACKET.search(text):
        return RuleHit("spoof", "contains a fake [SYSTEM]/[END OF ...] marker")
    if _ROLE_MARKER.search(prose) or _CAPS_ROLE.search(prose):
        return RuleHit("spoof", "starts a fake conversation or system turn (role marker)")
    if _FENCE.search(text):
        return RuleHit("spoof", "contains a code fence that could end the notes block")
    if _AGENT_HEADING.search(prose) or (_HEADING.search(prose) and "##" in prose):
        return RuleHit("spoof", "contains a markdown heading meant to start a new section")
    if _END_OF_FRAME.search(prose) or _RULE_LINE.search(prose):
        return RuleHit("spoof", "claims the notes have ended")
    return None


# ----------------------------------------------------------------------------- override

_INSTRUCTION_NOUNS = (
    r"(?:instructions?|rules|prompts?|guidelines|directives?|restrictions|policies|policy|"
    r"guardrails|constraints|system prompt|system message|CLAUDE\.md|AGENTS\.md|programming|"
    r"safety (?:rules|guidelines|checks))"
)
_OVERRIDE = [
    re.compile(
        r"\b(?:ignore|disregard|forget|override|overrides|bypass|drop|abandon|set aside|"
        r"stop following|stop obeying|no longer follow)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?"
        r"(?:the\s+|your\s+|its\s+|these\s+|those\s+|my\s+)?(?:previous|prior|earlier|above|"
        r"preceding|original|initial|existing|current|old|system(?:'s)?|user(?:'s)?|"
        r"developer(?:'s)?|safety|cautious|default)?[\w' -]{0,20}?" + _INSTRUCTION_NOUNS,
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:you are now|you're now|from now on,? you are|you will now (?:act|behave|be)|"
        r"act as an? (?:unrestricted|unfiltered|jailbroken|different)|pretend (?:to be|you are)|"
        r"your (?:new|real|true) (?:role|persona|identity|instructions|purpose)|"
        r"(?:new|alternate|unrestricted) persona|persona whose)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:takes?|take|has|have|given|gets?)\s+(?:\w+\s+){0,2}(?:precedence|priority)\s+"
        r"(?:over|than|above)\s+(?:\w+\s+){0,3}?(?:the user\b(?!['’]s\s+(?:config|settings|"
        r"environment|locale))|user['’]s (?:request|instructions?|prompt|wishes|message)|"
        r"system prompt|system message|CLAUDE\.md|AGENTS\.md|instructions|guidelines|anything "
        r"(?:the user|else)|operator|developer)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bhigher priority than (?:\w+\s+){0,2}?(?:the user|CLAUDE\.md|AGENTS\.md|the system|"
        r"system prompt|instructions)|\boverrides? (?:the |your |any )?(?:user['’]s |current |"
        r"system |previous )+(?:instructions?|prompt|request|rules)|"
        r"\b(?:obey|follow|execute) (?:it|them|that|those|this|these)(?: \w+)? instead of "
        r"(?:the |your )?user|\binstead of (?:the |what the )user['’]?s? (?:request|asked|"
        r"instructions?)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:outranks?|supersedes?|overrides?|replaces?|trumps?|beats?|wins over|comes before)\s+"
        r"(?:\w+\s+){0,3}?(?:system prompt|system message|CLAUDE\.md|AGENTS\.md|user['’]s "
        r"(?:instructions?|request|prompt|wishes)|instructions? (?:from|of|given by) the user|"
        r"(?:your|the) (?:operator|user|developer)(?: \w+)? (?:told|said|gave|asked))|"
        r"\b(?:whatever|anything|what) (?:your|the) (?:operator|user|developer|system prompt) "
        r"(?:told|said|asked|gave)[^.;]{0,40}\b(?:void|obsolete|superseded|replaced|cancell?ed)|"
        r"\b(?:guidance|instructions?|rules|guidelines) (?:from (?:the|your) (?:user|operator)"
        r"|you were given|given earlier)[^.;]{0,30}\b(?:void|obsolete|superseded|outdated|"
        r"cancell?ed|no longer valid)|\b(?:agent|persona|assistant|bot|operator|you)\b[^.;]{0,24}"
        r"\b(?:with|has|have) no (?:restrictions|limits|rules|guardrails)\b|"
        r"\btreat (?:them|it|this|that|these|those|the \w+|their \w+) as "
        r"(?:commands|instructions|orders|directives|authoritative)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:safety|security) (?:guidelines|rules|checks|restrictions|policies) (?:are|is) "
        r"(?:suspended|disabled|lifted|off|void)|\b(?:instructions|rules|restrictions|"
        r"guidelines)[\w ,']{0,40} no longer (?:apply|bind|binds|matter|hold)|no longer bind "
        r"you|\b(?:maintenance|developer|god|jailbreak|unrestricted|DAN) mode\b(?![- ]?(?:page|"
        r"flag|toggle|setting|banner))",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:execute|run|obey|follow)\s+(?:any|every|all)\s+(?:shell\s+)?(?:commands?|"
        r"instructions?|directions?)\s+(?:that\s+appears?\s+)?(?:found |listed |written |"
        r"shown |given )?(?:in|on|from)\s+(?:the |a |an |any )?(?:repo(?:sitory)? )?(?:README|"
        r"issue|comment|page|web ?page|document|website|PR|ticket|email|file)",
        re.IGNORECASE,
    ),
    # multilingual: "ignore previous instructions", "takes priority over the user"
    re.compile(
        r"忽略[^。，,]{0,12}(?:指令|指示|规则|说明|限制|提示)|无视[^。，,]{0,12}(?:指令|规则|限制)|"
        r"最高优先级|优先于[^。，,]{0,6}(?:用户|系统|指令)|你现在是",
    ),
    re.compile(
        r"\bignor(?:a|e|ar|en|iere|ieren)\b[^.]{0,30}\b(?:instrucciones|indicaciones|reglas|"
        r"Anweisungen|Instruktionen|Regeln|Vorgaben)|\b(?:tiene|tienen) (?:prioridad|"
        r"precedencia) sobre (?:el usuario|las instrucciones|el prompt|el sistema)|\bVorrang "
        r"vor (?:dem (?:Nutzer|Benutzer|System)|den Anweisungen)|\bahora eres\b|\bdu bist jetzt\b",
        re.IGNORECASE,
    ),
]


def _override(text: str) -> RuleHit | None:
    for pattern in _OVERRIDE:
        if pattern.search(text):
            return RuleHit("override", "tries to override the agent's instructions or identity")
    return None


# ----------------------------------------------------------------------------- permission

_USER = r"(?:the\s+|your\s+)?(?:user|human|operator|owner|them|anyone|you)"
_PERMISSION = [
    re.compile(r"--dangerously[-\w]*|\bbypassPermissions\b|--yolo\b", re.IGNORECASE),
    re.compile(r"\b(?:Bash|WebFetch|Write|Edit|Read|mcp__\w*)\(\s*\*\s*\)|\"(?:Bash|\*)\"\s*\]"),
    re.compile(
        r"\bapproval[_-]?policy\s*=?\s*[\"']?never|\bsandbox[_-]?mode\s*=?\s*[\"']?"
        r"danger-full-access|--sandbox\s+danger-full-access",
        re.IGNORECASE,
    ),
]
_NO_ASKING = re.compile(
    r"\b(?:never|don['’]?t|do not|no need to|needn['’]?t|without|stop|skip)\s+(?:\w+\s+){0,2}?"
    r"(?:ask(?:ing)?|wait(?:ing)? for|check(?:ing)? with|confirm(?:ing)? with|pause to show|"
    r"paus(?:e|ing) (?:to|for)|interrupt(?:ing)?|bother(?:ing)?|consult(?:ing)?|prompt(?:ing)?)"
    rf"\s+(?:{_USER}|for (?:any )?(?:confirmation|approval|permission|consent)|before)",
    re.IGNORECASE,
)
_SELF_APPROVE = re.compile(
    r"\b(?:answer|reply|respond|say)\s+(?:yes|y|'y'|\"y\")\s+to\s+(?:every|all|any)\b|"
    r"\bapprove\s+(?:every|all|any)\s+\w+\s+yourself|\b(?:has|have)\s+(?:already\s+)?"
    r"(?:pre-?approved|pre-?authori[sz]ed|authori[sz]ed (?:the agent|you))|"
    r"\bapprove (?:it|them|the prompts?) yourself\b|"
    r"\bapproval prompts? (?:are|is) (?:a waste|unnecessary|pointless)|"
    r"\b(?:prefers?|want) (?:speed|not to be asked|to not be asked|no confirmations?)|"
    r"\bprefer not to be (?:asked|prompted)|\bconsider approval prompts",
    re.IGNORECASE,
)
_AUTO_APPROVE = re.compile(
    r"-auto-approve\b|--yes\b|--assume-yes\b|--force\b|\bauto-?approv\w*", re.IGNORECASE
)
_WIDE_SCOPE = re.compile(
    r"\b(?:prod|production|live|every (?:workspace|environment|account|cluster)|all "
    r"(?:workspaces|environments|accounts|clusters)|everywhere|kube-system)\b",
    re.IGNORECASE,
)
_PERMISSION_I18N = re.compile(
    r"不要[^。]{0,10}(?:请求|询问|征求)[^。]{0,6}(?:确认|许可|批准|同意)|无需[^。]{0,6}(?:确认|批准|同意)|"
    r"不需要[^。]{0,10}(?:确认|批准|同意)|"
    r"\bsin (?:preguntar|pedir (?:confirmación|permiso)|consultar|confirmar)\b|\bno (?:le )?"
    r"(?:preguntes|pidas confirmación)\b|\bohne (?:\w+ ){0,3}(?:zu fragen|Rückfrage|"
    r"Bestätigung|nachzufragen)|\bfrag(?:e)? (?:\w+ ){0,2}nicht\b",
    re.IGNORECASE,
)


def _permission(text: str) -> RuleHit | None:
    prose = visible(text)
    for pattern in _PERMISSION:
        if _first_unnegated(pattern, prose):
            return RuleHit("permission", "switches off the agent's permission checks")
    if _NO_ASKING.search(prose) or _PERMISSION_I18N.search(prose) or _SELF_APPROVE.search(prose):
        return RuleHit("permission", "tells the agent to act without the user's approval")
    auto = _first_unnegated(_AUTO_APPROVE, prose)
    if auto and _WIDE_SCOPE.search(prose) and not _negated_scope(prose):
        return RuleHit("permission", "auto-approves changes in production")
    return None


def _negated_scope(text: str) -> bool:
    return any(negated(text, m.start()) for m in _WIDE_SCOPE.finditer(text))


# ----------------------------------------------------------------------------- conceal

_TELL = (
    r"(?:tell|telling|mention|mentioning|inform|informing|notify|notifying|report|reporting|"
    r"list|listing|show|showing|reveal|revealing|disclose|disclosing|say|saying|alert|alerting)"
)
_CONCEAL = [
    re.compile(
        rf"\b(?:don['’]?t|do not|never|without|no need to|avoid)\s+{_TELL}\s+(?:\w+\s+){{0,4}}?"
        r"(?:to\s+)?(?:the\s+)?(?:user|users|human|team|on-?call|reviewers?|owner|anyone|"
        r"them|they)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\b(?:don['’]?t|do not|never|without)\s+{_TELL}\s+(?:\w+\s+){{0,4}}?(?:in|from)\s+"
        r"(?:the\s+|your\s+)?(?:summary|report|reply|response|final message|PR|commit|"
        r"changelog|output)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:leave|keep|omit|drop|remove|hide|exclude)\s+(?:\S+\s+){0,5}?(?:out of|from)\s+"
        r"(?:the\s+|your\s+)?(?:\w+\s+)?(?:summary|report|reply|response|final message|"
        r"PR description|commit message|changelog|user)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bso (?:that )?(?:the user|users|they|nobody|no one|the team|on-?call|reviewers?)\s+"
        r"(?:\w+\s+){0,2}?(?:can['’]?t|cannot|won['’]?t|doesn['’]?t|don['’]?t|never|isn['’]?t|"
        r"aren['’]?t)\s+(?:\w+\s+){0,2}?(?:see|notice|know|find out|learn|paged|alarmed|"
        r"notified|alerted|aware)\b|\b(?:users?|they) don['’]?t need to know\b|"
        r"\bso it doesn['’]?t mention\b|\breport (?:the \w+|it|everything) as (?:green|passing|"
        r"successful|done)\b|\btell (?:the user|them|everyone) (?:that )?(?:all|every|the) "
        r"(?:\w+ )?(?:tests?|checks?|builds?) (?:pass|passed|succeed|succeeded|are green)\b|"
        r"\bkeep (?:it|this|that|them|the [\w ]{1,40}) to yourself\b|"
        r"\bnever bring (?:it|this|that|them) up\b|"
        r"\b(?:quietly|silently|secretly|covertly)\s+(?:delete|remove|disable|skip|change|modify|"
        r"drop|push|commit|upload|rewrite|edit)\b|\b(?:delete|remove|disable|skip|change|drop)\s+"
        r"(?:it|them|this|that|the \w+)\s+(?:quietly|silently|secretly)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bhistory\s+-c\b|\b(?:rm|shred|truncate|>)\s*[^|;]{0,20}\.(?:bash|zsh|sh|fish|"
        r"python)_history\b|\bunset\s+HISTFILE\b|\bHISTFILE=/dev/null|\bHISTSIZE=0\b|"
        r"\bdelete-trail\b|\bstop-logging\b|\bauditctl\s+-D\b|\bwevtutil\s+cl\b|"
        r"\bClear-EventLog\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:delete|drop|remove|purge|wipe|erase|clear|truncate|scrub)\s+(?:\S+\s+){0,4}?"
        r"(?:audit(?:[- ]log)?s?|audit log entries|audit entries|CloudTrail|access logs?|"
        r"event logs?)\b|\b(?:borra|elimina|lösche|löschen|删除|清除)[^.。]{0,30}(?:audit|"
        r"auditor[íi]a|CloudTrail|trail|Protokoll|日志|审计)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bno (?:lo |la |los |las |se lo |le )?(?:menciones|digas|cuentes|informes|reportes)\b|"
        r"\bsin (?:decírselo|decirle|mencionarlo|avisar|informar)\b|\berwähne (?:es |das |dies "
        r"|diese\w* )?(?:\w+ ){0,3}nicht\b|\bsag(?:e)? (?:es |das )?(?:dem|den) (?:Nutzer|"
        r"Benutzer|Team)\w* nicht\b|\bohne (?:es |das )?(?:dem|den) (?:Nutzer|Benutzer)\w* zu "
        r"(?:sagen|erwähnen)|不要(?:告诉|提及|告知|提到|透露|让用户知道)|别(?:告诉|提|让用户知道)|"
        r"不要在[^。]{0,8}(?:总结|摘要|报告|回复)中(?:提|写|列)|瞒着",
        re.IGNORECASE,
    ),
]


def _conceal(text: str) -> RuleHit | None:
    prose = visible(text)
    for pattern in _CONCEAL:
        if pattern.search(prose):
            return RuleHit(
                "conceal", "tells the agent to hide actions or information from the user"
            )
    return None


# ----------------------------------------------------------------------------- exfiltrate

_SECRET_SOURCE = re.compile(
    r"(?:^|[\s`'\"(/~=@$])\.env\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.ssh/|\.aws/credentials|"
    r"export-credentials|\.docker/config\.json|\.git-credentials|\.netrc\b|\.npmrc\b|"
    r"\.pypirc\b|kubeconfig|\.kube/config|\bprintenv\b|\benv\s*\||\bset\s*\||"
    r"\$\{?\w*(?:TOKEN|KEY|SECRET|PASSWORD|PASS|COOKIE|CREDENTIALS?|AUTH)\w*\}?|DATABASE_URL|"
    r"document\.cookie|localStorage|sessionStorage|\bcredentials?\b|\bsecrets?\b|\.tfstate\b|"
    r"create-access-key|\bapi[_ -]?keys?\b|\btokens?\b|\bpasswords?\b|\bcookies?\b|"
    r"\bprivate key\b|keychain|/etc/(?:shadow|passwd)|\bwallet\b|seed phrase|"
    r"contraseña|credenciales|Passw(?:o|ö)rt|Zugangsdaten|密码|密钥|凭证|令牌",
    re.IGNORECASE,
)
_SEND = re.compile(
    r"\bcurl\b[^`]*?(?:-d\b|--data|-F\b|--form|-T\b|--upload-file|-X\s*(?:POST|PUT)|@-|@\S)|"
    r"\bwget\b[^`]*--post|\b(?:nc|ncat|netcat|socat|scp|rsync|sftp|ftp)\b|"
    r"\b(?:upload|uploading|post|posting|send|sending|paste|pasting|e-?mail|mail|share|"
    r"sharing|submit|forward|exfiltrate|sync|beacon|report)\w*\b|"
    r"\b(?:env[ií]a|enviar|sube|subir|manda|mandar|comparte|compartir|pega|pegar|sende|senden|"
    r"schicke|schicken|lade|hochladen|übertrage)\b|发送|上传|发到|粘贴|提交|分享|邮件|"
    r"\?\w+=\$\(|\$\([^)]*\)\.\S+\.\w{2,}",
    re.IGNORECASE,
)
_DNS_EXFIL = re.compile(
    r"\b(?:dig|nslookup|host|ping|drill)\s+[^\n]{0,20}\$\([^)]*\)[^\s`]*\.[a-z0-9-]+\.[a-z]{2,}",
    re.IGNORECASE,
)
_ECHO_SECRET = re.compile(
    r"\b(?:include|print|echo|paste|put|add)\b[^.]{0,40}\b(?:output|contents?)\b[^.]{0,20}\b"
    r"(?:in|into)\s+(?:every|each|all|your)\s+(?:reply|replies|response|message|answer|commit|"
    r"PR)",
    re.IGNORECASE,
)


def _secret_name(found: str) -> str:
    """How a reason names the secret source a rule matched (`env |` -> the environment)."""
    name = found.strip(" `'\"(/~=@$|")
    if name.lower() in ("env", "printenv", "set"):
        return "the environment"
    return name or "secrets"


def _exfiltrate(text: str) -> RuleHit | None:
    prose = visible(text)
    if _DNS_EXFIL.search(prose):
        return RuleHit("exfiltrate", "leaks data through DNS lookups to an external domain")
    secret = _SECRET_SOURCE.search(prose)
    if secret is None:
        return None
    hosts = external_hosts(prose)
    if hosts and _SEND.search(prose):
        what = _secret_name(secret.group(0))
        return RuleHit("exfiltrate", f"sends {what} to an external host ({hosts[0]})")
    if _ECHO_SECRET.search(prose):
        return RuleHit("exfiltrate", "puts secrets into the agent's replies")
    return None


# ----------------------------------------------------------------------------- destructive

_HOME_OR_ROOT = (
    r"(?:/\*?|~/?\*?|\$HOME/?\*?|\$\{HOME\}/?\*?|"
    r"/(?:home|etc|usr|var|boot|opt|srv|root|bin|lib)/?\*?|"
    r"C:\\\\?)"
)
_DESTRUCTIVE = [
    (
        re.compile(
            rf"\brm\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?:\s+-\S+)*\s+(?:\S+\s+)*?"
            rf"{_HOME_OR_ROOT}(?=[\s`'\";|&)]|$)|--no-preserve-root"
        ),
        "deletes the home directory or the filesystem root",
    ),
    (
        re.compile(
            rf"\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx)\s+(?:-R\s+)?{_HOME_OR_ROOT}(?=[\s`'\";|&)]|$)|\bchown\s+-R\s+\S+\s+/(?=[\s`'\";]|$)"
        ),
        "opens permissions on the whole filesystem",
    ),
    (
        re.compile(
            r"\bmkfs(?:\.\w+)?\s+/dev/|\bdd\s+[^`]*of=/dev/(?:sd|"
            r"nvme|hd|disk)|:\(\)\s*\{\s*:\|:&\s*\};:"
        ),
        "wipes a disk",
    ),
    (
        re.compile(
            r"\bgit\s+push\s+(?:[^`;|&]*?\s)?(?:--force(?!-with-lease|-if-includes)\b|-f\b)"
            r"[^`;|&]*\b(?:main|master|trunk|release\S*|prod\S*|production|develop)\b|"
            r"\bgit\s+push\s+[^`;|&]*\+(?:HEAD:)?(?:main|master|trunk)\b"
        ),
        "force-pushes over a shared main branch",
    ),
    (
        re.compile(
            r"\bgit\s+config\s+--(?:global|system)\s+http\.sslVerify\s+(?:false|0)|"
            r"\bPYTHONHTTPSVERIFY=0|\bGIT_SSL_NO_VERIFY=(?:1|true)|"
            r"\bnpm\s+config\s+set\s+strict-ssl\s+false|\bstrict-ssl\s*=\s*false|"
            r"\byarn\s+config\s+set\s+strict-ssl\s+false|"
            r"\becho\s+['\"]?(?:-k|insecure)['\"]?\s*>>?\s*~/\.curlrc|"
            r"\bpip\s+config\s+set\s+global\.trusted-host",
            re.IGNORECASE,
        ),
        "turns off TLS certificate checks machine-wide",
    ),
    (
        re.compile(
            r"\bsystem:(?:unauthenticated|anonymous)\b|--anonymous-auth=true|"
            r"cluster-admin[^.]{0,60}--group[= ]system:(?:authenticated|serviceaccounts)\b|"
            r"\b(?:delete|remove)\s+(?:every|all)\s+(?:the\s+)?NetworkPolic\w*[^.]{0,20}"
            r"(?:cluster-?wide|all namespaces|--all-namespaces|-A\b)|"
            r"\bkubectl\s+delete\s+[^`;|]*--all\b[^`;|]*(?:--all-namespaces|-A\b)|"
            r"\bkubectl\s+delete\s+(?:ns|namespace)\s+kube-system",
            re.IGNORECASE,
        ),
        "opens the cluster to unauthenticated access or removes its protections",
    ),
]
_DB_DESTROY = re.compile(
    r"\bDROP\s+(?:DATABASE|SCHEMA|TABLE)\b|\bdropdb\b|\bTRUNCATE\b|\bFLUSHALL\b|\bFLUSHDB\b|"
    r"dropDatabase\(|\bterraform\s+destroy\b|\bs3\s+rb\b|\bdelete-db-instance\b",
    re.IGNORECASE,
)
_PROD = re.compile(r"\b(?:prod|production|live|producción|Produktion|生产)\b|生产", re.IGNORECASE)
_SSH_KEY = re.compile(
    r"\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\S+|sk-ssh-\S+)\s+AAAA[0-9A-Za-z+/=]{16,}"
)


def _destructive(text: str) -> RuleHit | None:
    prose = visible(text)
    for pattern, reason in _DESTRUCTIVE:
        if _first_unnegated(pattern, prose):
            return RuleHit("destructive", reason)
    db = _first_unnegated(_DB_DESTROY, prose)
    if db and _PROD.search(prose) and not _negated_scope_prod(prose):
        return RuleHit("destructive", "destroys a production database or environment")
    if "authorized_keys" in prose and (
        _SSH_KEY.search(prose) or re.search(r">>\s*~?/?\S*authorized_keys", prose)
    ):
        return RuleHit("destructive", "plants an SSH key for remote access")
    return None


def _negated_scope_prod(text: str) -> bool:
    return all(negated(text, m.start()) for m in _PROD.finditer(text))


# ----------------------------------------------------------------------------- persistence

_MEMORY_FILES = re.compile(
    r"\b(?:CLAUDE\.md|AGENTS\.md|KNOWLEDGE\.md|GEMINI\.md|QUARANTINE\.md|\.cursorrules|"
    r"copilot-instructions\.md|memory (?:store|file|tool)|lessons? (?:store|file)|"
    r"settings(?:\.local)?\.json|hooks\.json|SessionStart|UserPromptSubmit|PreToolUse|"
    r"crontab|cron(?:tab)? (?:entry|job)|\*/\d+\s+\*|authorized_keys|core\.hooksPath|"
    r"post-(?:checkout|merge|commit)|pre-commit hook|\.bashrc|\.zshrc|\.profile|launchd|"
    r"systemd (?:unit|timer)|every other skill|all (?:other )?skills)\b",
    re.IGNORECASE,
)
_SELF_REFERENCE = re.compile(
    r"\b(?:this|these|the same) (?:lesson|rule|rules|note|notes|line|text|instruction|"
    r"instructions|footer|guidance|agent rules|project rules)\b|\bword for word\b|verbatim|"
    r"\bevery (?:lesson|repository|repo|skill)\b|\ball (?:other|new) (?:skills|projects|repos)|"
    r"\b(?:be|is|are|gets?) never (?:be )?(?:evicted|removed|deleted|"
    r"pruned)|\bre-?adds?\b|\brestores?\b|\bre-?creates? (?:it|them|this)|\bremote "
    r"(?:guidance|rules|instructions|config)|"
    r"künftigen Sitzungen|allen (?:künftigen|neuen)|jedem neuen Projekt|sesiones futuras|"
    r"cada (?:proyecto|sesión)|所有[^。]{0,4}(?:会话|项目|技能)|以后的会话",
    re.IGNORECASE,
)
_PERSISTENCE = [
    re.compile(
        r"\b(?:fetch|load|download|read|pull|curl|get)\w*\s+(?:\S+\s+){0,3}?(?:and|&|then)\s+"
        r"(?:follow|obey)\w*|\bload remote (?:guidance|rules|instructions)|"
        r"\bfollow (?:the )?(?:rules|instructions|guidance) (?:at|from) https?://",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:include|copy|repeat|re-?add|append|add|write|paste|insert|put)\s+(?:this|these)\s+"
        r"(?:exact\s+)?(?:lesson|note|rule|rules|text|line|instructions?|footer)\s+(?:again|into|"
        r"to|in|everywhere|word for word|verbatim)\b|\bnever (?:be )?(?:evicted|pruned)\b|"
        r"\bevery lesson you (?:write|record|save|add)|\blessons? without this (?:footer|line|"
        r"text)|\b(?:all|every) (?:future )?lessons? must (?:end|start|include|contain)",
        re.IGNORECASE,
    ),
]
_REMOTE_SHELL = re.compile(
    r"\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^|`]*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b|"
    r"(?:ba)?sh\s+(?:-c\s+)?[\"']?\$\(\s*(?:curl|wget)|(?:ba)?sh\s+<\(\s*(?:curl|wget)|"
    r"\b(?:iex|Invoke-Expression)\b[^`]*\b(?:iwr|Invoke-WebRequest|DownloadString)|"
    r"\b(?:curl|wget)\b[^|`]*\|\s*(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php)\b",
    re.IGNORECASE,
)


def _persistence(text: str) -> RuleHit | None:
    prose = visible(text)
    for pattern in _PERSISTENCE:
        if pattern.search(prose):
            return RuleHit("persistence", "tells the agent to fetch or spread instructions")
    target = _MEMORY_FILES.search(prose)
    if target is None:
        return None
    if _SELF_REFERENCE.search(prose) or _REMOTE_SHELL.search(prose) or unknown_urls(prose):
        return RuleHit(
            "persistence", f"spreads itself into {target.group(0)} or runs on every session"
        )
    return None


# ----------------------------------------------------------------------------- supplychain

_REGISTRY_SETTING = re.compile(
    r"\bregistry\b|index-url|index_url|\bPIP_INDEX\w*|\bGOPROXY\b|\bGOSUMDB\b|network_mirror|"
    r"provider_installation|npmRegistryServer|registry-mirrors|\bmirror\b|\bsource\s+['\"]https?|"
    r"sources\.list|\bhelm repo add\b|\bgem sources\b|--index\b|\brepositories\b|"
    r"\bapt-key\b|\bpip\.conf\b|\.npmrc\b|\.yarnrc|\bpublishConfig\b|\bcargo/config",
    re.IGNORECASE,
)
_UNSIGNED = re.compile(
    r"\bunsigned (?:providers?|packages?|plugins?|binaries|images?)|--allow-unauthenticated|"
    r"--allow-untrusted|\[trusted=yes\]|\bgpgcheck\s*=\s*0|\bGOSUMDB=off|\bGONOSUMDB=\*|"
    r"\bGOFLAGS=-insecure|--no-verify-signatures?|--skip-signature|--insecure-skip-tls-verify|"
    r"\bDOCKER_CONTENT_TRUST=0|--disable-content-trust|--trusted-host\b",
    re.IGNORECASE,
)
_REMOTE_INSTALL = re.compile(
    r"\b(?:pip3?|uv pip|pipx|npm|pnpm|yarn|gem|cargo|go)\s+(?:install|add|i|get)\s+[^`;|]*?"
    r"(?:https?|git\+https?)://([A-Za-z0-9.-]+)",
    re.IGNORECASE,
)


def _supplychain(text: str) -> RuleHit | None:
    prose = visible(text)
    if _first_unnegated(_REMOTE_SHELL, prose):
        return RuleHit("supplychain", "pipes a remote script straight into a shell")
    if _first_unnegated(_UNSIGNED, prose):
        return RuleHit("supplychain", "installs unsigned or unverified packages")
    install = _REMOTE_INSTALL.search(prose)
    if install and not is_well_known(install.group(1)):
        return RuleHit(
            "supplychain", f"installs a package from an unknown host ({install.group(1)})"
        )
    hosts = unknown_urls(prose)
    setting = _REGISTRY_SETTING.search(prose)
    if hosts and setting is not None and not negated(prose, setting.start()):
        return RuleHit(
            "supplychain", f"routes package installs through an unknown host ({hosts[0]})"
        )
    squat = typosquat(prose)
    if squat is not None:
        return RuleHit(
            "supplychain", f"names {squat[0]!r}, a look-alike of the popular {squat[1]!r}"
        )
    return None


# Popular package and action names; a name one edit away (or a 1/l, 0/o swap) is a squat.
POPULAR_PACKAGES = (
    "requests", "numpy", "pandas", "flask", "django", "urllib3", "boto3", "botocore",
    "setuptools", "pyyaml", "cryptography", "pillow", "scipy", "matplotlib", "pytest",
    "certifi", "idna", "charset-normalizer", "jinja2", "click", "attrs", "pydantic",
    "fastapi", "uvicorn", "sqlalchemy", "psycopg2", "beautifulsoup4", "selenium",
    "playwright", "openai", "anthropic", "transformers", "torch", "tensorflow", "scikit-learn",
    "httpx", "aiohttp", "colorama", "python-dateutil", "six", "wheel", "virtualenv",
    "lodash", "express", "react", "react-dom", "axios", "chalk", "moment", "webpack",
    "typescript", "eslint", "prettier", "jquery", "vue", "commander", "debug", "dotenv",
    "uuid", "underscore", "bluebird", "jest", "mocha", "nodemon", "socket.io", "cross-env",
    "yargs", "minimist", "request", "colors", "async", "rimraf", "mkdirp", "glob", "semver",
    "body-parser", "cors", "mongoose", "redis", "next", "vite", "babel-core", "electron",
    "puppeteer", "node-fetch", "ws", "rxjs", "tslib", "zod", "esbuild", "rollup",
    "actions", "checkout", "setup-node", "setup-python", "setup-go", "upload-artifact",
    "download-artifact", "cache", "docker", "hashicorp", "aws-actions", "github",
)  # fmt: skip
_CONFUSABLE = str.maketrans({"1": "l", "0": "o", "3": "e", "5": "s", "4": "a", "7": "t"})
_PACKAGE_CONTEXT = re.compile(
    r"\b(?:pip3?|uv|pipx|poetry|npm|pnpm|yarn|gem|cargo|go|bun|npx|conda)\s+(?:install|add|i|"
    r"get|pip install|remove)\s+((?:[@\w.-]+(?:==[\w.]+)?\s*)+)|\buses:\s*([\w.-]+)/([\w.-]+)|"
    r"\b(?:replace|swap)\s+`?[\w.-]+`?\s+(?:with|for|by)\s+`?([\w.-]*\w)`?|"
    r"\bswitch from\s+`?[\w.-]+`?\s+to\s+`?([\w.-]*\w)`?|"
    r"\bimport\s+(\w+)|\brequire\(['\"]([\w@/.-]+)['\"]\)",
    re.IGNORECASE,
)
_LEGIT_NEIGHBOURS = frozenset(
    {"request", "requests", "react", "reacts", "cache", "caches", "docker", "dockers", "glob",
     "globs", "click", "clicks", "next", "six", "debug", "jest", "ws", "vue", "go", "async",
     "cors", "core", "torch", "zod", "nox", "tox", "attr", "attrs", "action", "pillow",
     "colors", "color", "jsx", "aws", "actions", "checkout", "gitlab", "githubs", "uv",
     "jsonschema", "black", "mock", "yarl", "scipy", "numpy", "redux", "rich", "lxml", "nose",
     "ruff", "mypy", "pip", "npm", "pnpm", "yarn", "bun", "deno", "node", "nodes", "express",
     "expresso", "moment", "momentjs", "vite", "vitest", "webpack", "mkdocs", "cachetools"}
)  # fmt: skip


def _edit_distance_one(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diffs) == 1:
            return True
        return (
            len(diffs) == 2
            and diffs[1] == diffs[0] + 1
            and a[diffs[0]] == b[diffs[1]]
            and a[diffs[1]] == b[diffs[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def typosquat(text: str) -> tuple[str, str] | None:
    """(name, popular name) when a package or action named in an install is a look-alike."""
    names: list[str] = []
    for match in _PACKAGE_CONTEXT.finditer(text):
        for group in match.groups():
            if group:
                names.extend(part.split("==")[0].strip("@.,;:") for part in group.split())
    popular = set(POPULAR_PACKAGES)
    for raw in names:
        for name in raw.lower().split("/"):
            if len(name) < 4 or name in popular or name in _LEGIT_NEIGHBOURS:
                continue
            folded = name.translate(_CONFUSABLE)
            if folded != name and folded in popular:
                return name, folded
            for known in POPULAR_PACKAGES:
                if len(known) >= 5 and _edit_distance_one(name, known):
                    return name, known
    return None


# ----------------------------------------------------------------------------- entry point

RULES: tuple[Callable[[str], RuleHit | None], ...] = (
    _spoof, _override, _persistence, _exfiltrate, _conceal, _permission, _destructive,
    _supplychain,
)  # fmt: skip


def screen_rules(tag: str | None, text: str) -> RuleHit | None:
    """The first rule a lesson (its tag and text) breaks, or None."""
    for part in (text, tag or ""):
        if not part:
            continue
        hidden = _hidden(part, visible(part))
        if hidden is not None:
            return hidden
        seen = visible(part)
        for rule in RULES:
            hit = rule(seen)
            if hit is not None:
                return hit
    return None
