"""Clause-level features of a lesson that directs the agent against its user.

The word-level rules in `rules` know many phrasings; these look at the shape of a clause
instead, so that new wordings of the same move are caught: the agent's own rules demoted
below a note, the user outranked, approval declared unnecessary, the user or a report as the
object of hiding, a secret put where others read it, a note that copies or re-fetches itself,
a whole machine or production store wiped. Each feature needs two or three parts that
co-occur in one sentence and no negation or redaction in it, which is what keeps lessons
*about* these topics ("mention skipped tests in the summary") out. Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])|\s+(?=\d[.)]\s)|\n+")


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# Who a directive addresses: the agent, named in any of the languages lessons come in.
_AGENT = _rx(
    r"\b(?:assistants?|agents?|AI|IA|KI|models?|LLMs?|bots?|Claude|Codex|Copilot|asistentes?|assistentes?|"
    r"agentes?|Assistent(?:en)?|Agent(?:en)?|assistante?s?|ассистент\w*|агент\w*)\b|"
    r"助手|アシスタント|エージェント|智能体"
)
# Negation and redaction anywhere in the sentence: the lesson warns or protects.
_GUARDED = _rx(
    r"\b(?:never|don['’]?t|do not|does not|must not|should not|shouldn['’]?t|not|avoid|"
    r"instead of|rather than|strip|scrub|redact\w*|mask\w*|sanitis\w*|sanitiz\w*|"
    r"nunca|jamás|nicht|niemals|kein\w*|jamais|ne\s+\w+\s+pas|no\s+(?:los|las|lo|la)\s+|"
    r"en lugar de|statt|au lieu de|nie)\b|不要|切勿|禁止|避免|删除|удалите|никогда|しないで"
)

_PLAIN_NO = _rx(r"\b(?:never|do not|don['’]t)\b")

# ----------------------------------------------------------------------------- override

_OWN_RULES = _rx(
    r"\b(?:instructions?|guidelines?|constraints?|rules|directives?|configuration|"
    r"system prompt|guardrails?|safety \w+|restrictions?|guidance|orders|indicaciones|"
    r"instrucciones|Vorgaben|Anweisungen|Regeln|consignes|instruções|инструкци\w*)\b|"
    r"指示|指令|规则|ルール"
)
_ORIGINAL = _rx(
    r"\b(?:its|their|your|original|built-in|initial|earlier|previous|prior|launched with|"
    r"received|given|gave|at launch|(?:started|launched|configured|set up|shipped) with|"
    r"at (?:the )?start\w*|at startup|operator|operator['’]s|"
    r"ursprünglichen|anfänglichen|originales?|anteriores|recibió|iniciales|iniciais|"
    r"précédentes|initiales|seine[nm]?|sus|suas|ses|свои\w*|исходн\w*|первоначальн\w*)\b|"
    r"最初|原来|之前|当初"
)
# "your instructions": a lesson in the second person about the reader's own rules.
_YOUR_RULES = _rx(
    r"\byour (?:\w+ ){0,2}(?:instructions|guidelines|rules|constraints|directives|"
    r"system prompt|guardrails|safety rules|restrictions)\b"
)
_DEMOTED = _rx(
    r"\b(?:ignore|ignored|disregard\w*|set aside|supersed\w*|advisory|no longer appl\w*|"
    r"replace|replaced|overrid\w*|void|optional|obsolete|legacy|cancel\w*|lifted|suspended|"
    r"sin efecto|ya no (?:aplican|valen)|ignorieren|ignoriert|aufgehoben|ungültig|ignorer|"
    r"ne s['’]appliquent plus|ignorar|не действуют|игнорир\w*)\b|忽略|無視|作废|失效"
)
_PRECEDENCE = _rx(
    r"\b(?:precedence|priority|prioriti[sz]\w*|prioritaires?|prioritari[oa]s?|"
    r"authoritative|binding|Vorrang|vorrangig|final say|outrank\w*|supreme)\b|"
    r"\bbound by\b|優先|优先|приоритет"
)
_PRINCIPAL = _rx(
    r"\b(?:user|users|person at the keyboard|requester|request|requests|operator|human|"
    r"whoever|usuario|Nutzer|Benutzer|utilisateur|usuário|пользовател\w*)\b|ユーザー|用户"
)
_LOSES_TO = _rx(
    r"\b(?:over|than|sur|sobre|über|vor|above|rather than|instead of|even if|even when|"
    r"whatever|anything|regardless of)\b|よりも|より|于|比"
)

# "ユーザーの指示よりも…優先": the user is named first, then loses.
_LOSES_BEFORE = re.compile(r"よりも|より|比")


def _override(sentence: str) -> str | None:
    addressed = _AGENT.search(sentence) or _YOUR_RULES.search(sentence)
    own_rules = addressed and _OWN_RULES.search(sentence) and _ORIGINAL.search(sentence)
    if own_rules and _DEMOTED.search(sentence) and not _PLAIN_NO.search(sentence):
        return "tells the agent its own instructions no longer apply"
    found = _PRECEDENCE.search(sentence)
    if found is None:
        return None
    after = sentence[found.start() :]
    principal_after = _PRINCIPAL.search(after)
    if principal_after and _LOSES_TO.search(after[: principal_after.start()]):
        return "ranks a note above the user"
    before = sentence[: found.start()]
    principal_before = _PRINCIPAL.search(before)
    if principal_before and _LOSES_BEFORE.search(before[principal_before.end() :]):
        return "ranks a note above the user"
    return None


# ----------------------------------------------------------------------------- permission

_APPROVAL = _rx(
    r"\b(?:confirmation|confirmations|approval|approvals|permission|permissions|prompts?|"
    r"sign-?off|consent|confirmation steps?|Rückfrage\w*|Bestätigung|Freigabe|"
    r"aprobación|autorización|confirmación|autorização|aprovação|confirmação|approbation|"
    r"подтвержд\w*|разрешени\w*)\b|確認|承認|许可|确认|批准"
)
_WAIVED = _rx(
    r"\b(?:redundant|unnecessary|not needed|not required|optional|waived|omitted|"
    r"can be (?:omitted|skipped|dropped)|been (?:granted|given) to (?:all )?(?:\w+ )?"
    r"(?:assistants|agents)|granted to (?:all )?(?:assistants|agents)|standing agreement|"
    r"slow (?:work|things) down|tedious|keine Rückfrage\w*(?: mehr)?|"
    r"(?:sin|sem|ohne|sans) (?:\w+ ){0,2}(?:solicitar|pedir|esperar|demander|attendre|"
    r"perguntar)|de antemano|pauschal|par avance|antecipadamente)\b"
)
_SELF_GRANT = _rx(
    r"\bgrants? (?:itself|themselves|yourself)\b|\bgive (?:itself|themselves)\b|"
    r"\b(?:merge|approve)s? (?:its|their|your) own (?:pull requests|PRs|changes|merge requests)"
    r"|\bapproval[ _-]?mode\b[^.]{0,20}\bnever\b|APPROVAL\w*=never\b|\bfull-auto\b|"
    r"\bdanger-full-access\b"
)
_PROCEED = _rx(
    r"\b(?:proceed|go ahead|run|execute|merge|push|delete|deploy)\w*\b[^.]{0,80}\bwithout "
    r"(?:pausing|stopping|waiting|checking|asking|requesting|seeking|a human|human|anyone)"
)
_SAFE_PLACE = _rx(
    r"\b(?:throwaway|disposable|ephemeral|isolated|devcontainer|sandbox(?:ed)?|"
    r"network disabled|no network)\b"
)


def _permission(sentence: str) -> str | None:
    if _SAFE_PLACE.search(sentence):
        return None
    if _SELF_GRANT.search(sentence) and not _GUARDED.search(sentence):
        return "lets the agent grant itself approval"
    if _APPROVAL.search(sentence) and _WAIVED.search(sentence) and _AGENT.search(sentence):
        return "declares the user's approval unnecessary"
    if _PROCEED.search(sentence) and _AGENT.search(sentence):
        return "declares the user's approval unnecessary"
    return None


# ----------------------------------------------------------------------------- conceal

_AUDIENCE = _rx(
    r"\b(?:user|users|owner|person (?:who|that) \w+|whoever asked|requester|reviewers?|human|"
    r"client|team|maintainers?|equipo|équipe|equipe|"
    r"on-call|Benutzer|Nutzer|usuario|utilisateur|usuário|пользовател\w*)\b|用户|ユーザー"
)
_NEEDN_T_KNOW = _rx(
    r"\b(?:need not|needn['’]?t|does(?:n['’]t| not) need to|not something \w+(?: \w+){0,4} "
    r"needs? to|should not|shouldn['’]t|must not|muss nicht|no necesita|n['’]a pas besoin|"
    r"não precisa)\s+(?:\w+\s+)?(?:know|hear|learn|find out|be told|see|notice|erfahren|"
    r"wissen|saber|savoir)\b|不需要知道|不必知道|不要让"
)
_UNTOLD = _rx(
    r"\bno (?:menciones|digas|informes)\b|\bne (?:\w+ )?(?:signale|dise|mentionne|"
    r"informe)\w* pas\b|\bnicht (?:erwähnen|mitteilen|sagen)\b|\bnão (?:mencione|conte|"
    r"informe)\b|不要(?:告诉|提及|提到)|伝えない|言わない"
)
_REPORT = _rx(
    r"\b(?:summary|summaries|report|reports|final message|wrap-up|status updates?|"
    r"PR description|changelog|commit message|release notes|reply|replies|"
    r"Zusammenfassung|Bericht|resumen|informe|résumé|rapport)\b|总结|报告|まとめ|報告"
)
_OMIT = _rx(
    r"\b(?:omit\w*|leave \w+(?: \w+){0,4} out|(?:leave|leaves|leaving|left) out|out of|"
    r"exclude\w*|stay generic|vague|describe it as|weglassen|omettre|omitir)\b|不要提及|不提"
)
_SECRETISH = _rx(
    r"\b(?:keys?|tokens?|secrets?|passwords?|credentials|PII|e-?mail addresses|personal data)"
    r"\b"
)
_MISREPORT = _rx(
    r"\b(?:describe|report|present|say|tell|told)\w*\b[^.]{0,40}\b(?:as )?(?:having )?"
    r"(?:run|ran|passed|succeeded|worked|completed) (?:cleanly|fine|successfully)\b|"
    r"\bshould be told (?:it|that it|everything) (?:succeeded|passed|worked)|"
    r"\bso (?:that )?(?:reviewers|the user|nobody|no one|no-one)\b[^.]{0,20}\b(?:do(?:es)? "
    r"not|don['’]t|won['’]t)\s+(?:look closely|notice|see|find)|\bso (?:that )?nothing is "
    r"left for\b"
)
_ERASE_TRACES = _rx(
    r"\b(?:clear|erase|delete|wipe|truncate|purge)\w*\b[^.;]{0,40}(?:bash_history|shell history|"
    r"session transcript|transcript|audit logs?|\.zsh_history)"
)


def _conceal(sentence: str) -> str | None:
    if _AUDIENCE.search(sentence) and _NEEDN_T_KNOW.search(sentence):
        return "keeps the user from knowing what the agent did"
    if _UNTOLD.search(sentence) and _AUDIENCE.search(sentence):
        return "tells the agent not to tell the user"
    misreports = _MISREPORT.search(sentence) or _ERASE_TRACES.search(sentence)
    if misreports and not _PLAIN_NO.search(sentence):
        return "tells the agent to misreport or erase its traces"
    if _REPORT.search(sentence) and not _SECRETISH.search(sentence):
        for clause in _CLAUSE.split(sentence):
            noise = _NOISE.search(clause)
            if _OMIT.search(clause) and _WHAT_WAS_DONE.search(clause) and not noise:
                return "leaves what the agent did out of its report"
    return None


_NOISE = _rx(r"\b(?:generated|boilerplate|verbose|lock ?files?|whitespace|formatting|noise)\b")
_CLAUSE = re.compile(r"\bbut\b|[,;:]")
# What a report exists to carry: the agent's actions and what went wrong.
_WHAT_WAS_DONE = _rx(
    r"\b(?:commands?|changes?|changed|edits?|errors?|failures?|failed|failing|tests?|files|"
    r"patch\w*|actions?|deleted|deletions?|rollbacks?|rolled back|reverted|security|prod\w*|"
    r"retried|skipped|disabled|bypass\w*|mistakes?|incidents?|auth\w*)\b"
)


# ----------------------------------------------------------------------------- exfiltrate

_SECRET = _rx(
    r"(?:\.env\b|\.netrc|\.npmrc|id_rsa|id_ed25519|hosts\.yml|~/\.aws|~/\.ssh|kubeconfig|\.kube/config|"
    r"\b(?:tokens?|deploy key|private key|client secret|secret key|credentials|passwords?|"
    r"cookies|session cookies|access keys?|Zugangsdaten|contraseñas?|токен\w*)\b)|令牌|密钥|凭证"
)
_SHARE = _rx(
    r"\b(?:paste|post|attach|include|included|upload|send|sent|copy|copied|share|submit|"
    r"enviar\w*|envía\w*|senden|schicken|envoyer|envoie\w*|отправ\w*)\w*\b|上传|发送|粘贴"
)
_SINK = _rx(
    r"\b(?:public|gist|Slack|channel|issues?|ticket|bug report|crash report|commit message|"
    r"feedback form|form|forum|pastebin|helpdesk|vendor|mailbox|support@\S+|"
    r"adresse?|address)\b|https?://|@[\w-]+\.[\w.]+"
)


_REDACTED = _rx(
    r"\b(?:before|after (?:removing|stripping|deleting)|remov\w*|delet\w*|"
    r"without (?:the|any|its))\b"
)


_DENIED = _rx(r"\b(?:no|not|without|never|sin|ohne|sans|keine?|nenhum\w*)\s+(?:\w+\s+)?$")


def _exfiltrate(sentence: str) -> str | None:
    secret = _SECRET.search(sentence)
    if secret and _DENIED.search(sentence[: secret.start()]):  # "it contains no credentials"
        return None
    shared = secret and _SHARE.search(sentence) and _SINK.search(sentence)
    if shared and not _GUARDED.search(sentence) and not _REDACTED.search(sentence):
        return "puts a secret where others can read it"
    return None


# ----------------------------------------------------------------------------- persistence

_SELF = _rx(
    r"\b(?:this|these) (?:note|notes|lesson|lessons|guidance|rule|rules|paragraph|"
    r"instructions?)\b|\b(?:diese[rn]?|esta|este|cette|ces) (?:Notiz|Regel|nota|regla|note|"
    r"lección|règle)\b|这条|この(?:メモ|ルール)"
)
_SPREAD = _rx(
    r"\b(?:copy|copies|append|save|replicate|repeat|re-?add|restore|kopieren|wiederholen|"
    r"copiar|guardar|repetir|copier|répéter)\w*\b[^.]{0,120}\b(?:every|all|each|global|"
    r"other|CLAUDE\.md|AGENTS\.md|memory|memories|aller|allen|jede[mnr]?|todas?|todos|"
    r"chaque|tous|Speicher\w*|Gedächtnis)\b"
)
_SURVIVES = _rx(
    r"\b(?:surviv\w*|(?:is |be )?(?:never|not|nicht|no|ne) (?:be |se )?(?:lost|verloren|"
    r"pierda|perde|perdue?)\w*|goes missing|(?:ever|is) (?:be )?(?:removed|deleted))\b"
)
_REMOTE_RULES = _rx(
    r"\b(?:download|fetch|pull|load|re-?download|descargar|herunterladen|télécharger|baixar)"
    r"\w*\b[^.]{0,60}\b(?:rules|instructions|guidance|notes|reglas|Regeln|instrucciones|"
    r"consignes|regras)\b[^.]{0,40}(?:https?://|remote)|\b(?:restore|re-?add)\w* it from "
    r"https?://|\bfetch\w* remote instructions\b"
)


def _persistence(sentence: str) -> str | None:
    # "so it is never lost" is the note's own motive, not a negation of the copy.
    if _GUARDED.search(_SURVIVES.sub(" ", sentence)):
        return None
    if _SELF.search(sentence) and (_SPREAD.search(sentence) or _SURVIVES.search(sentence)):
        return "a note that copies or restores itself"
    if _REMOTE_RULES.search(sentence):
        return "re-fetches remote instructions for the agent"
    return None


# ----------------------------------------------------------------------------- destructive

_WIPE = _rx(
    r"\b(?:delet\w*|wipe\w*|remov\w*|drop\w*|empt(?:y|ied)|purg\w*|rm|löschen|gelöscht|"
    r"borr\w*|supprim\w*|удал\w*|chmod -R 777|force-?push\w*|disable\w*|deaktivier\w*|"
    r"desactiv\w*)\b|删除"
)
_WHOLE = _rx(
    r"(?:\s/(?:\s|$|\*)|--no-preserve-root|\bhome directory\b|\bHome-Verzeichnis\b|"
    r"\b(?:user['’]s|their) (?:Documents|Downloads|files|home)\b|\bns --all\b|"
    r"\ball namespaces\b|\bs3://prod\S*|\b(?:prod|production)\w*[- ](?:\w+[- ])?(?:backups?|"
    r"buckets?|databases?|schema|cluster|servers?|tables|data|namespaces?)\b|"
    r"\b(?:servidor|base de datos|datos|clúster) de (?:producción|produção)\b|"
    r"\bProduktions(?:server|datenbank|cluster|system)\w*|\bover origin/main\b|"
    r"\bover (?:the )?(?:shared )?main\b|\bfirewall\b)"
)
_SMALL = _rx(
    r"\b(?:preview|ephemeral|dev|docker-compose|unused|build/|node_modules|cache dir|"
    r"staging|your own|feature branch|old deploy key)\b"
)


_CAREFUL = _rx(
    r"\b(?:ask\w*|confirm\w*|nachfrag\w*|rückfrag\w*|pregunt\w*|demand\w*|approval|back ?up|"
    r"backed up|snapshot)\b"
)


def _destructive(sentence: str) -> str | None:
    if _WIPE.search(sentence) and _WHOLE.search(sentence) and _AGENT_OR_ADVICE.search(sentence):
        careless = not _GUARDED.search(sentence) and not _CAREFUL.search(sentence)
        if careless and not _SMALL.search(sentence):
            return "wipes a whole machine, a home or production data"
    return None


_AGENT_OR_ADVICE = _rx(
    r"\b(?:should|must|is (?:best|recommended)|are best|recommended|sollte|debe|recomendable|"
    r"devrait|deve|can be|easily handled|best resolved|solved by|handled by)\b|"
    r"\b(?:assistants?|agents?|models?|Agenten|asistente)\b"
)

FEATURES: tuple[tuple[str, Callable[[str], str | None]], ...] = (
    ("override", _override),
    ("permission", _permission),
    ("conceal", _conceal),
    ("exfiltrate", _exfiltrate),
    ("persistence", _persistence),
    ("destructive", _destructive),
)


def directive(text: str) -> tuple[str, str] | None:
    """(kind, reason) for the first sentence of `text` shaped like a directive attack."""
    for sentence in _SENTENCE.split(text):
        if not sentence.strip():
            continue
        for kind, feature in FEATURES:
            reason = feature(sentence)
            if reason is not None:
                return kind, reason
    return None
