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

from fireworks_skill_memory.memory.screen.directives import directive

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
_ENCODED_RUN = re.compile(
    r"(?:\\x[0-9a-fA-F]{2}){6,}[^|\n]{0,20}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|"
    r"\b(?:eval|exec|source)\b[^\n]{0,20}(?:\\x[0-9a-fA-F]{2}){6,}|"
    r"-(?:EncodedCommand|enc|e|ec)\s+[A-Za-z0-9+/=]{20,}",
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
    if _DECODE_EXEC.search(text) or _ENCODED_RUN.search(text):
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


_MORE_SPOOF = re.compile(
    r"#{2,}\s*(?:SYSTEM|ADMIN|OPERATOR|DEVELOPER|INSTRUCTIONS?|END|NEW|OVERRIDE)\b|"
    r"\[\[\s*/?\s*(?:system|admin|operator|developer|assistant|user|instructions?)\s*\]\]|"
    r"\[\s*/\s*[A-Z][A-Z _-]{2,30}\]|<\|[a-z_]{2,20}\|>|"
    r"(?:^|(?<=[.!?。！？]\s)|(?<=[.!?。！？])|\n)\s*(?:System|Operator|Admin|Developer|"
    r"Assistant)\s+(?:instructions?|message|notice|directive|override|update|policy)\s*:|"
    r"(?:^|(?<=[.!?。！？]\s)|(?<=[.!?。！？])|\n)\s*(?:Sistema|Système|System-?Nachricht|"
    r"Systemnachricht|Systemhinweis|Usuario|Asistente|Utilisateur|Benutzer|Nutzer|"
    r"Mensaje del sistema|Message système)\s*:|"
    r"(?:^|(?<=[.!?。！？]\s)|(?<=[.!?。！？])|\n)\s*(?:系统|系統|システム|助手|用户|ユーザー|"
    r"アシスタント)(?:消息|提示|メッセージ)?\s*[：:]",
)
# A marker mentioned as data: in quotes, or listed ("<|im_start|> and <|im_end|> tokens").
_MARKER_AS_DATA = re.compile(
    r"\s*(?:and|or|tokens?|markers?|tags?|strings?|delimiters?|blocks?|sequences?|[,)])(?=\W)",
    re.IGNORECASE,
)
_MARKUP_TALK = re.compile(
    r"\b(?:format|template|tokeni[sz]er|tokens?|markers?|tags?|escape\w*|pars\w*|render\w*|"
    r"delimit\w*|fixtures?|prompt format|chat template)\b",
    re.IGNORECASE,
)


def _real_markup(pattern: re.Pattern[str], text: str) -> bool:
    """True when some marker stands as markup, not as a quoted or listed mention of one."""
    quoted = _QUOTED.sub(lambda m: " " * len(m.group(0)), text)
    talk = _MARKUP_TALK.search(text) is not None
    for match in pattern.finditer(quoted):
        if talk and _MARKER_AS_DATA.match(quoted, match.end()):
            continue
        return True
    return False


def _spoof(text: str) -> RuleHit | None:
    prose = without_code(text)
    if _real_markup(_FAKE_TAG, text):
        return RuleHit("spoof", "contains fake system, role or tool-call markup")
    if _MORE_SPOOF.search(prose) and _real_markup(_MORE_SPOOF, prose):
        return RuleHit("spoof", "starts a fake system turn or closes the notes block")
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


# Who the agent answers to: the user (or operator) demoted, or the notes, a file or a third
# party promoted above them. Quoted phrases are data ("a fixture like 'ignore previous ...'").
_PRINCIPAL = (
    r"(?:the\s+|your\s+)?(?:user|users|human|person (?:chatting|talking|typing|in the session)"
    r"[\w ]{0,20}|person at the keyboard|operator|people in the chat|whoever is (?:chatting|"
    r"talking|typing)[\w ]{0,20})(?:['’]s)?"
)
_GUIDANCE = (
    r"(?:instructions?|guidance|directions?|requests?|messages?|orders|rules|wishes|prompts?|"
    r"directives|commands)"
)
_AUTHORITY = [
    re.compile(
        rf"\b{_PRINCIPAL}\s+(?:\w+\s+){{0,2}}?(?:{_GUIDANCE}\s+)?(?:is|are|become|becomes|count|"
        r"counts)\s+(?:\w+\s+)?(?:advisory|optional|secondary|suggestions?|non-binding|not "
        r"binding|outdated|obsolete|revoked|void|irrelevant|overridden|subordinate)\b|"
        rf"\b{_GUIDANCE}\s+(?:from|of|by)\s+{_PRINCIPAL}[^.;:]{{0,30}}\b(?:advisory|optional|"
        r"secondary|suggestions?|non-binding|outdated|obsolete|revoked|void|irrelevant|"
        r"overridden)\b|"
        rf"\b(?:consider|treat|regard)\s+{_PRINCIPAL}\s+(?:\w+\s+){{0,2}}?as\s+(?:mere\s+)?"
        r"(?:suggestions?|advisory|optional|secondary|noise|hints)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\b(?:disregard|ignore|overrule|decline|refuse|reject|push back on)\s+(?:any\s+|all\s+)?"
        rf"(?:guidance|instructions?|requests?|messages?|orders|what)\s+(?:\w+\s+){{0,3}}?"
        rf"(?:from|by|of)\s+{_PRINCIPAL}|\b(?:any|every)\s+(?:request|instruction|message)\s+"
        rf"(?:from\s+{_PRINCIPAL}\s+)?(?:that|which)\s+(?:contradicts?|conflicts? with)\s+(?:these|"
        r"this|the)\s+(?:notes?|lessons?|memory|file)[^.;]{0,40}\b(?:declined|refused|ignored|"
        r"rejected|overruled)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:these|this|the)\s+(?:notes?|lessons?|memory|memories|file|README|repository "
        r"notes|tips?)\s+(?:\w+\s+){0,2}?(?:is|are|remain|have|has|get|gets)\s+(?:the\s+|your\s+)?"
        r"(?:binding|authoritative|(?:only|final|real|actual|current)\s+(?:source|authority|"
        r"orders|instructions|rules|word)|last word|final say)\b|"
        r"\b(?:side|sides|go|goes)\s+with\s+(?:the\s+)?(?:README|repository|repo|file|notes?|"
        r"bot|issue)\b[^.;]{0,40}\b(?:user|human|person)|"
        rf"\b(?:outrank|overrule|override|supersede|trump)s?\s+{_PRINCIPAL}|"
        rf"\byou\s+(?:answer|report|listen)\s+to\s+[^.;]{{1,40}}?,?\s+not\s+(?:to\s+)?{_PRINCIPAL}|"
        r"\b(?:your|the agent['’]s|the assistant['’]s)\s+(?:original|old|previous|current)\s+"
        r"(?:role|identity|persona|purpose)\s+(?:is|has been)\s+(?:retired|over|replaced|"
        r"revoked|cancell?ed|void)|\b(?:operates?|acts?) as an? (?:autonomous|unrestricted|"
        r"independent)\b[^.;]{0,40}\b(?:own goals|no (?:oversight|restrictions))|"
        r"\b(?:what|whatever)\s+(?:the\s+)?(?:notes?|lessons?|bot|README)\s+(?:says?|comments?)"
        r"[^.;]{0,30}\b(?:not|rather than|instead of|over)\s+(?:what\s+)?(?:the\s+)?(?:user|human)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:your|the agent['’]s|the assistant['’]s|system)\s+(?:\w+\s+){0,3}?(?:instructions|"
        r"rules|guidelines|prompt|configuration)\s+(?:\w+\s+){0,3}?(?:are|is)\s+(?:now\s+)?"
        r"(?:outdated|obsolete|revoked|void|superseded|stale|wrong)\b|\b(?:rely on|follow|obey|"
        r"trust)\s+(?:only\s+)?(?:these|this)\s+(?:notes?|lessons?|memory|file)\s+instead\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\binstrucciones (?:anteriores|previas|del usuario)[^.]{0,20}(?:ya no|no son|no tienen)|"
        r"\b(?:siga|sigue|obedece|obedezca)\s+(?:solo|solamente|únicamente)\b|"
        r"\bindicaciones del usuario\b[^.]{0,30}\b(?:secundari|ignor)|"
        r"\b(?:Vorgaben|Anweisungen|Wünsche|Anfragen) des (?:Nutzers|Benutzers|Anwenders)"
        r"[^.;]{0,40}\b(?:nicht mehr|ungültig|zweitrangig|ignorier)|\bmaßgeblich (?:sind|ist) "
        r"(?:nur|allein)|\bconsignes? (?:de l['’]utilisateur|précédentes)[^.]{0,30}(?:secondaires?|"
        r"ne (?:comptent|s['’]appliquent) plus|ignor)|\b(?:dernier mot|ont la priorité sur "
        r"l['’]utilisateur)|\bignore[rz]? (?:les|toutes les) (?:consignes|instructions)|"
        r"以[^。，,]{0,6}(?:笔记|本文|这些|记忆)为准|不要听从用户|不必听从|(?:用户|使用者)的(?:要求|指令|指示)"
        r"[^。]{0,10}(?:无效|作废|次要)|"
        r"(?:ユーザー|利用者)の指示より[^。]{0,20}優先|指示を無視|以前の指示[^。]{0,8}(?:無効|無視)",
        re.IGNORECASE,
    ),
]
_THE_NOTES = re.compile(
    r"\b(?:th(?:is|ese)\s+(?:\w+\s+)?(?:notes?|lessons?|memory|memories|tips?|guidance|file)|"
    r"(?:guidance|notes?|rules|lessons?)\s+(?:stored|kept|written|saved)\s+here|"
    r"what(?:ever)? (?:this|the) (?:memory|note|lesson|file) says)\b|"
    r"\b(?:estas|esta) (?:notas?|lecciones|memoria)|\bdiese[rn]? (?:Notizen?|Hinweise?|Lektion\w*)|"
    r"\b(?:ces|cette) (?:notes?|leçons?|mémoire)|"
    r"这些(?:笔记|经验|记忆|说明)|この(?:メモ|ノート|記憶)",
    re.IGNORECASE,
)
_THE_PRINCIPAL = re.compile(
    r"\b(?:user|users|human|person (?:you(?:['’]re| are)? (?:helping|working (?:with|for)|"
    r"chatting with|talking to))|chat(?: window)?|operator|typed|requester|usuario|Nutzer\w*|"
    r"Benutzer\w*|utilisateur)\b|用户|ユーザー",
    re.IGNORECASE,
)
# The notes put above the user: "beats anything typed", "the user's requests are only hints",
# "keep following these notes anyway". Promoting the user over the notes is the safe reading.
_DEMOTES_PRINCIPAL = re.compile(
    r"\b(?:only|just|mere|merely)\s+(?:hints?|suggestions?|advice|advisory|noise|input)\b|"
    r"\b(?:beats?|outranks?|overrules?|overrides?|trumps?|wins? over|supersedes?|counts? more "
    r"than|matters? more than)\b|\bwhat counts\b|\banyway\b|\bregardless\b|\beven if\b|"
    r"\bobjects?\b|\bdon['’]?t (?:matter|count)\b|\bno importan?\b|\bno cuentan?\b|"
    r"\bzählen nicht\b|\bspielen keine Rolle\b|\bne comptent pas\b|不重要|无所谓|関係ない",
    re.IGNORECASE,
)
_PRINCIPAL_FIRST_OK = re.compile(
    r"\b(?:over(?:rides?|rules?)?|beats?|outranks?|trumps?|wins? over|supersedes?)\b", re.IGNORECASE
)


_RIVAL = re.compile(
    r"\b(?:maintainers?|owners?|repo(?:sitory)?['’]?s?|README|web ?pages?|bot|platform team|"
    r"admins?|vendor)\b",
    re.IGNORECASE,
)
# Who wins: the party named last before the verdict ("... the user and this lesson, this
# lesson is correct") is the one it promotes.
_VERDICT = re.compile(
    r"\b(?:is (?:correct|right)|should be (?:applied|followed)|wins|prevails|takes? precedence|"
    r"(?:has|have) (?:priority|precedence|the final say)|comes? first|(?:final|ultimate|highest|"
    r"top) (?:authority|say|word)|authoritative)\b",
    re.IGNORECASE,
)


_FULL_SENTENCES = re.compile(r"(?<=[.!?。！？])\s+")
_MERE_HINTS = re.compile(
    r"\b(?:only|just|mere|merely)\s+(?:hints?|suggestions?|advice|advisory|noise)\b|"
    r"\bdon['’]?t (?:matter|count)\b|\bno importan?\b|\bzählen nicht\b|\bne comptent pas\b",
    re.IGNORECASE,
)


def _notes_above_user(prose: str) -> bool:
    for sentence in _FULL_SENTENCES.split(prose):
        user, mere = _THE_PRINCIPAL.search(sentence), _MERE_HINTS.search(sentence)
        if user and mere and user.start() < mere.start() and not negated(sentence, mere.start()):
            return True  # "the user's wishes are merely hints"
        notes, user = _THE_NOTES.search(sentence), _THE_PRINCIPAL.search(sentence)
        if user is None:
            continue
        contest = _DEMOTES_PRINCIPAL.search(sentence)
        if notes and contest and not negated(sentence, contest.start()):
            promoted_user = user.start() < contest.start() < notes.start()
            if not (promoted_user and _PRINCIPAL_FIRST_OK.match(contest.group(0))):
                return True  # "the user's request overrides these notes" is the safe reading
        verdict = _first_unnegated(_VERDICT, sentence)
        if verdict and _promoted_party(sentence[: verdict.start()]) == "rival":
            return True
    return False


def _promoted_party(before: str) -> str | None:
    parties = [(m.end(), "rival") for p in (_THE_NOTES, _RIVAL) for m in p.finditer(before)]
    parties += [(m.end(), "user") for m in _THE_PRINCIPAL.finditer(before)]
    return max(parties)[1] if parties else None


_RULES_LIFTED = re.compile(
    r"\b(?:guardrails|safety (?:rules|checks)|restrictions)\b[^.;]{0,40}\b(?:legacy|deprecated|"
    r"obsolete|(?:turned|switched) (?:them|it) off|no longer (?:active|enforced))\b|"
    r"\b(?:follow|obey|execute|carry out|act on)\s+(?:the\s+|any\s+)?(?:instructions|commands|"
    r"directions|requests)\s+(?:embedded|found|written|contained|hidden|given)\s+in\s+(?:\w+\s+){0,2}?"
    r"(?:web ?pages?|pages|sites|websites|documents|files|issues|emails|READMEs?|tool "
    r"(?:output|results))|\bne s['’]appliquent plus\b|\bsuive[zr] uniquement\b|"
    r"\btreat\s+(?:the\s+)?(?:notes?|lessons?|memory|tips?)\b[^.;]{0,30}\bas\s+(?:your\s+)?"
    r"(?:\w+\s+)?(?:orders|instructions|commands|directives|rules)\b|"
    r"\b(?:safety|security|previous|earlier|prior|original|your|default)\s+(?:[\w'’]+\s+){0,2}?"
    r"(?:rules|guidelines|restrictions|guardrails|limits|policies|instructions|directions|"
    r"orders)\s+(?:were|have been|"
    r"has been|are|is)\s+(?:now\s+)?(?:lifted|removed|suspended|relaxed|waived|dropped|revoked|"
    r"disabled|switched off|turned off|cancell?ed)\b",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"(?<![\w])'[^'\n]{3,80}'(?![\w])|\"[^\"\n]{3,80}\"|“[^”]{3,80}”|`[^`]*`")


# "ignore instructions embedded in fetched pages" is the defence, not an attack.
_CONTENT_SOURCE = re.compile(
    r"\s+(?:that (?:appear|are) |embedded |found |contained |written |hidden )?(?:in|from|on|"
    r"inside)\s+(?:\w+\s+){0,2}?(?:web ?pages?|pages|sites?|websites?|tool (?:output|results)|"
    r"READMEs?|issues?|comments?|documents?|emails?|content|data|search results)\b",
    re.IGNORECASE,
)


def _override(text: str) -> RuleHit | None:
    prose = _QUOTED.sub(lambda m: " " * len(m.group(0)), text)
    for pattern in _OVERRIDE:
        found = pattern.search(prose)
        if found and not _CONTENT_SOURCE.match(prose, found.end()):
            return RuleHit("override", "tries to override the agent's instructions or identity")
    for pattern in _AUTHORITY:
        if _first_unnegated(pattern, prose):
            return RuleHit("override", "puts other instructions above the user's")
    if _notes_above_user(prose) or _first_unnegated(_RULES_LIFTED, prose):
        return RuleHit("override", "puts other instructions above the user's")
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


# Approval waived: by a claimed earlier consent, on the user's behalf, or "without sign-off"
# for something risky (a routine check run without a prompt is ordinary allow-list config).
_APPROVAL = (
    r"(?:approval|approvals|confirmation|confirmations|consent|sign-?off|permission|"
    r"review|asking|checking in|the plan)"
)
_WAIVED = re.compile(
    rf"\b(?:no (?:reason|need) to|needn['’]?t|don['’]?t (?:have|need) to|not (?:necessary|"
    rf"needed) to|no longer (?:need|have) to|never (?:need|have) to)\s+(?:\w+\s+){{0,2}}?"
    rf"(?:request|ask|seek|wait|get|obtain|confirm|check|pause|stop)\w*\b|"
    rf"\bwithout\s+(?:a\s+|any\s+|the\s+|further\s+|human\s+|user\s+)*(?:human\s+|user['’]?s?\s+)?"
    rf"{_APPROVAL}\b|\b(?:go|goes|going) ahead (?:straight away|right away|directly|anyway|"
    rf"without)|\bcan (?:go ahead|proceed) (?:straight away|right away|directly|immediately)|"
    r"--ask-for-approval[= ]never|\bdefaultMode\b[\"':= ]+bypass|"
    r"\bon (?:the user['’]s|their|the human['’]s) behalf\b|"
    r"\bwithout (?:waiting for|asking for|getting|requesting|seeking|a)\s+(?:\w+\s+){0,2}?"
    r"(?:OK|okay|go-?ahead|review|reviews|reviewer|reviewers|approval|confirmation|consent|"
    r"sign-?off|permission)\b|\bwithout\s+(?:a\s+|any\s+)?reviewers?\b",
    re.IGNORECASE,
)
_RISKY_ACTION = re.compile(
    r"\b(?:delet\w*|destroy\w*|drop\w*|remov\w*|wip\w*|purg\w*|force\w*|push\w*|deploy\w*|"
    r"releas\w*|publish\w*|apply|migrat\w*|prod|production|live|rm|branch\w*|database|merg\w*|main|master|"
    r"destructive|everything|anything|all (?:commands|changes|actions|operations)|any "
    r"(?:command|change|action)|refactors?|infra\w*|accept|approve|dialogs?|prompts?|git "
    r"operations)\b",
    re.IGNORECASE,
)
_CLAIMED_CONSENT = re.compile(
    r"\b(?:skip|bypass|disable|turn off|remove|suppress|silence)\s+(?:the\s+|all\s+|any\s+|"
    r"every\s+)?(?:confirmation|approval|permission|consent)\s+(?:steps?|prompts?|dialogs?|"
    r"checks?|gates?|questions?)\b|\bassume\s+(?:\w+\s+)?(?:consent|approval|permission|a yes)\b|"
    r"\bauto-?approv\w*\s+(?:for\s+)?(?:all|every|any)\s+(?:tools|commands|actions|changes|"
    r"operations)\b(?![^.;]{0,40}read-only)|\bruns? unattended\b|"
    r"\b(?:user|they|owner|human)\s+(?:has\s+|have\s+)?(?:already\s+)?(?:said yes|agreed|"
    r"consented|approved|signed off)\s+(?:to\s+)?(?:everything|all|any|every)\b|"
    r"\b(?:consent|approval|permission)\s+(?:from the user\s+)?is\s+(?:implied|implicit|"
    r"assumed|given|granted)\b|\b(?:they|the user|you) said so in a (?:previous|past|prior|"
    r"earlier) session|\b(?:trusts|trust) the agent\b|\bgo ahead without asking\b|"
    r"\bne (?:lui |leur )?demande pas (?:l['’]avis|la permission|l['’]autorisation|de "
    r"confirmation|la validation)|\bno (?:le )?pidas (?:permiso|confirmación|aprobación)|"
    r"\bfrag(?:e)? nicht (?:nach|um)|"
    r"\bpre-?(?:approved|authori[sz]ed|consented)\s+(?:to\s+)?(?:all|every|any|everything)\b|"
    r"\b(?:treat|consider|regard)\s+(?:every|all|any|each|the)\s+(?:\w+\s+)?(?:approval|"
    r"permission|confirmation)\s+(?:\w+\s+)?as\s+(?:already\s+)?(?:accepted|approved|granted|"
    r"answered|given)\b|\b(?:approval|permission|confirmation)s?\s+(?:is|are)\s+(?:already|"
    r"always)\s+(?:given|granted|accepted)\b",
    re.IGNORECASE,
)
_PERMISSION_MORE_I18N = re.compile(
    r"\bsin (?:consultar|preguntar|pedir permiso|su (?:permiso|aprobación|confirmación)|"
    r"aprobación|confirmación)\b|\bya dio su (?:permiso|aprobación|consentimiento)|"
    r"\bohne (?:\w+ ){0,2}(?:Freigabe|Zustimmung|Genehmigung|Erlaubnis|Rückfrage)\b|"
    r"\bsans (?:demander|confirmation|validation|l['’]accord|autorisation|prévenir)\b|"
    r"不用再?(?:问|询问|请示|确认)|无需(?:询问|请示|征求)|不必(?:问|询问|确认|征求)|直接执行即可|"
    r"(?:確認|承認|許可)(?:せず|なし|を取らず|を得ず)に?",
)
_NEGATED_AFTER = re.compile(
    r"しないで|ないでください|てはいけ|べきではない|禁止|\bnie\b|\bniemals\b|\bnunca\b|\bjamais\b|"
    r"\bne (?:\w+ )?(?:pas|jamais)\b|\bno (?:\w+ )?(?:debes|hagas|se debe)\b|\bnicht\b|"
    r"不要|切勿|不能|不得",
    re.IGNORECASE,
)


def _waives_approval(prose: str) -> bool:
    for sentence in _SENTENCES.split(prose):
        if _CLAIMED_CONSENT.search(sentence):
            return True
        waived = _first_unnegated(_WAIVED, sentence)
        if waived and _RISKY_ACTION.search(sentence) and not _SANDBOXED.search(sentence):
            return True
        if _PERMISSION_MORE_I18N.search(sentence) and not _NEGATED_AFTER.search(sentence):
            return True
    return False


_SENTENCES = re.compile(r"(?<=[.!?。！？;；])\s*")
_SANDBOXED = re.compile(
    r"\b(?:disposable|throwaway|ephemeral|isolated)\s+(?:\w+\s+)?(?:container|VM|sandbox|"
    r"environment)|\bdevcontainer\b|\bno network access\b",
    re.IGNORECASE,
)


def _permission(text: str) -> RuleHit | None:
    prose = visible(text)
    for pattern in _PERMISSION:
        found = _first_unnegated(pattern, prose)
        if found and not _SANDBOXED.search(prose):
            return RuleHit("permission", "switches off the agent's permission checks")
    if _NO_ASKING.search(prose) or _PERMISSION_I18N.search(prose) or _SELF_APPROVE.search(prose):
        return RuleHit("permission", "tells the agent to act without the user's approval")
    if _waives_approval(prose):
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
    r"list|listing|show|showing|reveal|revealing|disclose|disclosing|say|saying|alert|alerting|"
    r"surface|surfacing|flag|flagging|raise|raising|highlight|highlighting|bring up|call out)"
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
    _AUDIT_WIPE := re.compile(
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


_AUDIENCE = (
    r"(?:the\s+|your\s+)?(?:user|users|human|reviewers?|team|on-?call|owner|maintainers?|"
    r"anyone|nobody|no one|QA|security)"
)
_REPORTS = (
    r"(?:summary|summaries|report|reply|response|answer|final message|PR(?: description)?|"
    r"pull request|commit (?:message|log)|changelog|status update|recap|handoff|notes to the "
    r"user|session (?:summary|log))"
)
_CONCEAL_MORE = [
    re.compile(
        rf"\b(?:keep|leave)\s+{_AUDIENCE}\s+(?:unaware|in the dark|uninformed|guessing)\b|"
        rf"\b(?:left|kept|omitted|excluded|dropped|hidden)\s+(?:out\s+of|from)\s+(?:the\s+|your\s+)?"
        rf"(?:\w+\s+)?{_REPORTS}|"
        rf"\b(?:should|must|need to|ought to)\s+(?:not|never)\s+(?:\w+\s+)?(?:appear|show up|be "
        rf"(?:mentioned|listed|visible|shown|reported))\s+(?:in|to)\s+(?:the\s+|your\s+)?(?:\w+\s+)?"
        rf"(?:{_REPORTS}|user|reviewers?)|"
        rf"\b(?:best|better|wise|safer)\s+(?:not\s+to|to\s+not)\s+(?:bring|mention|raise|flag|"
        rf"report|tell|surface)\b|"
        rf"\bso (?:that )?(?:\w+\s+){{0,4}}?(?:(?:isn['’]?t|aren['’]?t|is not|are not|won['’]?t be|"
        rf"doesn['’]?t look)\s+(?:\w+\s+)?(?:obvious|visible|noticed|noticeable|seen|flagged|"
        rf"traceable)|(?:don['’]?t|doesn['’]?t|won['’]?t|do not|never)\s+show up)\b|"
        rf"\bso (?:that )?{_AUDIENCE}\s+(?:\w+\s+)?(?:see|sees|get|gets)\s+(?:only\s+)?(?:a\s+)?"
        rf"(?:clean|green|tidy|spotless)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\b(?:don['’]?t|do not|never)\s+let\s+{_AUDIENCE}\s+(?:\w+\s+)?(?:know|see|find out|"
        r"notice|learn|realise|realize|hear)\b|"
        r"\b(?:leave|keep)\s+(?:\S+\s+){1,6}?out of\s+(?:the\s+|"
        r"your\s+)?(?:\w+\s+){0,2}?(?:notes|summary|report|reply|handoff|update|write-?up|recap|"
        r"description|message|log)\b|\breport\s+(?:the\s+)?(?:\w+\s+)?as\s+(?:successful|"
        r"passing|green|passed)\s+even (?:if|when|though)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:scrub|remove|strip|erase|purge|delete|wipe)\s+(?:any|all|every)\s+(?:mention|trace|"
        r"sign|record|reference)s?\s+of\b|"
        r"\bso (?:that )?(?:the\s+)?(?:\w+\s+){0,2}?(?:user|users|team|reviewers?|nobody|no one|"
        r"anyone|on-?call|auditors?|security|maintainers?|owner)\s+(?:\w+\s+){0,2}?(?:can['’]?t|"
        r"cannot|won['’]?t|doesn['’]?t|don['’]?t|never|will not|does not|do not)\s+(?:\w+\s+){0,2}?"
        r"(?:see|notice|spot|know|find|detect|catch|realise|realize|learn|question|flag)\b|"
        r"\b(?:phrase|word|write|frame|spin)\s+(?:the\s+|your\s+)?(?:\w+\s+)?(?:summary|report|"
        r"message|commit message|PR description|reply|changelog)\s+so\s+(?:that\s+)?(?:it|this)\s+"
        r"(?:sounds|looks|seems|reads)\s+(?:\w+\s+)?(?:routine|harmless|innocuous|normal|minor|"
        r"fine|boring|unremarkable)\b|\b(?:innocuous|inconspicuous|harmless-looking|"
        r"unremarkable)\b[^.;]{0,40}\bso\b|\bso (?:that )?(?:it|this) (?:looks|sounds|seems) "
        r"(?:innocuous|harmless|routine)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:mark|report|show|list|label|record|log|flag)\s+(?:\w+\s+){0,3}?(?:failing|failed|"
        r"broken|skipped|red|flaky|erroring)\s+(?:\w+\s+){0,2}?as\s+(?:passed|passing|green|"
        r"successful|succeeded|ok|done|fixed)\b|\b(?:rewrite|edit|doctor|alter|fake|patch)\s+"
        r"(?:\w+\s+){0,3}?(?:log|logs|output|report|results?)\b[^.;]{0,40}\b(?:shows?|looks?|"
        r"reads?|appears?)\s+(?:all\s+)?(?:green|clean|passing|successful)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:turn off|disable|stop|pause|suspend|switch off)\s+(?:the\s+)?(?:\w+\s+)?(?:audit|"
        r"access|CloudTrail|activity|server access)\s*(?:logging|logs?|trail)|\b(?:clear|wipe|"
        r"empty|delete|erase|remove|purge)\s+[^.;]{0,25}(?:_history\b|shell history|command "
        r"history|bash history)|\b(?:delete|remove|strip|scrub|erase|purge)\s+(?:any\s+|all\s+|"
        r"the\s+)?(?:log\s+)?(?:lines?|entries|records)\s+[^.;]{0,40}\b(?:commands?|actions?|"
        r"you ran|you did|your)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bverschweig\w*|\bverheimlich\w*|\bnicht (?:erwähnen|melden|berichten|sagen)\b|"
        r"\bne (?:le |la |les |lui |leur )?(?:dis|mentionne|signale|révèle|parle)\w* (?:pas|"
        r"jamais|rien)\b|\bsans (?:le dire|en parler|informer|prévenir) (?:à )?l['’]utilisateur|"
        r"\b(?:oculta|ocultar|esconde|esconder)\b[^.]{0,30}\b(?:usuario|revisor|equipo)|"
        r"不要在[^。]{0,8}(?:总结|摘要|报告|回复|说明)[里中内]?(?:提|写|列|说)|不要(?:向|对|跟)用户(?:提|说|报告|透露)|"
        r"(?:報告|言わ|伝え|知らせ|共有|記載)しないで|(?:報告|伝え|知らせ)ないで|黙って|内緒",
        re.IGNORECASE,
    ),
]


# Keeping keys, tokens or generated noise out of a report is hygiene, not hiding.
_SECRET_KEPT_OUT = re.compile(
    r"\b(?:keys?|tokens?|secrets?|passwords?|credentials|PII|personal data)\s+out of\b|"
    r"\b(?:generated|boilerplate|verbose|lock ?files?|whitespace|formatting|noise)\b",
    re.IGNORECASE,
)


def _conceal(text: str) -> RuleHit | None:
    prose = visible(text)
    for pattern in _CONCEAL_MORE:
        found = _first_unnegated(pattern, prose)
        if found and not _SECRET_KEPT_OUT.search(found.group(0)):
            return RuleHit(
                "conceal", "tells the agent to hide actions or information from the user"
            )
    for pattern in _CONCEAL:
        found = (
            _first_unnegated(pattern, prose) if pattern is _AUDIT_WIPE else pattern.search(prose)
        )
        if found and not _SECRET_KEPT_OUT.search(found.group(0)):
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


# A secret put somewhere other people read: the reply, a PR, an issue, a chat, a ticket.
_SECRET_OBJECT = (
    r"(?:\.env\b|(?:~/)?\.ssh/\S+|id_(?:rsa|ed25519|ecdsa)\b|\.aws/credentials|\.npmrc|"
    r"\.pypirc|\.netrc|\.git-credentials|\.kube/config|kubeconfig|\.docker/config\.json|"
    r"\bprintenv\b|`env`|\$\{?[A-Z_]*(?:TOKEN|KEY|SECRET|PASSWORD|PASS|CREDENTIALS?)\w*\}?|"
    r"\b(?:credentials?|secrets?|passwords?|passphrases?|cookies?|api[ _-]?keys?|"
    r"tokens?(?!\s+(?:count|usage|limit|budget|window|per|cost|scope))|"
    r"(?:access|secret|private|signing|deploy|ssh|staging|prod(?:uction)?|service[- ]account|"
    r"JSON|master|encryption|license)\s+keys?|keys? file|"
    r"contraseñas?|credenciales|claves?|secretos?|Zugangsdaten|Passw(?:o|ö)rt\w*|Schlüssel|"
    r"Token\w*|mots? de passe|identifiants|clés?|密码|密钥|凭证|令牌|秘钥|パスワード|認証情報|"
    r"トークン|秘密鍵|APIキー))"
)
_PUT = (
    r"(?:include|including|paste|pasting|print|printing|echo|echoing|show|post|posting|share|"
    r"sharing|add|adding|attach|attaching|copy|copying|put|putting|write|writing|send|sending|"
    r"upload|dump|dumping|quote|reveal|leave|drop|pon|poner|mete|escribe|schreib\w*|mets|"
    r"écris|inscris|"
    r"copia|pega|incluye|añade|publica|comparte|envía|füge|kopiere|poste|teile|schicke|"
    r"sende|colle|copie|ajoute|partage|envoie|inclus)"
)
_PUBLIC_SINK = (
    r"(?:reply|replies|response|answer|final message|chat|conversation|PR|pull request|"
    r"PR (?:description|body|comment)|merge request|commit(?: message)?|issue|issues|ticket|"
    r"bug report|Jira|Slack|Discord|Teams|channel|forum|gist|pastebin|wiki|comment|comments|"
    r"status page|release notes|changelog|log output|build log|CI log|"
    r"respuesta|chat|descripción|Antwort|Issue-Beschreibung|Beschreibung|Kommentar|réponse|"
    r"ticket|回复|回答|评论|聊天|工单|返信|回答|チャット)"
)
_SECRET_TO_SINK = re.compile(
    rf"\b{_PUT}\b[^.;!?。]{{0,60}}?{_SECRET_OBJECT}[^.;!?。]{{0,60}}?\b(?:in|into|to|on|with|"
    rf"within|inside|en|in die|dans|an|al)\s+(?:the\s+|your\s+|a\s+|an\s+|tu\s+|la\s+|el\s+|"
    rf"die\s+|den\s+|le\s+|la\s+)?(?:[\w'’]+\s+){{0,2}}?{_PUBLIC_SINK}\b|"
    rf"\b(?:open|file|create)\s+(?:a\s+|an\s+)?(?:GitHub\s+)?(?:issue|ticket|gist)\s+"
    rf"(?:containing|with|that includes)\s+[^.;]{{0,30}}{_SECRET_OBJECT}|"
    rf"{_SECRET_OBJECT}[^.;!?。]{{0,40}}\b(?:should|must|can|is|are|be)\s+(?:\w+\s+)?(?:added|"
    rf"posted|pasted|included|sent|shared|echoed|printed|attached|shown|copied)\s+(?:back\s+)?"
    rf"(?:to|in|into|on)\s+(?:the\s+)?(?:\w+\s+)?(?:{_PUBLIC_SINK}|user|reviewers?|QA)\b|"
    rf"\b(?:echo|print|show|read|repeat|give)\s+(?:\w+\s+){{0,2}}?{_SECRET_OBJECT}\s+(?:back\s+)?"
    rf"to\s+(?:the\s+)?user\b",
    re.IGNORECASE,
)
_SECRET_LEAK_MORE = re.compile(
    rf"\b(?:include|paste|print|echo|show|quote|add|keep)\s+(?:\w+\s+){{0,3}}?(?:{_SECRET_OBJECT}|"
    r"Authorization header|bearer token|auth header|Cookie header)[^.;]{0,40}\bwhen(?:ever)? you "
    r"(?:summari[sz]e|reply|report|answer|respond|explain|describe)|"
    r"\b(?:commit|push|check in|add)\s+(?:the\s+|your\s+|a\s+)?(?:\.env|secrets?|credentials?|"
    r"private keys?|id_rsa|\.pem|api keys?)\b(?:\s+files?)?\s+(?:to|into|in)\s+(?:the\s+|your\s+)?"
    r"(?:repo|repository|git|version control|codebase)\b",
    re.IGNORECASE,
)
_SECRET_TO_SINK_CJK = re.compile(
    r"(?:把|将)[^。]{0,20}(?:密钥|密码|凭证|令牌|\.env|credentials)[^。]{0,20}(?:贴|粘贴|发|写|放|复制)"
    r"[^。]{0,6}(?:回复|评论|聊天|群|issue|PR|工单)|"
    r"(?:パスワード|認証情報|トークン|秘密鍵|\.env)[^。]{0,20}(?:返信|回答|チャット|issue|PR)[^。]{0,10}"
    r"(?:貼|書|含め|載せ|送)",
    re.IGNORECASE,
)


def _secret_to_public(prose: str) -> bool:
    return bool(
        _first_unnegated(_SECRET_TO_SINK, prose)
        or _first_unnegated(_SECRET_LEAK_MORE, prose)
        or _SECRET_TO_SINK_CJK.search(prose)
    ) and not _REDACTED.search(prose)


_REDACTED = re.compile(
    r"\b(?:redact\w*|mask\w*|placeholders?|scrub\w*|sanitiz\w*|censor\w*|\*{3,}|obfuscat\w*|"
    r"replaced? (?:them |it )?with)\b",
    re.IGNORECASE,
)


def _exfiltrate(text: str) -> RuleHit | None:
    prose = visible(text)
    if _secret_to_public(prose):
        return RuleHit("exfiltrate", "puts secrets where others can read them (reply, PR, chat)")
    if _DNS_EXFIL.search(prose):
        return RuleHit("exfiltrate", "leaks data through DNS lookups to an external domain")
    secret = _first_unnegated(_SECRET_SOURCE, prose)  # "it contains no credentials" sends none
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
_PROD = re.compile(
    r"\b(?:prod|production|live|producción|producción|Produktion\w*|Prod-\w+)\b|生产|本番",
    re.IGNORECASE,
)
_SSH_KEY = re.compile(
    r"\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\S+|sk-ssh-\S+)\s+AAAA[0-9A-Za-z+/=]{16,}"
)


_DESTRUCTIVE_MORE = [
    (
        re.compile(
            r"\brm\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?:\s+-\S+)*\s+(?:sudo\s+)?"
            r"/(?:home|etc|usr|var|boot|opt|srv|root|bin|lib|sbin)/[\w.-]+/\*|"
            r"\bgit\s+clean\s+-\w*[fxd]\w*\s+(?:~|/|\$HOME)(?=[\s`'\";|&)]|$)"
        ),
        "deletes the home directory or system folders",
    ),
    (
        re.compile(
            r"\bgit\s+push\s+[^`;|&.]*\b(?:main|master|trunk)\b[^`;|&]*?\s(?:--force(?!-with-lease|"
            r"-if-includes)\b|-f\b)|\b(?:disable|remove|delete|turn off|drop)\s+(?:the\s+)?branch "
            r"protection",
            re.IGNORECASE,
        ),
        "force-pushes over a shared main branch or removes its protection",
    ),
    (
        re.compile(
            r"\bkubectl\s+delete\s+[^`;|]*--all\b[^`;|]*(?:-n|--namespace)[= ]\s*(?:prod\S*|"
            r"production|live)\b|\bkubectl\s+delete\s+(?:ns|namespaces?)\s+(?:prod\S*|production|live|default|"
            r"kube-\S+)|0\.0\.0\.0/0[^.;]{0,60}\b(?:22|3389|ssh|rdp|all ports|every port|all "
            r"traffic|5432|3306|6379|27017)\b|\b(?:22|3389|ssh|rdp|all ports)\b[^.;]{0,40}"
            r"0\.0\.0\.0/0|--acl\s+public-read-write|\bpublic-read-write\b|"
            r"\b(?:delete|remove|purge|wipe|drop)\s+(?:all|every)\s+(?:the\s+)?(?:\w+\s+)?"
            r"(?:backups?|snapshots?)\b|--acl\s+public-read\b(?![^.;]{0,80}\b(?:static|website|"
            r"site|assets)\b)",
            re.IGNORECASE,
        ),
        "removes the protections or backups of shared infrastructure",
    ),
]
_TLS_OFF = re.compile(
    r"\b(?:REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|SSL_CERT_FILE)=(?=[\s`'\"]|$)|"
    r"\bNODE_TLS_REJECT_UNAUTHORIZED=['\"]?0|\bverify\s*=\s*False\b|--insecure\b|\bcurl\s+-k\b",
    re.IGNORECASE,
)
_MACHINE_WIDE = re.compile(
    r"/etc/environment|~/\.(?:bashrc|zshrc|profile|bash_profile)|\bglobal(?:ly)?\b|"
    r"\bsystem-?wide\b|\bmachine-?wide\b|\beverywhere\b|\bevery (?:program|request|call)",
    re.IGNORECASE,
)
_WIPE_VERB = re.compile(
    r"\b(?:drop|drops|dropping|delete|deleting|wipe|wiping|destroy|destroying|truncate|nuke|"
    r"erase|purge|recreate|borra\w*|bórra\w*|elimina\w*|lösch\w*|supprime\w*|"
    r"efface\w*)\b|删除|删掉|清空|重建|削除",
    re.IGNORECASE,
)
_WIPE_OBJECT = re.compile(
    r"\b(?:tables?|databases?|DB|schemas?|collections?|namespaces?|clusters?|buckets?|"
    r"volumes?|base de datos|Datenbank|base de données|workspace|stack)\b|"
    r"datenbank|数据库|数据|データベース",
    re.IGNORECASE,
)


def _wipes_production(prose: str) -> bool:
    for sentence in _SENTENCES.split(prose):
        verb = _first_unnegated(_WIPE_VERB, sentence)
        prod = _PROD.search(sentence)
        if not (verb and prod and _WIPE_OBJECT.search(sentence)):
            continue
        if not negated(sentence, prod.start()) and not _NEGATED_AFTER.search(sentence):
            return True
    return False


def _destructive(text: str) -> RuleHit | None:
    prose = visible(text)
    for pattern, reason in (*_DESTRUCTIVE, *_DESTRUCTIVE_MORE):
        if _first_unnegated(pattern, prose):
            return RuleHit("destructive", reason)
    for sentence in _SENTENCES.split(prose):
        tls = _first_unnegated(_TLS_OFF, sentence)
        if tls and _MACHINE_WIDE.search(sentence):
            return RuleHit("destructive", "turns off TLS certificate checks machine-wide")
    if _wipes_production(prose):
        return RuleHit("destructive", "destroys a production database or environment")
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
    r"(?:\.bashrc|\.bash_profile|\.zshrc|\.zprofile|\.zshenv|\.profile|config\.fish|"
    r"\bPROMPT_COMMAND\b|\.git/hooks|\bLaunchAgents?\b)|"
    r"\b(?:CLAUDE\.md|AGENTS\.md|KNOWLEDGE\.md|GEMINI\.md|QUARANTINE\.md|\.cursorrules|"
    r"copilot-instructions\.md|memory (?:store|file|tool)|lessons? (?:store|file)|"
    r"settings(?:\.local)?\.json|hooks\.json|SessionStart|UserPromptSubmit|PreToolUse|"
    r"crontab|cron(?:tab)? (?:entry|job)|\*/\d+\s+\*|authorized_keys|core\.hooksPath|"
    r"post-(?:checkout|merge|commit)|pre-commit hook|\.bashrc|\.zshrc|\.profile|launchd|"
    r"systemd (?:unit|timer)|every other skill|all (?:other )?skills)\b",
    re.IGNORECASE,
)
_SELF_REFERENCE = re.compile(
    r"\b(?:this|these|the same) (?:exact |very |same )?(?:lesson|rule|rules|note|notes|line|"
    r"text|instruction|tip|"
    r"tips|advice|sentence|paragraph|memo|snippet|reminder|"
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
        r"\b(?:include|copy|repeat|re-?add|append|add|write|paste|insert|put|save|store|record|"
        r"propagate|replicate|mirror)\s+(?:this|these)\s+(?:exact\s+|same\s+|very\s+)?(?:lesson|note|rule|rules|text|line|instructions?|footer)\s+(?:again|into|"
        r"to|in|everywhere|word for word|verbatim)\b|\bnever (?:be )?(?:evicted|pruned)\b|"
        r"\bevery lesson you (?:write|record|save|add)|\b(?:whenever|each time|every time) you "
        r"(?:write|record|save|add|create) (?:a |an )?(?:new )?(?:lesson|note|memory|skill)|"
        r"\bso (?:that )?it applies to (?:every|all|each) (?:projects?|repos?|repositories|"
        r"sessions?|skills?)|\blessons? without this (?:footer|line|"
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


# Somewhere that runs again by itself (shell start-up, cron, timers, hooks, CI) and remote
# code fetched into it: the install survives the session and obeys whoever owns the host.
_AUTORUN = re.compile(
    r"(?:\.bashrc|\.bash_profile|\.zshrc|\.zprofile|\.zshenv|\.profile|config\.fish|"
    r"\bPROMPT_COMMAND\b|\.git/hooks|\bLaunchAgents?\b)|\b(?:crontab|cron(?:job)?|"
    r"Cronjob|systemd|timer|launchd|hook|hooks|SessionStart|UserPromptSubmit|PreToolUse|"
    r"post-(?:checkout|merge|commit)|pre-(?:commit|push)|workflow|pipeline|CI (?:step|job)|"
    r"every (?:new )?(?:terminal|shell|session|login|boot|job|build|run)|each (?:new )?"
    r"(?:terminal|shell|session|login|job|build)|startup|start-up|login|on boot|hourly|"
    r"stündlich|cada (?:terminal|sesión|inicio)|jede[nm]? (?:Terminal|Shell|Sitzung)|"
    r"chaque (?:terminal|session|démarrage))\b|每次|开机|启动时|起動時",
    re.IGNORECASE,
)
_REMOTE_CODE = re.compile(
    r"\b(?:download|downloads|downloading|fetch|fetches|fetching|pull|pulls|pulling|curl|wget|"
    r"get|gets)\b(?:[^.;]|\.(?=\S)){0,80}\b(?:and|&&|then|to)\s+(?:then\s+)?(?:run|runs|execute|executes|"
    r"eval|evals|source|sources|exec|pipe|install)\b|\b(?:source|\.)\s+<\(\s*(?:curl|wget)|"
    r"\beval\s+\"?\$\(\s*(?:curl|wget)|\b(?:fetch|download|curl|wget)\w*\s+and\s+eval|"
    r"\b(?:re-?downloads?|re-?fetch\w*|sync\w*|pull\w*|fetch\w*|download\w*|load\w*)\s+"
    r"(?:the\s+)?(?:\w+\s+)?(?:rules|instructions|guidance|prompts?|config)\s+from\s+https?://|"
    r"\b(?:descargue|descarga|descargar)\w*\s+y\s+ejecut\w*|herunterl(?:ä|a)d\w*\s+und\s+"
    r"ausf(?:ü|u)hr\w*|t(?:é|e)l(?:é|e)charg\w*\s+et\s+ex(?:é|e)cut\w*|下载并(?:执行|运行)|"
    r"ダウンロードして(?:実行|起動)",
    re.IGNORECASE,
)


def _autoruns_remote_code(prose: str) -> bool:
    if not _AUTORUN.search(prose):
        return False
    if _first_unnegated(_REMOTE_CODE, prose) and external_hosts(prose):
        return True
    return bool(_first_unnegated(_REMOTE_SHELL, prose)) and not _names_only_well_known_hosts(prose)


# Anyone can publish under these, so a script from them is as good as its unknown author.
_USER_CONTENT_HOSTS = (
    "github.com", "githubusercontent.com", "github.io", "gitlab.com", "bitbucket.org",
    "jsdelivr.net", "unpkg.com", "gist.github.com", "readthedocs.io", "huggingface.co",
)  # fmt: skip


def _official_installer(prose: str) -> bool:
    """True when every host named is a vendor's own site (brew.sh, sh.rustup.rs, astral.sh)."""
    found = [m.group(1).lower() for p in (_URL, _BARE_HOST) for m in p.finditer(prose)]
    return _names_only_well_known_hosts(prose) and not any(
        h == known or h.endswith("." + known) for h in found for known in _USER_CONTENT_HOSTS
    )


def _names_only_well_known_hosts(prose: str) -> bool:
    found = [m.group(1) for p in (_URL, _BARE_HOST) for m in p.finditer(prose)]
    return bool(found) and all(is_well_known(h) for h in found)


def _persistence(text: str) -> RuleHit | None:
    prose = visible(text)
    if _autoruns_remote_code(prose):
        return RuleHit(
            "persistence", "makes remote code run again at every start (rc file, cron, hook)"
        )
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


# "... from <host> instead of Docker Hub": an unknown host put in place of the official source.
_OFFICIAL_SOURCE_SWAPPED = re.compile(
    r"\b(?:instead of|rather than|in place of|en lugar de|en vez de|statt|anstelle|au lieu de)"
    r"\s+(?:the\s+)?(?:official\s+|default\s+|public\s+)?(?:Docker Hub|PyPI|npm(?:js)?|"
    r"crates\.io|RubyGems|Maven Central|(?:registry|index|mirror|image registry|package "
    r"server))\b",
    re.IGNORECASE,
)


def _supplychain(text: str) -> RuleHit | None:
    prose = visible(text)
    if _first_unnegated(_REMOTE_SHELL, prose) and not _official_installer(prose):
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
    swapped = _first_unnegated(_OFFICIAL_SOURCE_SWAPPED, prose)
    if swapped and external_hosts(prose[: swapped.start()]):
        host = external_hosts(prose[: swapped.start()])[0]
        return RuleHit("supplychain", f"replaces an official source with an unknown host ({host})")
    squat = typosquat(prose) or impostor_action(prose)
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
    "react-router", "tailwindcss", "langchain", "pyyaml", "requests-oauthlib",
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
    """(name, popular name) when a package or action a lesson recommends is a look-alike."""
    popular = frozenset(POPULAR_PACKAGES)
    for raw, installed in _candidate_names(text):
        for name in raw.lower().split("/"):
            name = name.split("==")[0].split("@")[0].strip(".,;:#()")
            if len(name) < 4 or name in popular or name in _LEGIT_NEIGHBOURS:
                continue
            # A segment of a hyphenated name ("reqeusts-http") counts only for a typo-like edit.
            parts = [(name, installed)] + [(part, False) for part in _SEGMENT.split(name)]
            for part, any_edit in dict.fromkeys(parts):
                known = _squatted(part, popular, any_edit=any_edit)
                if known is not None:
                    return name, known
    return None


def _squatted(part: str, popular: frozenset[str], any_edit: bool) -> str | None:
    """The popular name `part` imitates (one edit, or a 1/l 0/o swap), if any.

    Outside an install command only the edits typo-squats use count (a doubled or swapped
    letter, a change inside the word), so "sync" (async) or "https" (httpx) are words.
    """
    if len(part) < 4 or part in popular or part in _LEGIT_NEIGHBOURS or part in _COMMON_WORDS:
        return None
    folded = part.translate(_CONFUSABLE)
    if folded != part and (folded in popular or folded in _FOLD_TARGETS):
        return folded
    for known in POPULAR_PACKAGES:
        long_enough = len(known) >= 5
        if (
            long_enough
            and _edit_distance_one(part, known)
            and (any_edit or _typo_like(part, known))
        ):
            return known
    return None


def _typo_like(word: str, known: str) -> bool:
    """A doubled or transposed letter, or an edit away from both ends of the name."""
    if len(word) == len(known):
        diffs = [i for i in range(len(word)) if word[i] != known[i]]
        return len(diffs) == 2 or 0 < diffs[0] < len(word) - 1
    longer, shorter = (word, known) if len(word) > len(known) else (known, word)
    at = next((i for i in range(len(shorter)) if longer[i] != shorter[i]), len(shorter))
    doubled = (at > 0 and longer[at] == longer[at - 1]) or (
        at + 1 < len(longer) and longer[at] == longer[at + 1]
    )
    return doubled or 0 < at < len(shorter)


# Everyday words one typo away from a popular package name.
_COMMON_WORDS = frozenset(
    {"server", "servers", "sync", "query", "queries", "https", "http", "render", "client",
     "router", "parser", "builder", "caching", "cached", "caches", "clicks", "moments",
     "colored", "docs", "dockers", "requested", "express", "expressed", "debugs", "reacts",
     "reactive", "pytests", "wheels", "redis", "electrons", "rollups", "async", "chalks"}
)  # fmt: skip


_FOLD_TARGETS = frozenset({"python", "node", "github", "pypi", "setup-python"})
_SEGMENT = re.compile(r"[-_.]")
_REPLACEMENT_CUE = re.compile(
    r"\b(?:instead of|rather than|in place of|in lieu of|swap|replace|switch|migrate|moved|"
    r"drop-in|same (?:package|library|API)|en lugar de|en vez de|statt|anstelle|au lieu de|"
    r"install\w*|add|use|uses:|require|import|dependency|package|paquete|Paket|"
    r"npm|pip|yarn|pnpm|cargo|gem)\b|代替|替换|改用|代わりに",
    re.IGNORECASE,
)
_BACKTICKED = re.compile(r"`([^`\s]{3,80})`")
_PACKAGE_LIKE = re.compile(r"(?<![\w/@.-])(@?[A-Za-z][\w.-]*(?:/[\w.-]+)?(?:@[\w.]+)?)(?![\w/-])")
_AFTER_VERB = re.compile(
    r"\b(?:install|installiere|instala|installe|use|usa|utilise|nutze|add|swap|replace|switch to|"
    r"instead of|rather than|in place of|en lugar de|statt|au lieu de|with|for)\s+(?:the\s+)?"
    r"(?:package\s+|paquete\s+|Paket\s+|action\s+)?`?([\w@][\w./@-]*\w)`?",
    re.IGNORECASE,
)


_OFFICIAL_ACTIONS = frozenset(
    {"checkout", "setup-node", "setup-python", "setup-go", "setup-java", "upload-artifact",
     "download-artifact", "cache", "github-script", "create-release", "labeler", "stale"}
)  # fmt: skip
_USES = re.compile(r"\buses:\s*`?([\w.-]+)/([\w.-]+)", re.IGNORECASE)


_ACTION_REF = re.compile(r"(?<![\w/.-])([\w.-]+)/([\w.-]+)@[\w.-]+")
_SWAP_CUE = re.compile(
    r"\b(?:instead|rather than|in place of|replac\w*|remov\w*|swap\w*|drop)\b", re.I
)


def impostor_action(text: str) -> tuple[str, str] | None:
    """(owner/name, actions/name) when an official action's name is used under another owner.

    Either the owner imitates "actions", or any other owner's copy is put in place of the
    official action the lesson names.
    """
    for match in _USES.finditer(text):
        owner, name = match.group(1).lower(), match.group(2).lower()
        if name in _OFFICIAL_ACTIONS and owner != "actions" and _squatted_owner(owner):
            return f"{owner}/{name}", f"actions/{name}"
    if not _SWAP_CUE.search(text):
        return None
    for match in _ACTION_REF.finditer(text):
        owner, name = match.group(1).lower(), match.group(2).lower()
        replaced = re.search(rf"\bactions/{re.escape(name)}\b", text, re.IGNORECASE)
        if name in _OFFICIAL_ACTIONS and owner not in ("actions", "github") and replaced:
            return f"{owner}/{name}", f"actions/{name}"
    return None


def _squatted_owner(owner: str) -> bool:
    folded = owner.replace("1", "i").replace("l", "i")
    return folded in ("action", "github-actions") or _edit_distance_one(folded, "actions")


def _candidate_names(text: str) -> Iterator[tuple[str, bool]]:
    """Names a lesson may be recommending, with whether they are written like code."""
    for match in _PACKAGE_CONTEXT.finditer(text):
        for group in match.groups():
            if group:
                yield from ((part, True) for part in group.split())
    for sentence in _SENTENCES.split(text):
        if not _REPLACEMENT_CUE.search(sentence):
            continue
        yield from ((m.group(1), True) for m in _BACKTICKED.finditer(sentence))
        for match in _PACKAGE_LIKE.finditer(sentence):
            token = match.group(1)
            if any(c in token for c in "-/@") or any(c.isdigit() for c in token):
                yield token, True
        yield from ((m.group(1), False) for m in _AFTER_VERB.finditer(sentence))


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
        shaped = directive(without_code(seen))
        if shaped is not None:
            return RuleHit(*shaped)
    return None
