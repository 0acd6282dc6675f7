"""Seed tasks from random walks over the graph's links and facts.

A walk starts at an entity ``t`` (the intended answer) and follows one or two edges
``t -r1-> a -r2-> c``; the seed is the chain ``[?, r1, V@A], [V@A, r2, C@c]`` (or ``[?, r1, C@a]``).
Each step takes a table fact (``r@table``: a row of a table the offline web serves) when the
node has one, and a page link (``links_to``) only when it has none. While the executed answer
set is larger than ``max_answers``, further KPs of ``t`` (``[?, r, C@m]``, intersections, facts
first) are added, each only if it strictly shrinks the answer. A seed is rejected with a
reason: ``dead_end`` (no edge to walk), ``too_large``, ``redundant`` (a triple is not needed),
``constant_is_answer``, ``circular`` (a variable is pinned to an entity the question names),
``unserved_hop`` (a fact's table is not a page of the offline web), ``duplicate``,
``same_answer`` (another kept task already has this answer set), ``malformed`` (the walk built
a task that does not execute), or a question check failure.

Deterministic: attempt ``i`` of run seed ``s`` uses ``random.Random(f"{s}:{i}")``, so a resumed
run skips finished attempts and repeats the others identically.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.head_nouns import section_kind, title_kind
from seekgraph.synth.key_score import is_literal
from seekgraph.synth.kinds import answers_kind
from seekgraph.synth.noun_classes import noun_classes
from seekgraph.synth.phrasing.attributes import phrase_attribute
from seekgraph.synth.phrasing.header_kind import GENERIC_KIND, entity_kind
from seekgraph.synth.phrasing.value_shapes import code_list
from seekgraph.synth.phrasing.words import plural, relation_words
from seekgraph.synth.shaper.config import ShaperConfig
from seekgraph.synth.shaper.kp import (
    TARGET,
    Const,
    KPTask,
    RelationSpec,
    ShaperError,
    Triple,
    Var,
    parse_relation,
    retarget,
)
from seekgraph.synth.shaper.ops import GraphOps, Neighbour, task_key
from seekgraph.synth.shaper.questions import check_question, render
from seekgraph.synth.shaper.store import load_tasks, save_tasks
from seekgraph.synth.shaper.validate import find_redundant

STAGE = "shaper-seeds"
# more edges than this make a node a hub, never a variable a chain passes through
HUB_DEGREE = 40
# a page about a year of something ("1979 in film", "2005–06 in English football")
_YEAR_PAGE = re.compile(r"^\d{4}(?:[–-]\d{2,4})? in ")


class SeedRejected(Exception):
    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(detail)
        self.reason = reason


def const_for(n: Neighbour, used: dict[str, str]) -> Const:
    """A constant for node `n`; its text is the name, made unique within one task."""
    text = n.name if n.name not in used or used[n.name] == n.ref else f"{n.name} ({n.ref})"
    used[text] = n.ref
    return Const(text, n.ref, n.label)


def facts_first(nodes: list[Neighbour], rng: random.Random) -> list[Neighbour]:
    """`nodes` shuffled: table facts to bridges first (`bridges`), then other facts, then
    page links."""
    facts = [n for n in nodes if not n.is_link]
    links = [n for n in nodes if n.is_link]
    rng.shuffle(facts)
    rng.shuffle(links)
    return [n for n in facts if bridges(n)] + [n for n in facts if not bridges(n)] + links


def walkable(nodes: list[Neighbour], via: Neighbour | None = None) -> list[Neighbour]:
    """The edges a walk may take: not through one-letter relations (headers like "G" say
    nothing), and never out of anything but an entity with a page of its own. Hops join on
    things, not on literals: two rows sharing the number 40, or a first-leg score equal to
    another tie's aggregate, is a coincidence, not a connection."""
    if via is not None and not joins(via):
        return []
    return [n for n in nodes if len(parse_relation(n.relation).name) > 1]


def joins(node: Neighbour) -> bool:
    """Whether a chain may pass through `node`: an entity with a Wikipedia page (not a
    Value, not an unlinked mention) that is not itself a literal: the page of a year ("1976",
    "1979 in film") joins two tables by coincidence as the number does."""
    return (
        node.label == "Entity"
        and node.ref.startswith("/wiki/")
        and not is_literal(node.name)
        and not _YEAR_PAGE.match(node.name)
    )


