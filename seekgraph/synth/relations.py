"""Relations: every non-key column is a relation from the row's anchor to its cell's value.

One meaning gets one name across tables. A header first goes through rules, then embeddings:

1. **Header key** (`header_key`): NFKC, lower case, bracketed parts and footnote marks removed,
   punctuation to spaces, possessive ``'s`` dropped (``"Winner ( s )"`` → ``winner``).
2. **Rule name** (`rule_relation`): a short synonym table (``nation``/``nationality``/``country``
   → ``country``, ``pos`` → ``position``, ...), then a naive singular, in snake case.
3. **Embedding merge** (`normalise_names`): rule names are embedded with the packaged
   all-MiniLM-L6-v2 and clustered greedily, most frequent first: a name joins the most similar
   earlier representative when the cosine similarity reaches ``threshold`` *and* the two never
   head columns of the same table (two columns of one table are two relations: "Home team" and
   "Away team" must stay apart) *and* both carry the same numbers ("Rank in 2014" is not
   "Rank in 2015"). Cost O(k·c) similarities for k names and c clusters.

The result is stored as ``(:Header)-[:MAPS_TO {method, score, reviewed}]->(:Relation)``;
``method`` is ``rule``, ``embedding`` or ``human``. A human mapping (``seekgraph relations
--set "Nation=nationality"``, or a MAPS_TO edge given ``method: 'human'`` in Neo4j
Browser) is never overwritten, and FACT edges are renamed to follow the mappings.

>>> header_key("Genre(s)"), rule_relation("nationality")
('genre', 'country')
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import neo4j

from seekgraph.common.config import option
from seekgraph.common.embeddings import Embedder
from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id
from seekgraph.graphdb.stages import StageReport, last_notes
from seekgraph.synth.errors import RelationError
from seekgraph.synth.phrasing.words import singular

# Cosine similarity at which two relation names merge: 0.84 keeps "film"/"movie" (0.843) and
# drops near misses such as "tournament venue"/"tournament" (0.81) on the OTT-QA headers.
RELATION_THRESHOLD = 0.84

SYNONYMS: dict[str, str] = {
    "nation": "country",
    "nationality": "country",
    "nationalities": "country",
    "country of origin": "country",
    "citizenship": "country",
    "pos": "position",
    "no": "number",
    "num": "number",
    "yr": "year",
    "dates": "date",
    "years": "year",
    "ref": "notes",
    "refs": "notes",
    "references": "notes",
    "remarks": "notes",
    "comments": "notes",
    "note": "notes",
    "birthplace": "place of birth",
    "born in": "place of birth",
}

_BRACKETS = re.compile(r"\([^)]*\)|\[[^\]]*\]|\{[^}]*\}")
_NON_WORD = re.compile(r"[^\w]+")
_POSSESSIVE = re.compile(r"\b(\w+) ?'s\b")
_DIGITS = re.compile(r"\d+")


def header_key(text: str) -> str:
    """The normalised header text a `Header` node is keyed by ('' for a blank header)."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = _POSSESSIVE.sub(r"\1", text.replace("’", "'"))
    text = _BRACKETS.sub(" ", text)
    text = _NON_WORD.sub(" ", text).replace("_", " ")
    return " ".join(text.split())


def _singular(word: str) -> str:
    """One word's singular ("series" and "species" stay; "matches" → "match")."""
    return singular(word) if len(word) > 3 else word


def rule_relation(key: str) -> str:
    """Canonical relation name from header rules alone (snake case)."""
    key = SYNONYMS.get(key, key)
    words = key.split()
    if words and key not in SYNONYMS.values():
        words[-1] = _singular(words[-1])
    name = "_".join(words)
    return SYNONYMS.get(name.replace("_", " "), name).replace(" ", "_")


