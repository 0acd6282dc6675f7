"""Rule-based state-graph extraction at three evidence granularities (the three vote constructions).

Information comes from mentions: entities and values of our graph (names, aliases and link
targets such as ``/wiki/Kazuo_Ishiguro``, from a `Lexicon`) plus years and numbers found by a
pattern. The query action produces what the question mentions; action ``t`` produces what its
observation mentions; an action relies on what its thought, its tool arguments (or its answer)
mention, provided an earlier action produced it (a mention nobody produced yet is the agent's
own prior and needs no producer).

The three granularities differ in what one piece of information is:

- ``entity``: the entity or value itself; any observation mentioning it produces it;
- ``sentence``: a sentence of an observation that mentions at least one entity or value; an
  action relying on a mention relies on the earliest sentence that introduced it;
- ``block``: a block of an observation (one search result, or one paragraph of a visited page),
  with the same earliest-unit rule.

They agree when the evidence is unambiguous and disagree when the same fact is scattered over
several observations, which is exactly when a pruning decision is fragile (hence the vote).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from seekgraph.agent.web.responses import turn_units
from seekgraph.common.wire import Trajectory
from seekgraph.training.stategraph.model import StateGraph


def returned_texts(trajectory: Trajectory) -> list[str]:
    """What each action brought in: the question (action 0), then per turn only what the web
    returned (`seekgraph.agent.web.responses.turn_units`, one unit per block), never the
    agent's own query or goal echoed in the response. An action cannot produce information
    by typing it."""
    return [trajectory.question] + ["\n\n".join(turn_units(t)) for t in trajectory.turns]


GRANULARITIES = ("entity", "sentence", "block")
_VALUE = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w.])")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])|\n+")
_BLOCK = re.compile(r"\n\s*\n|\n(?=\s*\d+\.\s)|\n(?=\s*[-*]\s)")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class LexEntry:
    key: str  # entity_id or value_id
    names: tuple[str, ...]
    kind: str = "entity"  # entity | value | page


@dataclass
class Lexicon:
    """Surface forms → information keys, matched case-insensitively on word boundaries."""

    entries: list[LexEntry] = field(default_factory=list)
    min_length: int = 3

    def __post_init__(self) -> None:
        self._surface: dict[str, str] = {}
        self._folded: dict[str, str] = {}  # the same surfaces under `fold`
        self.kind: dict[str, str] = {}
        self.display: dict[str, str] = {}
        for entry in self.entries:
            self.kind[entry.key] = entry.kind
            self.display.setdefault(entry.key, entry.names[0] if entry.names else entry.key)
            for name in (*entry.names, entry.key):
                for form in _forms(name):
                    if len(form) >= self.min_length:
                        self._surface.setdefault(form.lower(), entry.key)
                        self._folded.setdefault(fold(form), entry.key)
        # Surfaces starting with a word character need a word boundary before them; link
        # targets such as "/wiki/X" also match inside "https://en.wikipedia.org/wiki/X".
        word = sorted(
            (f for f in self._surface if f[0].isalnum() or f[0] == "_"), key=len, reverse=True
        )
        word_set = set(word)
        other = sorted((f for f in self._surface if f not in word_set), key=len, reverse=True)
        self._patterns = [
            re.compile(prefix + "(" + "|".join(map(re.escape, forms)) + r")(?!\w)", re.I)
            for prefix, forms in ((r"(?<!\w)", word), ("", other))
            if forms
        ]
        # a trajectory's texts are read at every granularity and again for the answer
        self._seen: dict[str, frozenset[str]] = {}

    def mentions(self, text: str) -> set[str]:
        """Keys of the entities and values `text` mentions (numbers and years always count)."""
        found = self._seen.get(text)
        if found is None:
            found = self._seen[text] = frozenset(self._mentions(text))
        return set(found)

    def _mentions(self, text: str) -> set[str]:
        found: set[str] = set()
        for pattern in self._patterns:
            for m in pattern.finditer(text):
                hit = m.group(1)
                # a case-insensitive match may differ from every stored surface in how it
                # lowercases ("İstanbul" matches "istanbul", but lowers to "i̇stanbul")
                key = self._surface.get(hit.lower()) or self._folded.get(fold(hit))
                if key is not None:
                    found.add(key)
        for m in _VALUE.finditer(text):
            number = m.group(1).replace(",", "")
            if number.lower() not in self._surface:  # a graph Value already matched it
                found.add("number:" + number)
        return found

    def text_of(self, key: str) -> str:
        return self.display.get(key, key.split(":", 1)[-1])

    def kind_of(self, key: str) -> str:
        return self.kind.get(key, "value")


def fold(text: str) -> str:
    """Case and accents folded (NFKD without combining marks, casefolded): a lookup key that
    every case-insensitive match of a surface shares with it."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _forms(name: str) -> set[str]:
    """A name, its link-target spelling (``/wiki/A_B`` → ``A B``) and the plain path."""
    forms = {name.strip()}
    if name.startswith("/wiki/"):
        title = name[len("/wiki/") :]
        forms |= {title.replace("_", " "), title}
    return {f for f in forms if f}