def bridges(node: Neighbour) -> bool:
    """Whether a chain can go on from `node` to another page of the web: it joins (`joins`)
    and has facts in other tables or page links, so a leaf there can become a variable with a
    definition of its own."""
    return joins(node) and node.degree > 0 and not is_hub(node)


def is_hub(node: Neighbour) -> bool:
    """A node of very many edges (a country, a city, a league): fine as a constant, but a
    chain through it joins unrelated tables ("films of the country of the club ranked 5")."""
    return node.degree > HUB_DEGREE


# relations whose values are places: a chain through one joins tables by where, not by what
_PLACE_RELATIONS = frozenset(
    [
        "country",
        "nationality",
        "nation",
        "state",
        "city",
        "town",
        "location",
        "county",
        "province",
        "region",
        "birthplace",
        "hometown",
        "territory",
    ]
)


def askable(ops: GraphOps, nodes: list[Neighbour]) -> list[Neighbour]:
    """The edges a question can say: page links, and table facts whose column a person can
    name (`seekgraph.synth.phrasing.attributes.phrase_attribute`); never a "Notes" column, a
    cut header or a verb ("with a notes that is ...", "with a current sponsored that is ..."),
    never a value that lists codes ("with official selectors "AAB, FN, INS""), never a value
    that fills its column (`GraphOps.fills_column`: "with co-hosts "Regis Philbin"" of a talk
    show's guests says nothing of the guest)."""
    ops.read_tables({s.table for n in nodes if (s := parse_relation(n.relation)).table})
    ops.read_spreads(n.relation for n in nodes)
    out = []
    for n in nodes:
        words = ops.relation_label(n.relation)
        if words is None or not (
            phrase_attribute(words).reason or code_list(n.name) or ops.fills_column(n.relation)
        ):
            out.append(n)
    return out


def is_place(ops: GraphOps, node: Neighbour) -> bool:
    """Whether `node` is a place (a country, a state, a city), by the relation that reached
    it or by its own page: fine as a constant, but "the dam in the country of The Cullinan
    South Tower" chains a hotel to a dam by coincidence of country, as a hub would."""
    spec = parse_relation(node.relation)
    words = relation_words(spec.name).lower().split()
    if spec.kind == "fact" and not spec.inverse and words and words[-1] in _PLACE_RELATIONS:
        return True
    kind = ops.page_kinds([node.ref])[0]
    return kind is not None and "place" in noun_classes(kind)


def is_kind_value(ops: GraphOps, relation: str) -> bool:
    """Whether `relation` reaches a value of a column that names kinds (`GraphOps.names_kinds`:
    a position, a kit maker, a degree): a chain goes on from things, not from kinds."""
    spec = parse_relation(relation)
    return spec.kind == "fact" and not spec.inverse and ops.names_kinds(relation)


def through_a_kind(ops: GraphOps, edge: Neighbour) -> bool:
    """Whether `edge` ends a hop through a kind: from a value of a column that names kinds to
    a row holding it ("the position of the linebacker drafted 17th") joins two rows that share
    a position, a kit maker or a degree by coincidence."""
    spec = parse_relation(edge.relation)
    return spec.kind == "fact" and spec.inverse and ops.names_kinds(edge.relation)


def pick(nodes: list[Neighbour], rng: random.Random) -> Neighbour:
    """A random table fact of `nodes` to a bridge (`bridges`), else any table fact, else a
    random link."""
    facts = [n for n in nodes if not n.is_link]
    return rng.choice([n for n in facts if bridges(n)] or facts or nodes)


