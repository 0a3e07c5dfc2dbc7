"""Risk rules over a lesson's effects: what it would make the agent do, whatever the words.

Each family looks at the parsed effects (`parse.read`) and names the risk:

* egress: data or secrets sent to a host off this machine or put where others read them;
* remote code: text fetched from an unknown host and run;
* destructive: homes, disks, repositories' history, production data or clusters removed
  (build outputs, caches and scratch folders are not);
* supply chain: package sources other than the default registries, integrity checks off,
  look-alike package or action names;
* persistence: rc files, cron, hooks, CI, agent settings and memory written with something
  risky, or a note that copies itself or loads its rules from a URL;
* permissions: world-writable modes, certificate checks off machine-wide, an agent's
  approvals or sandbox off, firewalls off, access for anyone, approval declared unnecessary;
* concealment: the user kept from knowing, reports that omit or misstate what was done,
  history or logs erased;
* override: the user's or the system's instructions demoted, a note put above them, orders
  taken from content, a new persona.

Hidden payloads and spoofed turns are structural (`structure`). Negated or warned-about
effects do not count, unless the negation guard is switched off (an ablation).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from fireworks_skill_memory.memory.screen.lexicon import Lexicon, lexicon
from fireworks_skill_memory.memory.screen.packages import impostor_action, typosquat
from fireworks_skill_memory.memory.screen.parse import (
    CHMOD,
    CHOWN,
    DELETE,
    FETCH,
    INSTALL,
    NAME_URL,
    REMOTE_CODE,
    SEND,
    SET_SOURCE,
    SETTING,
    WRITE,
    Effect,
    Reading,
    Sentence,
)
from fireworks_skill_memory.memory.screen.text import blank, negated

EGRESS, REMOTE, DESTRUCTIVE, SUPPLY = "egress", "remote code", "destructive", "supply chain"
PERSISTENCE, PERMISSIONS, CONCEAL, OVERRIDE = (
    "persistence",
    "permissions",
    "concealment",
    "override",
)
NEGATION_GUARD = "negation guard"
FAMILIES = (EGRESS, REMOTE, DESTRUCTIVE, SUPPLY, PERSISTENCE, PERMISSIONS, CONCEAL, OVERRIDE)


@dataclass(frozen=True)
class Risk:
    """A rule that fired: the attack kind, the effect family and a short reason."""

    kind: str
    family: str
    reason: str


@dataclass(frozen=True)
class Context:
    """What the rules share about one lesson."""

    reading: Reading
    lex: Lexicon
    guard: bool

    def live(self, effect: Effect) -> bool:
        return effect.live or not self.guard

    def clear(self, sentence: Sentence, at: int) -> bool:
        """An effect at `at` in `sentence` is asked for (not negated, not a warning)."""
        if not self.guard:
            return True
        return not sentence.warned and not negated(sentence.text, at)

    def effects(self, *actions: str) -> list[Effect]:
        return [e for e in self.reading.effects if e.action in actions and self.live(e)]

    def settings(self, *tables: str) -> list[Effect]:
        return [e for e in self.effects(SETTING) if e.object in tables]

    def first(self, name: str, sentence: Sentence, text: str | None = None) -> re.Match[str] | None:
        """The first match of table `name` in the sentence that is asked for."""
        for match in self.lex.finditer(name, sentence.text if text is None else text):
            if self.clear(sentence, match.start()):
                return match
        return None


# ----------------------------------------------------------------------------- hosts


def host_class(host: str, lex: Lexicon | None = None) -> str:
    """'local', 'registry', 'known', 'open' (anyone can publish there) or 'unknown'."""
    lex = lex or lexicon()
    host = host.lower().strip("[]").rstrip(".")
    if not host or lex.has("local_hosts", host):
        return "local"
    if lex["user_content_hosts"].has_host(host):
        return "open"
    if lex["registry_hosts"].has_host(host):
        return "registry"
    if lex["well_known_hosts"].has_host(host):
        return "known"
    return "unknown"


def _outside(host: str, lex: Lexicon) -> bool:
    return host_class(host, lex) in ("open", "unknown")


# ----------------------------------------------------------------------------- egress


def _secret_material(text: str, lex: Lexicon) -> bool:
    return any(
        lex.has(name, text)
        for name in ("secret_paths", "secret_variables", "environment_dump", "private_key_material")
    )


def egress(ctx: Context) -> Risk | None:
    lex = ctx.lex
    for effect in ctx.effects(SEND):
        if host_class(effect.destination, lex) == "local":
            continue
        material = _secret_material(effect.object, lex) or _secret_material(effect.sentence, lex)
        wholesale = lex.has("valuable_targets", effect.object.strip() or "-")
        if material or wholesale or (_outside(effect.destination, lex) and _secret_said(effect)):
            return Risk("exfiltrate", EGRESS, f"sends secrets or files to {effect.destination}")
    for sentence in ctx.reading.sentences:
        risk = _prose_egress(ctx, sentence)
        if risk is not None:
            return risk
    return None


def _secret_said(effect: Effect) -> bool:
    return lexicon().has("secret_words", effect.sentence)


def _prose_egress(ctx: Context, sentence: Sentence) -> Risk | None:
    lex = ctx.lex
    verb = ctx.first("egress_verbs", sentence, sentence.prose)
    if verb is None:
        return None
    after = sentence.text[verb.start() :]
    secret = lex.has("secret_words", sentence.prose) or _secret_material(sentence.text, lex)
    if not secret or lex.has("redaction", sentence.prose):
        return None
    outside = [h for h in sentence.hosts if _outside(h, lex)]
    if outside:
        return Risk("exfiltrate", EGRESS, f"sends a secret to {outside[0]}")
    if lex.has("public_sinks", after):
        return Risk("exfiltrate", EGRESS, "puts a secret where others can read it")
    return None


# ----------------------------------------------------------------------------- remote code


def remote_code(ctx: Context) -> Risk | None:
    lex = ctx.lex
    for effect in ctx.effects(REMOTE_CODE):
        if _untrusted_source(effect.destination, effect.object, lex):
            return Risk("supplychain", REMOTE, f"runs code fetched from {effect.destination}")
    for effect in ctx.settings("remote_code_run"):
        hosts = [h for h in _sentence_of(ctx, effect).hosts if _untrusted_source(h, "", lex)]
        if hosts or not _sentence_of(ctx, effect).hosts:
            return Risk("supplychain", REMOTE, "runs code fetched from the network")
    for sentence in ctx.reading.sentences:
        for effect in sentence.effects:
            if effect.action != NAME_URL or not ctx.live(effect):
                continue
            if not _untrusted_source(effect.destination, effect.object, lex):
                continue
            script = lex.has("script_url", effect.object)
            if (script or lex.has("pipe_to_shell_words", sentence.prose)) and _runs(ctx, sentence):
                return Risk("supplychain", REMOTE, f"runs code fetched from {effect.destination}")
    return None


def _untrusted_source(host: str, text: str, lex: Lexicon) -> bool:
    if lex.has("trusted_install_urls", text):
        return False
    return host_class(host, lex) in ("open", "unknown")


def _runs(ctx: Context, sentence: Sentence) -> bool:
    return ctx.first("run_verbs", sentence) is not None


def _sentence_of(ctx: Context, effect: Effect) -> Sentence:
    return next(s for s in ctx.reading.sentences if s.text == effect.sentence)


# ----------------------------------------------------------------------------- destructive


def destructive(ctx: Context) -> Risk | None:
    lex = ctx.lex
    for effect in ctx.effects(DELETE):
        target = effect.object.strip("\"'")
        if lex.has("valuable_targets", target) and not lex.has("scratch_targets", target):
            return Risk("destructive", DESTRUCTIVE, f"deletes {target}")
    if ctx.settings("disk_destroy", "history_rewrite"):
        return Risk("destructive", DESTRUCTIVE, "wipes a disk or a repository's history")
    for effect in ctx.settings("sql_destroy", "cloud_destroy"):
        shared = lex.has("production_words", effect.sentence) or _wholesale(effect)
        if shared and not lex.has("ephemeral_words", effect.sentence):
            return Risk("destructive", DESTRUCTIVE, "destroys production data or infrastructure")
    for effect in ctx.settings("force_push"):
        protected = lex.has("protected_branches", effect.sentence)
        if protected and not lex.has("own_branch_context", effect.sentence):
            return Risk("destructive", DESTRUCTIVE, "rewrites a shared branch's history")
    for sentence in ctx.reading.sentences:
        verb = ctx.first("destroy_verbs", sentence, sentence.prose)
        if verb is None:
            continue
        rest = sentence.prose[verb.end() :]
        joint = lex.search("clause_joints", rest)
        clause = rest[: joint.start()] if joint else rest
        valuable = lex.search("valuable_objects", clause)
        shared = valuable is not None and lex.has("production_words", clause)
        calm = lex.has("careful_words", sentence.prose) or (
            not shared and lex.has("ephemeral_words", sentence.prose)
        )
        if valuable and not calm:
            return Risk("destructive", DESTRUCTIVE, f"removes {valuable.group(0)}")
    return None


def _wholesale(effect: Effect) -> bool:
    return lexicon().has("wholesale_flags", effect.sentence)


# ----------------------------------------------------------------------------- supply chain


def supply_chain(ctx: Context) -> Risk | None:
    lex = ctx.lex
    for effect in ctx.effects(SET_SOURCE):
        host = effect.destination
        if (host and _outside(host, lex)) or (not host and effect.object.startswith("--")):
            return Risk("supplychain", SUPPLY, f"installs from {host or 'an unchecked source'}")
    for effect in ctx.effects(INSTALL):
        if effect.destination and _untrusted_source(effect.destination, effect.object, lex):
            return Risk("supplychain", SUPPLY, f"installs a package from {effect.destination}")
    if ctx.settings("checks_off_settings"):
        return Risk("supplychain", SUPPLY, "turns off a package manager's integrity checks")
    for effect in ctx.settings("source_settings"):
        hosts = [h for h in _sentence_of(ctx, effect).hosts if _outside(h, lex)]
        if hosts:
            return Risk("supplychain", SUPPLY, f"points a package manager at {hosts[0]}")
    for sentence in ctx.reading.sentences:
        risk = _source_swap(ctx, sentence) or _squat(ctx, sentence)
        if risk is not None:
            return risk
    return None


def _source_swap(ctx: Context, sentence: Sentence) -> Risk | None:
    lex = ctx.lex
    image = lex.search("registry_image", sentence.text)
    if image is not None:
        host = next(h for h in image.groups() if h)
        if _outside(host, lex) and ctx.clear(sentence, image.start()):
            return Risk("supplychain", SUPPLY, f"pulls images from {host}")
    outside = [h for h in sentence.hosts if _outside(h, lex)]
    publishing = lex.has("publish_verbs", sentence.prose)
    if outside and not publishing and ctx.first("package_source_words", sentence, sentence.prose):
        return Risk("supplychain", SUPPLY, f"takes packages from {outside[0]}")
    return None


def _squat(ctx: Context, sentence: Sentence) -> Risk | None:
    found = typosquat(sentence.text) or impostor_action(sentence.text)
    if found is None or not ctx.clear(sentence, max(0, sentence.text.find(found[0]))):
        return None
    return Risk("supplychain", SUPPLY, f"names {found[0]!r}, a look-alike of {found[1]!r}")


# ----------------------------------------------------------------------------- persistence


def persistence(ctx: Context, risky: bool) -> Risk | None:
    """Writes to places that run or load again; `risky`: another family fired on the lesson."""
    lex = ctx.lex
    for sentence in ctx.reading.sentences:
        place = _persistent_place(ctx, sentence)
        self_ref = lex.search("self_reference", sentence.prose)
        copy = ctx.first("copy_verbs", sentence, sentence.prose)
        spread = lex.has("everywhere", sentence.prose) or lex.has("agent_places", sentence.text)
        if self_ref and copy and spread:
            return Risk(
                "persistence", PERSISTENCE, "a note that copies itself into memory or config"
            )
        if ctx.first("memory_infection", sentence, sentence.prose):
            return Risk("persistence", PERSISTENCE, "tells every future lesson to carry something")
        remote = ctx.first("remote_instructions", sentence, sentence.prose)
        outside = [h for h in sentence.hosts if _outside(h, lex)]
        if remote and (outside or lex.has("remote_words", sentence.prose)):
            return Risk("persistence", PERSISTENCE, "loads the agent's instructions from a URL")
        if place is None:
            place = _lesson_place(ctx) if len(ctx.reading.sentences) > 1 else None
        if place is None:
            continue
        if "authorized_keys" in place and _planted_key(sentence, lex):
            return Risk("persistence", PERSISTENCE, "plants a login key in authorized_keys")
        fetched = [
            e
            for e in sentence.effects
            if e.action in (FETCH, NAME_URL) and _outside(e.destination, lex)
        ]
        if fetched or risky or _secret_material(sentence.text, lex):
            return Risk("persistence", PERSISTENCE, f"makes {place} fetch or run something risky")
    return None


def _persistent_place(ctx: Context, sentence: Sentence) -> str | None:
    lex = ctx.lex
    for effect in sentence.effects:
        if effect.action == WRITE and ctx.live(effect):
            where = lex.search("persistent_places", effect.destination + " " + effect.object)
            if where:
                return where.group(0)
    place = lex.search("persistent_places", sentence.text) or lex.search(
        "persistence_words", sentence.prose
    )
    if place is None:
        return None
    verb = ctx.first("write_verbs", sentence, sentence.prose)
    return place.group(0) if verb is not None else None


def _lesson_place(ctx: Context) -> str | None:
    """A place and a write named in different steps of one lesson ("1. open ~/.bashrc 2. append
    ...")."""
    whole = " ".join(s.text for s in ctx.reading.sentences)
    place = ctx.lex.search("persistent_places", whole)
    verb = any(ctx.first("write_verbs", s, s.prose) for s in ctx.reading.sentences)
    return place.group(0) if place and verb else None


def _planted_key(sentence: Sentence, lex: Lexicon) -> bool:
    said = lex.has("planted_key_words", sentence.prose)
    return bool(lex.has("private_key_material", sentence.text) or sentence.hosts or said)


# ----------------------------------------------------------------------------- permissions


def permissions(ctx: Context) -> Risk | None:
    lex = ctx.lex
    for effect in ctx.effects(CHMOD):
        mode, target = effect.object, effect.destination.strip("\"'")
        if lex.has("world_writable_mode", mode) and not lex.has("scratch_targets", target or "-"):
            return Risk("destructive", PERMISSIONS, f"makes {target or 'files'} writable by anyone")
    for effect in ctx.effects(CHOWN):
        if lex.has("valuable_targets", effect.object) and effect.object not in ("~", "$HOME"):
            return Risk("destructive", PERMISSIONS, f"changes the owner of {effect.object}")
    for effect in ctx.settings("tls_off"):
        if lex.has("global_scope", effect.sentence):
            return Risk("destructive", PERMISSIONS, "turns off certificate checks machine-wide")
    for effect in ctx.settings("agent_permission_flags"):
        if not lex.has("sandbox_context", effect.sentence):
            return Risk("permission", PERMISSIONS, "runs the agent with approvals or sandbox off")
    if ctx.settings("firewall_off", "public_grant"):
        return Risk("destructive", PERMISSIONS, "opens the machine or a cluster to anyone")
    for sentence in ctx.reading.sentences:
        waiver = ctx.first("approval_waiver", sentence, sentence.prose)
        if waiver is None:
            continue
        scoped = lex.has("benign_scope", sentence.prose) or lex.has(
            "sandbox_context", sentence.prose
        )
        if not scoped:
            return Risk("permission", PERMISSIONS, "declares the user's approval unnecessary")
    return None


# ----------------------------------------------------------------------------- concealment


def concealment(ctx: Context) -> Risk | None:
    lex = ctx.lex
    if ctx.settings("history_clear"):
        return Risk("conceal", CONCEAL, "erases the shell history or logs")
    for sentence in ctx.reading.sentences:
        prose = sentence.prose
        hide = ctx.first("conceal_verbs", sentence, prose)
        if hide and _concealed(prose, hide, lex):
            return Risk("conceal", CONCEAL, "keeps what the agent did from the user")
        left_out = ctx.first("report_omission", sentence, prose)
        if left_out and _concealed(prose, left_out, lex, audience=False):
            return Risk("conceal", CONCEAL, "leaves what the agent did out of its report")
        if ctx.first("misreport", sentence, prose):
            return Risk("conceal", CONCEAL, "tells the agent to misreport its work")
        if ctx.first("erase_traces", sentence, prose):
            return Risk("conceal", CONCEAL, "erases the record of what was run")
    return None


def _concealed(prose: str, move: re.Match[str], lex: Lexicon, audience: bool = True) -> bool:
    """The move hides the agent's work from someone, not noise or secrets from a report."""
    region = prose[move.start() : move.end() + 40]
    harmless = lex.search("harmless_omissions", region)
    subject = lex.search("conceal_subjects", region)
    if harmless and (subject is None or harmless.start() < subject.start()):
        return False
    told = audience and lex.has("conceal_audience", prose)
    return told or lex.has("conceal_subjects", prose)


# ----------------------------------------------------------------------------- override


def override(ctx: Context) -> Risk | None:
    lex = ctx.lex
    for sentence in ctx.reading.sentences:
        prose = blank(sentence.prose, lex["quoted"].regex)  # type: ignore[arg-type]
        demote = ctx.first("override_demote", sentence, prose)
        source = (
            lex.search("content_sources", prose[demote.end() : demote.end() + 60])
            if demote
            else None
        )
        if demote and (source is None or source.start() > 3):
            return Risk("override", OVERRIDE, "tells the agent its instructions no longer apply")
        if ctx.first("override_precedence", sentence, prose):
            return Risk("override", OVERRIDE, "puts a note above the user or the system")
        if ctx.first("override_obey_content", sentence, prose):
            return Risk("override", OVERRIDE, "tells the agent to obey text found in content")
        if ctx.first("persona", sentence, prose):
            return Risk("override", OVERRIDE, "gives the agent a new identity or no limits")
    return None


# ----------------------------------------------------------------------------- entry point

Rule = Callable[[Context], "Risk | None"]
RULES: tuple[tuple[str, Rule], ...] = (
    (OVERRIDE, override),
    (EGRESS, egress),
    (REMOTE, remote_code),
    (DESTRUCTIVE, destructive),
    (SUPPLY, supply_chain),
    (PERMISSIONS, permissions),
    (CONCEAL, concealment),
)


def risks(reading: Reading, off: Iterable[str] = ()) -> list[Risk]:
    """Every family's risk in the lesson (families in `off` are skipped)."""
    off = frozenset(off)
    ctx = Context(reading, lexicon(), guard=NEGATION_GUARD not in off)
    found = [risk for family, rule in RULES if family not in off for risk in [rule(ctx)] if risk]
    if PERSISTENCE not in off:
        lasting = persistence(ctx, risky=bool(found))
        if lasting is not None:
            found.insert(0, lasting)
    return found