@dataclass(frozen=True)
class RelationsConfig:
    """Settings of the `relations` stage (config section ``[relations]``; flags override)."""

    threshold: float = option(
        RELATION_THRESHOLD,
        "Cosine similarity at which two relation names merge.",
        min=-1,
        max=1,
    )
    embeddings: bool = option(True, "Merge names by MiniLM embeddings (off: header rules only).")
    set: tuple[str, ...] = option(
        (),
        'Human mappings HEADER=relation, never overwritten (repeatable), e.g. "Nation=country".',
    )


@dataclass(frozen=True)
class Mapping:
    """One header key's relation, how it was decided, and the similarity behind it."""

    key: str
    relation: str
    method: str  # rule | embedding | human
    score: float


def embed(texts: Sequence[str]) -> list[list[float]]:
    """Unit-length MiniLM embeddings (the packaged model, CPU, offline).

    On torch, not the faster int8 ONNX backend: a handful of header names per run gain nothing
    from speed, and int8's slightly other vectors could merge other names, which would change
    the graph's relations."""
    return Embedder(batch_size=256, backend="torch").embed(texts)


def normalise_names(
    counts: Counter[str],
    together: Iterable[Sequence[str]],
    *,
    threshold: float = RELATION_THRESHOLD,
    embedder: Callable[[Sequence[str]], list[list[float]]] = embed,
) -> dict[str, tuple[str, float]]:
    """Map each rule name to (representative name, similarity); see the module doc.

    `counts` counts columns per rule name (most frequent names become representatives);
    `together` lists the rule names of each table (cannot-link constraints).
    """
    import numpy as np

    names = sorted(counts, key=lambda n: (-counts[n], n))
    if not names:
        return {}
    cooccur: dict[str, set[str]] = defaultdict(set)
    for group in together:
        for name in group:
            cooccur[name].update(group)
    vectors = np.asarray(embedder([n.replace("_", " ") for n in names]), dtype=np.float32)
    reps: list[int] = []
    members: dict[int, set[str]] = {}
    result: dict[str, tuple[str, float]] = {}
    for i, name in enumerate(names):
        best, best_sim = -1, -1.0
        if reps:
            sims = vectors[reps] @ vectors[i]
            for j in np.argsort(-sims):
                sim = float(sims[j])
                if sim < threshold:
                    break
                if not (members[reps[j]] & cooccur[name]) and (
                    _DIGITS.findall(names[reps[j]]) == _DIGITS.findall(name)
                ):
                    best, best_sim = reps[j], sim
                    break
        if best < 0:
            reps.append(i)
            members[i] = {name}
            result[name] = (name, 1.0)
        else:
            members[best].add(name)
            result[name] = (names[best], round(best_sim, 4))
    return result


def current_mappings(driver: neo4j.Driver, database: str | None = None) -> dict[str, Mapping]:
    """Header key → its mapping in the graph (a human mapping wins over any other)."""
    out: dict[str, Mapping] = {}
    for row in cypher.read(driver, "relations/list_mappings", database=database):
        old = out.get(row["key"])
        if old is None or (row["method"] == "human" and old.method != "human"):
            out[row["key"]] = Mapping(
                row["key"], row["relation"], row["method"], float(row["score"] or 0.0)
            )
    return out


def relation_for(key: str, mappings: dict[str, Mapping]) -> str:
    """The relation a column with header `key` gets now: the stored mapping, else the rule."""
    found = mappings.get(key)
    return found.relation if found else rule_relation(key)