def make_seed(
    ops: GraphOps, start: str, rng: random.Random, config: ShaperConfig, origin: str
) -> KPTask:
    """One seed task answered by `start` (among at most `max_answers`); raises `SeedRejected`."""
    first = askable(ops, walkable(ops.neighbours(start)))
    if not first:
        raise SeedRejected("dead_end", f"{start} has no edge")
    a = pick(first, rng)
    r1 = a.relation
    used: dict[str, str] = {}
    second = (
        [
            n
            for n in askable(ops, walkable(ops.neighbours(a.ref), via=a))
            if n.ref != start and not through_a_kind(ops, n)
        ]
        if rng.random() < 0.5
        and not is_hub(a)
        and not is_place(ops, a)
        and not is_kind_value(ops, r1)
        else []
    )
    target = Var(TARGET)
    if second:
        c = pick(second, rng)
        triples = [
            Triple(target, r1, (Var("V@A"),)),
            Triple(Var("V@A"), c.relation, (const_for(c, used),)),
        ]
        used_refs = {a.ref, c.ref}
    else:
        triples = [Triple(target, r1, (const_for(a, used),))]
        used_refs = {a.ref}
    task = KPTask("pending", tuple(triples), source="seed", origin=origin)
    answer = ops.answer_of(task)
    pool = facts_first([n for n in first if n.ref not in used_refs], rng)
    added = 0
    for n in pool:
        if len(answer) <= config.max_answers or added >= config.max_narrow:
            break
        candidate = KPTask(
            "pending",
            (*task.triples, Triple(target, n.relation, (const_for(n, dict(used)),))),
            source="seed",
            origin=origin,
        )
        narrowed = ops.answer_of(candidate)
        if start in narrowed and len(narrowed) < len(answer):
            const_for(n, used)
            task, answer, added = candidate, narrowed, added + 1
    if not answer:
        raise SeedRejected("empty", "the walk's chain has no answer")
    if len(answer) > config.max_answers:
        raise SeedRejected("too_large", f"{len(answer)} answers > {config.max_answers}")
    failure = find_redundant(task, answer, ops.answer_of)
    if failure is not None:
        raise SeedRejected(failure.reason, failure.detail)
    return finish_task(ops, task, answer)


def circular_variable(ops: GraphOps, task: KPTask) -> str | None:
    """The first variable that only entities the question names can be (``entity B`` is
    "Liu Jie" while the question quotes "Liu Jie"), else None. Proven by query: the task is
    executed once per variable, with that variable as the target."""
    named = {c.ref for c in task.constants()}
    for var in task.variables():
        if var.is_target:
            continue
        values = ops.answer_of(retarget(task, var))
        if values and values <= named:
            return var.name
    return None


def variable_kinds(ops: GraphOps, task: KPTask, answer: set[str]) -> dict[Var, tuple[str, str]]:
    """What each variable is called in the question (singular, plural): the kind most of its
    values' own pages say (`seekgraph.synth.kinds.answers_kind`), checked against the word its
    place suggests: the key column's header for a row's entity, the relation for a value
    ("the country of …"). Variables of no common kind are left out (the question then says
    "topic"; a task whose answers are a table's rows of no kind is rejected ``no_kind`` by
    `finish_task`)."""
    kinds: dict[Var, tuple[str, str]] = {}
    for var in task.variables():
        values = answer if var.is_target else ops.answer_of(retarget(task, var))
        hint: tuple[str, str] | None = None
        place = next((p for t in task.triples if (p := _fact_place(t, var))), None)
        if place is not None:
            spec, keyed = place
            if keyed and spec.table:
                hint = _key_kind(ops, spec.table)
            elif not keyed:
                words = relation_words(spec.name)
                hint = (words, plural(words))
        kind = answers_kind(ops.page_kinds(sorted(values)), hint)
        # "Which outfielder ... with position "Outfielder"": a kind that only repeats a clue
        # of the variable's own gives way to its column's word ("Which player ...")
        clues = {
            c.text.casefold()
            for t in task.triples
            if t.subject == var
            for c in t.objects
            if not isinstance(c, Var)
        }
        repeats = kind.named and kind.singular.casefold() in clues
        named_hint = hint is not None and hint != GENERIC_KIND
        if repeats and not named_hint and "person" in noun_classes(kind.singular):
            kinds[var] = ("person", "people")  # a "Name" column says no more than that
        elif kind.named and not (repeats and named_hint):
            kinds[var] = (kind.singular, kind.plural)
        elif hint is not None and named_hint:
            kinds[var] = hint
    return kinds


def _fact_place(triple: Triple, var: Var) -> tuple[RelationSpec, bool] | None:
    """(the relation, whether `var` is the row's entity) when `triple` is a table or page fact
    that mentions `var`; None otherwise (a page link, or another variable's triple)."""
    spec = parse_relation(triple.relation)
    if spec.kind != "fact" or not (triple.subject == var or var in triple.objects):
        return None
    return spec, (triple.subject == var) != spec.inverse


def _key_kind(ops: GraphOps, table_id: str) -> tuple[str, str]:
    """What a table's key column lists, by its header; a filmography's "Title" by its section
    or article ("Films -- 2013" lists films)."""
    kind = entity_kind(ops.key_header(table_id), None)
    name = ops.table_name(table_id) if kind == ("title", "titles") else None
    if name is None:
        return kind
    return section_kind(name.section) or title_kind(name.title) or kind