def _normalize(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def _unit_key(prefix: str, text: str) -> str:
    return f"{prefix}:{hashlib.sha1(_normalize(text).encode('utf-8')).hexdigest()[:12]}"


def _units(text: str, granularity: str) -> list[str]:
    splitter = _SENTENCE if granularity == "sentence" else _BLOCK
    return [u.strip() for u in splitter.split(text) if u and u.strip()]


def _pairs(keys: set[str], cap: int) -> set[str]:
    """Relation facts: pairs of mentions that co-occur in one unit (none past `cap` mentions)."""
    if len(keys) < 2 or len(keys) > cap:
        return set()
    ordered = sorted(keys)
    return {f"pair:{a}|{b}" for i, a in enumerate(ordered) for b in ordered[i + 1 :]}


def extract_rule_graph(
    trajectory: Trajectory,
    lexicon: Lexicon,
    granularity: str = "entity",
    *,
    run: int = 0,
    pair_cap: int = 12,
) -> StateGraph:
    """Build the state graph of `trajectory` at one granularity (see the module docstring).

    Besides single mentions, two mentions that co-occur in one sentence form a relation fact
    (``pair:A|B``): an answer naming "Kazuo Ishiguro" and "Nagasaki" relies on the sentence
    that connects them, not only on where each name first appeared.
    """
    if granularity not in GRANULARITIES:
        raise ValueError(f"unknown granularity {granularity!r}; use one of {GRANULARITIES}")
    sources = returned_texts(trajectory)
    actions = [""] + [t.action_text() for t in trajectory.turns]
    n = len(sources)
    produces: list[set[str]] = [set() for _ in range(n)]
    enables: list[set[str]] = [set() for _ in range(n)]
    info_text: dict[str, str] = {}
    info_kind: dict[str, str] = {}
    first_unit: dict[str, str] = {}  # mention or pair key -> earliest unit key containing it
    unit_kind = "sentence" if granularity == "entity" else granularity
    for a in range(n):
        if a:
            mentioned = lexicon.mentions(actions[a])
            wanted = mentioned | _pairs(mentioned, cap=10_000)
            if granularity == "entity":
                enables[a] = {k for k in wanted if k in info_text}
            else:
                enables[a] = {first_unit[k] for k in wanted if k in first_unit}
        if a == n - 1:
            break  # the answer has no observation
        for unit in _units(sources[a], unit_kind):
            keys = lexicon.mentions(unit)
            if not keys:
                continue
            facts = keys | _pairs(keys, pair_cap)
            if granularity == "entity":
                for key in facts:
                    produces[a].add(key)
                    if key not in info_text:
                        info_text[key] = (
                            lexicon.text_of(key)
                            if not key.startswith("pair:")
                            else " & ".join(lexicon.text_of(k) for k in key[5:].split("|"))
                        )
                        info_kind[key] = (
                            "relation" if key.startswith("pair:") else lexicon.kind_of(key)
                        )
                continue
            ukey = _unit_key(granularity[0], unit)
            produces[a].add(ukey)
            info_text.setdefault(ukey, unit[:500])
            info_kind.setdefault(ukey, granularity)
            for key in facts:
                first_unit.setdefault(key, ukey)
    return StateGraph(
        produces=produces,
        enables=enables,
        info_text=info_text,
        info_kind=info_kind,
        extractor="rule",
        run=run,
        granularity=granularity,
    )


def extract_rule_graphs(
    trajectory: Trajectory, lexicon: Lexicon, granularities: Iterable[str] = GRANULARITIES
) -> list[StateGraph]:
    """The three constructions of the vote: one graph per granularity, run = its position."""
    return [extract_rule_graph(trajectory, lexicon, g, run=r) for r, g in enumerate(granularities)]


def text_mentions(lexicon: Lexicon, text: str) -> set[str]:
    """What `text` mentions, read block by block: a name never spans two blocks (search
    results, paragraphs), and the block-granularity extraction has looked up the same blocks,
    so after it this costs only cache hits."""
    found: set[str] = set()
    for unit in _units(text, "block"):
        found |= lexicon.mentions(unit)
    return found


def first_introducers(
    trajectory: Trajectory, lexicon: Lexicon, keys: Iterable[str]
) -> dict[str, int]:
    """For each key, the first turn whose observation mentions it (0 = the question itself).

    These are the actions that *produced* an answer entity: pruning must never drop them.
    Keys no observation mentions are absent from the result.
    """
    wanted = set(keys)
    found: dict[str, int] = {}
    sources = returned_texts(trajectory)
    for a, text in enumerate(sources):
        for key in text_mentions(lexicon, text) & wanted:
            found.setdefault(key, a)
    return found