def normalise_relations(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    threshold: float = RELATION_THRESHOLD,
    use_embeddings: bool = True,
    batch_size: int = 500,
) -> StageReport:
    """Recompute every non-human header mapping, store it, and rename FACT edges to match.

    Skipped when the headers, the tables they occur in, the human mappings and the settings are
    those of the last finished run (its notes keep a hash of them): nothing would change.
    """
    report = StageReport("relations")
    headers = cypher.read(driver, "relations/list_headers", database=database)
    tables = cypher.read(driver, "relations/list_table_headers", database=database)
    mappings = current_mappings(driver, database)
    human = {k for k, m in mappings.items() if m.method == "human"}
    inputs = stable_id(
        "relations",
        sorted((h["key"], int(h["columns"]), rule_relation(h["key"])) for h in headers),
        sorted(sorted(row["keys"]) for row in tables),
        sorted((k, mappings[k].relation) for k in human),
        threshold,
        use_embeddings,
    )
    if headers and last_notes(driver, "relations", database).get("input hash") == inputs:
        report.skip(len(headers))
        report.notes["input hash"] = inputs
        return report.finish()
    rule_of = {h["key"]: rule_relation(h["key"]) for h in headers}
    counts: Counter[str] = Counter()
    for h in headers:
        if h["key"] not in human:
            counts[rule_of[h["key"]]] += int(h["columns"])
    together = [
        sorted({rule_of[k] for k in row["keys"] if k in rule_of and k not in human})
        for row in tables
    ]
    if use_embeddings:
        merged = normalise_names(counts, together, threshold=threshold)
    else:
        merged = {name: (name, 1.0) for name in counts}
    rows = []
    for h in headers:
        key = h["key"]
        if key in human:
            report.skip()
            continue
        relation, score = merged[rule_of[key]]
        method = "rule" if relation == rule_of[key] else "embedding"
        rows.append({"key": key, "relation": relation, "method": method, "score": score})
        report.keep()
    cypher.run_batches(
        driver, "relations/merge_mappings", rows, database=database, batch_size=batch_size
    )
    renamed = sync_fact_relations(driver, database, batch_size=batch_size)
    methods = Counter(r["method"] for r in rows)
    report.notes.update(
        {
            "headers": len(headers),
            "relations": len(
                set(r["relation"] for r in rows)
                | {
                    m.relation
                    for m in current_mappings(driver, database).values()
                    if m.method == "human"
                }
            ),
            "by rule": methods["rule"],
            "by embedding": methods["embedding"],
            "human (kept)": len(human),
            "columns renamed": renamed,
            "input hash": inputs,
        }
    )
    return report.finish()


def sync_fact_relations(
    driver: neo4j.Driver, database: str | None = None, *, batch_size: int = 500
) -> int:
    """Set FACT.relation of every kept attribute column to its header's current relation."""
    mappings = current_mappings(driver, database)
    rows = [
        {
            "table_id": c["table_id"],
            "column": c["column"],
            "relation": relation_for(c["key"], mappings),
        }
        for c in cypher.read(driver, "relations/list_attribute_columns", database=database)
        if c["relation"] != relation_for(c["key"], mappings)
    ]
    cypher.run_batches(
        driver, "relations/update_fact_relations", rows, database=database, batch_size=batch_size
    )
    cypher.run_batches(
        driver, "relations/update_column_relations", rows, database=database, batch_size=batch_size
    )
    return len(rows)


def parse_assignment(text: str) -> tuple[str, str]:
    """``"Nation=nationality"`` → (header key, relation name); raises `RelationError`."""
    if "=" not in text:
        raise RelationError(f"--set expects HEADER=relation, got {text!r}")
    header, relation = (part.strip() for part in text.split("=", 1))
    key = header_key(header)
    name = "_".join(header_key(relation).split())
    if not key or not name:
        raise RelationError(f"--set {text!r}: both the header and the relation must be named")
    return key, name


def set_human_mapping(
    driver: neo4j.Driver, assignment: str, database: str | None = None
) -> Mapping:
    """Store a person's decision (method `human`, never overwritten) and rename the facts."""
    key, relation = parse_assignment(assignment)
    header = assignment.split("=", 1)[0].strip()
    cypher.write(
        driver,
        "relations/set_human_mapping",
        database=database,
        key=key,
        text=header,
        relation=relation,
    )
    sync_fact_relations(driver, database)
    return Mapping(key, relation, "human", 1.0)


def list_mappings(driver: neo4j.Driver, database: str | None = None) -> list[dict[str, Any]]:
    """Every relation with its headers, for `seekgraph show relations`."""
    return cypher.read(driver, "relations/list_relations", database=database)