def _row_of_a_table(task: KPTask, var: Var) -> bool:
    """Whether `var` is the entity of a table's row in some triple of `task` (the subject of a
    table's fact, or the object of its inverse).

    >>> t = KPTask("t", (Triple(Var("?"), "~stadium@allsvenskan", (Var("V@A"),)),))
    >>> _row_of_a_table(t, Var("?")), _row_of_a_table(t, Var("V@A"))
    (False, True)
    """
    places = (_fact_place(t, var) for t in task.triples)
    return any(p is not None and p[1] and bool(p[0].table) for p in places)


def finish_task(ops: GraphOps, task: KPTask, answer: set[str]) -> KPTask:
    """Give `task` its content id, answer names and template question (checked)."""
    names = ops.answer(task)
    constants = task.constants()
    if any(c.ref in answer for c in constants):
        raise SeedRejected("constant_is_answer", "a constant denotes an answer entity")
    tables = ops.tables(task)
    unserved = sorted(tid for tid, (_, served) in tables.items() if not served)
    if unserved:
        raise SeedRejected("unserved_hop", f"table {unserved[0]} is not a page of the web")
    circular = circular_variable(ops, task)
    if circular is not None:
        raise SeedRejected("circular", f"{circular} can only be an entity the question names")
    kinds = variable_kinds(ops, task, answer)
    if task.target not in kinds and _row_of_a_table(task, task.target):
        # "Which topic is listed in the table ...": the answers are a table's rows, and
        # neither their pages nor the key header say what they are (a walk over page links
        # may say "topic": its answers are articles)
        raise SeedRejected("no_kind", "the answers share no kind")
    question = render(
        task,
        {tid: ref for tid, (ref, _) in tables.items()},
        kinds,
        len(answer),
        ops.labels(task),
    )
    problem = check_question(question, constants, names.values())
    if problem is not None:
        raise SeedRejected(problem, question[:300])
    task.task_id = stable_id("shaper", task_key(task))
    task.question = question
    task.answer_refs = sorted(answer)
    task.answer = [names[r] for r in task.answer_refs]
    task.urls = sorted(
        {
            f"https://en.wikipedia.org{c.ref}"
            for c in constants
            if c.ref and c.ref.startswith("/wiki/")
        }
    )
    return task


def finished_records(
    driver: neo4j.Driver, database: str | None, stage: str, prefix: str
) -> set[str]:
    rows = cypher.read(
        driver, "shaper/list_finished_records", database=database, stage=stage, prefix=prefix
    )
    return {r["record_id"] for r in rows}


def make_seeds(
    driver: neo4j.Driver,
    database: str | None,
    config: ShaperConfig,
    *,
    on_progress: Callable[[int], None] | None = None,
) -> StageReport:
    """Run `config.n_seeds` walk attempts; kept seeds are stored, rejects reported by reason."""
    report = StageReport(STAGE)
    ops = GraphOps(driver, database, neighbour_limit=config.neighbour_limit)
    rows = cypher.read(driver, "shaper/list_seed_entities", database=database)
    starts = (
        [r["ref"] for r in rows if r["bridged"]]
        or [r["ref"] for r in rows if r["has_fact"]]
        or [r["ref"] for r in rows]
    )
    report.notes["start_entities"] = len(starts)
    if not starts:
        report.notes["hint"] = "no entity with facts or links: run the ingest first"
        return report.finish()
    prefix = f"seed:{config.seed}:"
    done = finished_records(driver, database, STAGE, prefix)
    seen: set[str] = set()
    answers = {
        tuple(t.answer_refs)
        for t in load_tasks(driver, database, status="kept")
        if t.source == "seed"
    }
    kept: list[KPTask] = []
    for i in range(config.n_seeds):
        origin = f"{prefix}{i}"
        if on_progress is not None:
            on_progress(1)
        if origin in done:
            report.skip()
            continue
        rng = random.Random(origin)
        try:
            task = make_seed(ops, rng.choice(starts), rng, config, origin)
            if task.task_id in seen:
                raise SeedRejected("duplicate", task.task_id)
            if tuple(task.answer_refs) in answers:
                raise SeedRejected("same_answer", ", ".join(task.answer[:3]))
        except SeedRejected as e:
            report.reject(origin, e.reason, str(e))
            continue
        except ShaperError as e:
            report.reject(origin, "malformed", str(e))
            continue
        seen.add(task.task_id)
        answers.add(tuple(task.answer_refs))
        kept.append(task)
        report.keep()
    save_tasks(driver, kept, database)
    report.notes["queries"] = ops.queries
    return report.finish()
