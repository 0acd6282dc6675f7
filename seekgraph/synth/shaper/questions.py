"""Render a KP task as one English question, and check the rendering.

The question is the task's formalization read aloud, as the published WebShaper questions
read: the target is asked for by its kind ("Which novels …?", from its answers' own pages),
each triple is a predicate, and a variable is a noun phrase nested where it is used:

- a variable defined by one triple is described in place: "the country of "Lord of the Flies"
  in the Wikipedia table "Novels"", "the writer listed in the table "Laureates" with genre
  "Poetry"", "with the same country as "Louise Glück"" (the table's relation read back);
- a variable defined by several triples (an intersection) gets a sentence of its own before
  the question ("A writer is listed in … and is linked from the Wikipedia article on …."),
  and the question uses it as "such a writer".

A table is named in full on its first mention (title and section: a reader must find that
very table) and by its title after that. The grammar is fixed and unambiguous, so a reader
can take the clauses back (`seekgraph.agent.kp_reading` parses exactly this form; a test
renders random tasks and parses them back). A rendering is valid when every constant's text
appears and no answer entity's name does (as a whole word, case-insensitive). An optional LLM
paraphrase (`seekgraph.common.llm.base.LLMBackend`) is kept only when it passes the same
check.

>>> from seekgraph.synth.shaper.kp import Const, KPTask, Triple, Var
>>> t = KPTask("t", (Triple(Var("?"), "author@n", (Var("V@A"),)),
...                  Triple(Var("V@A"), "~author@n", (Const("The Sea"),))))
>>> render(t, {"n": TableRef("Booker Prize")}, {Var("?"): ("novel", "novels")}, 2)
'Which novels are listed in the Wikipedia table "Booker Prize" with the same author as "The Sea"?'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from seekgraph.synth.noun_classes import noun_classes
from seekgraph.synth.phrasing.tables import TableRef
from seekgraph.synth.phrasing.words import join, relation_words, singular
from seekgraph.synth.shaper.kp import (
    Const,
    KPTask,
    RelationSpec,
    Term,
    Triple,
    Var,
    parse_relation,
)

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend

# what a variable is called when nothing says what its values are
UNKNOWN_KIND = ("topic", "topics")


def article(word: str) -> str:
    """'a' or 'an' before `word`, by how it is said (good enough for kind nouns and headers).

    >>> [article(w) for w in ("author", "country", "U.S state", "university", "MVP", "UK city")]
    ['an', 'a', 'a', 'a', 'an', 'a']
    """
    if word[:1].isupper() and (word[1:2].isupper() or word[1:2] == "."):
        # an acronym is said letter by letter: "an MVP", "a U.S state", "a UK city"
        return "an" if word[0] in "AEFHILMNORSX" else "a"
    if word.lower().startswith(("uni", "use", "usu", "eu", "one")):
        return "a"
    return "an" if word[:1].lower() in "aeiou" else "a"


@dataclass
class _Renderer:
    """One rendering: which variables are described where, and which tables were named."""

    task: KPTask
    tables: Mapping[str, TableRef]
    kinds: Mapping[Var, tuple[str, str]]
    labels: Mapping[str, str] = field(default_factory=dict)
    named_tables: list[str] = field(default_factory=list)
    references: dict[Var, str] = field(default_factory=dict)

    def words(self, spec: RelationSpec) -> str:
        """What the question calls a relation: its column's header as a sentence says it
        (`labels`, keyed ``name@table``), else the relation's name in words."""
        return noun_words(self.labels.get(f"{spec.name}@{spec.table}") or relation_words(spec.name))

    def definitions(self, var: Var) -> list[Triple]:
        return [t for t in self.task.triples if t.subject == var]

    def kind(self, var: Var) -> tuple[str, str]:
        return self.kinds.get(var) or UNKNOWN_KIND

    def table(self, table_id: str) -> str:
        """The table's full name on its first mention, its quoted title after that (with its
        section when another named table shares the title)."""
        ref = self.tables.get(table_id) or TableRef(table_id)
        if table_id not in self.named_tables:
            self.named_tables.append(table_id)
            return ref.where()
        titles = [self.tables.get(t, TableRef(t)).title for t in self.named_tables]
        if titles.count(ref.title) > 1:
            return "the table " + ref.quoted(marks=False)
        return "the table " + TableRef(ref.title).quoted(marks=False)

    def noun_phrase(self, term: Term) -> str:
        """A constant quoted, a variable described in place ("the country of "X" in …", "the
        writer listed in … with …") or by its sentence's name ("such a writer")."""
        if isinstance(term, Const):
            return f'"{term.text}"'
        if term in self.references:
            return self.references[term]
        role = self.role(term)
        if role is not None:
            return role
        return f"the {self.kind(term)[0]} {self.tail(term)}"

    def role(self, var: Var) -> str | None:
        """'the RELATION of X in TABLE' when `var` is defined by one inverse fact, else None."""
        (t,) = self.definitions(var)
        return self.value_of(t, one=True) if _is_inverse_fact(t) else None

    def value_of(self, t: Triple, one: bool = False) -> str:
        """An inverse fact ``[S, ~r@T, O]`` read as what S is: 'the RELATION of "O" in TABLE';
        'the RELATION of the KIND listed in TABLE with …' when O is a row of the same table;
        'the RELATION listed in TABLE for …' when O is described in place otherwise ('the
        RELATION, in any table, of …' for a fact of no table). With `one`, S is one thing and
        a plural header is said in the singular ("a director that is the director of "Kozara"",
        not "the directors of")."""
        spec = parse_relation(t.relation)
        words = _one_of(self.words(spec)) if one else self.words(spec)
        obj = t.objects[0]
        if not isinstance(obj, Var) or obj in self.references:
            where = f" in {self.table(spec.table)}" if spec.table else ""
            return f"the {words} of {self.objects(t)}{where}"
        (d,) = self.definitions(obj)
        inner = parse_relation(d.relation)
        if spec.table and inner.kind == "fact" and not inner.inverse and inner.table == spec.table:
            return f"the {words} of {self.noun_phrase(obj)}"
        if not spec.table:
            return f"the {words}, in any table, of {self.noun_phrase(obj)}"
        # "the title listed in "Booker Prize" for the author of ...": the row the title is in
        return f"the {words} listed in {self.table(spec.table)} for {self.noun_phrase(obj)}"

    def tail(self, var: Var) -> str:
        """What follows a variable's noun: 'listed in TABLE with …', 'linked from …', 'that is
        the RELATION of …'."""
        role = self.role(var)
        if role is not None:
            return f"that is {role}"
        (t,) = self.definitions(var)
        spec = parse_relation(t.relation)
        if spec.kind == "link":
            if spec.inverse:
                return f"linked from the Wikipedia article on {self.objects(t)}"
            return f"whose Wikipedia article links to the article on {self.objects(t)}"
        if not spec.table:
            return f"with {self.attribute(t)}"
        return f"listed in {self.table(spec.table)} with {self.attribute(t)}"

    def objects(self, t: Triple) -> str:
        return " or ".join(self.noun_phrase(o) for o in t.objects)

    def attribute(self, t: Triple) -> str:
        """``RELATION OBJECT`` of a forward fact: 'country "Norway"', 'the same country as
        "Jon Fosse"' (the object is the relation's value of another row; 'the same club as
        "X" in TABLE' when that row is in another table), 'such a writer as
        author' (the object has a sentence of its own), 'an author listed in …' (the object
        described in place)."""
        spec = parse_relation(t.relation)
        words = self.words(spec)
        obj = t.objects[0]
        if not isinstance(obj, Var):
            return f"{words} {self.objects(t)}"
        if obj in self.references:
            # "with such a writer as its author", "with such a language among its official
            # languages" (a plural header holds several)
            if singular(words.split()[-1]) != words.split()[-1]:
                return f"{self.references[obj]} among its {words}"
            return f"{self.references[obj]} as its {words}"
        (d,) = self.definitions(obj)
        inner = parse_relation(d.relation)
        if (
            inner.kind == "fact"
            and inner.inverse
            and (inner.name, inner.table)
            == (
                spec.name,
                spec.table,
            )
        ):
            return f"the same {words} as {self.objects(d)}"
        if (
            inner.kind == "fact"
            and inner.inverse
            and inner.table
            and self.words(inner) == words
            and all(not isinstance(o, Var) or o in self.references for o in d.objects)
        ):
            # "the same club as "Guy Campbell" in TABLE", not "a club that is the club of …"
            return f"the same {words} as {self.objects(d)} in {self.table(inner.table)}"
        one = _one_of(words)
        return f"{article(one)} {one} {self.tail(obj)}"

    def predicates(self, subject: Var, plural: bool) -> str:
        """Everything the triples of `subject` say of it, as verb phrases joined by 'and'."""
        be, have = ("are", "have") if plural else ("is", "has")
        phrases: list[str] = []
        listed: dict[str, list[Triple]] = {}
        for t in self.definitions(subject):
            spec = parse_relation(t.relation)
            if spec.kind == "fact" and not spec.inverse:
                listed.setdefault(spec.table, []).append(t)
        done: set[str] = set()
        for t in self.definitions(subject):
            spec = parse_relation(t.relation)
            if spec.kind == "link":
                if spec.inverse:
                    phrases.append(f"{be} linked from the Wikipedia article on {self.objects(t)}")
                else:
                    phrases.append(
                        f"{have} a Wikipedia article that links to the article on {self.objects(t)}"
                    )
            elif spec.inverse:
                phrases.append(f"{be} {self.value_of(t)}")
            elif not spec.table:
                phrases.append(f"{have} {self.attribute(t)}")
            elif spec.table not in done:
                done.add(spec.table)
                where = self.table(spec.table)  # named before the attributes' own tables
                attributes = " and with ".join(self.attribute(f) for f in listed[spec.table])
                phrases.append(f"{be} listed in {where} with {attributes}")
        return join(phrases)

    def sentences(self, n_answers: int) -> str:
        """The definitions of the variables with several triples, innermost first, then the
        question."""
        out = []
        order = [v for v in reversed(self.task.variables()) if not v.is_target]
        for var in _innermost_first(self.task, order):
            if len(self.definitions(var)) < 2:
                continue
            kind = self.kind(var)[0]
            if any(r.endswith(f" {kind}") for r in self.references.values()):
                kind = f"{kind} {var.name.removeprefix('V@')}"
            body = self.predicates(var, plural=False)
            self.references[var] = f"such {article(kind)} {kind}"
            out.append(f"{article(kind).capitalize()} {kind} {body}.")
        plural = n_answers != 1
        target = self.definitions(self.task.target)
        if not plural and len(target) == 1 and _is_inverse_fact(target[0]):
            # "Who is the author of …?", not "Which author is the author of …?"
            role = self.words(parse_relation(target[0].relation)).split()[-1:]
            person = any("person" in noun_classes(w) for w in role)
            out.append(
                f"{'Who' if person else 'What'} {self.predicates(self.task.target, plural)}?"
            )
        else:
            kind = self.kind(self.task.target)[1 if plural else 0]
            out.append(f"Which {kind} {self.predicates(self.task.target, plural)}?")
        return " ".join(out)


# the one a "VERB by" header names: the maker ("Developed by": the developer), or the one
# in the other role ("Succeeded by": the successor); other "by" headers keep their words
_MAKERS = {
    "produced": "producer",
    "managed": "manager",
    "composed": "composer",
    "developed": "developer",
    "designed": "designer",
    "owned": "owner",
    "founded": "founder",
    "published": "publisher",
    "maintained": "maintainer",
    "painted": "painter",
    "performed": "performer",
    "discovered": "discoverer",
    "manufactured": "manufacturer",
    "presented": "presenter",
    "distributed": "distributor",
    "created": "creator",
    "written": "writer",
    "directed": "director",
    "edited": "editor",
    "illustrated": "illustrator",
    "invented": "inventor",
    "operated": "operator",
    "narrated": "narrator",
    "sculpted": "sculptor",
    "translated": "translator",
    "coached": "coach",
    "hosted": "host",
    "sponsored": "sponsor",
    "built": "builder",
    "made": "maker",
    "held": "holder",
    "led": "leader",
    "won": "winner",
    "succeeded": "successor",
    "followed": "successor",
    "preceded": "predecessor",
    "replaced": "replacement",
}


def noun_words(words: str) -> str:
    """A header's words as a noun a KP question can say "the ... of" and "a ... that is" with:
    a "VERB by" header is the one it names ("Developed by" → "developer", "Succeeded by" →
    "successor"); other words stay.

    >>> noun_words("developed by"), noun_words("Created by"), noun_words("original NFL team")
    ('developer', 'creator', 'original NFL team')
    >>> noun_words("Succeeded by"), noun_words("produced by"), noun_words("Chosen by")
    ('successor', 'producer', 'Chosen by')
    """
    parts = words.split()
    verb = parts[0].lower() if len(parts) == 2 and parts[1].lower() == "by" else ""
    return _MAKERS.get(verb, words)


def _one_of(words: str) -> str:
    """A header's words naming one value of its column: a plural header ("Major ovals") is
    said in the singular after "a" ("a major oval that is ...").

    >>> _one_of("major ovals"), _one_of("series"), _one_of("news"), _one_of("no. of titles")
    ('major oval', 'series', 'news', 'no. of titles')
    >>> _one_of("sources of wealth")
    'source of wealth'
    """
    *rest, last = words.split()
    if "of" in rest and rest.index("of") >= 1:
        head = rest.index("of") - 1
        if rest[head].lower() not in ("no.", "number", "numbers"):
            # "sources of wealth": one source of wealth
            return " ".join([*rest[:head], singular(rest[head]), *rest[head + 1 :], last])
    if last.lower().endswith(("ics", "news")) or last != last.lower() or "of" in rest:
        return words  # "no. of titles" counts titles: one count, said as the header says it
    return " ".join([*rest, singular(last)])


def _is_inverse_fact(t: Triple) -> bool:
    """Whether `t` is ``[S, ~r@T, O]``: S is the r of O, so S can be named by that role."""
    spec = parse_relation(t.relation)
    return spec.kind == "fact" and spec.inverse


def _innermost_first(task: KPTask, variables: list[Var]) -> list[Var]:
    """`variables` ordered so that a variable comes after every variable its triples use."""
    uses = {
        v: {o for t in task.triples if t.subject == v for o in t.objects if isinstance(o, Var)}
        for v in variables
    }
    ordered: list[Var] = []
    while len(ordered) < len(variables):
        ready = [v for v in variables if v not in ordered and uses[v] <= {*ordered, task.target}]
        ordered.append(ready[0] if ready else next(v for v in variables if v not in ordered))
    return ordered


def render(
    task: KPTask,
    tables: Mapping[str, TableRef] | None = None,
    kinds: Mapping[Var, tuple[str, str]] | None = None,
    n_answers: int = 2,
    labels: Mapping[str, str] | None = None,
) -> str:
    """The question of an executable task: `tables` says how to name each table_id, `kinds`
    what each variable is (singular, plural; from its values' pages), `n_answers` whether to
    ask for one or several, `labels` how to call each ``relation@table_id`` (its header)."""
    return _Renderer(task, tables or {}, kinds or {}, labels or {}).sentences(n_answers)


def check_question(
    question: str, constants: Iterable[Const], answer_names: Iterable[str]
) -> str | None:
    """``None`` when valid, else a short reason: ``missing_constant`` or ``names_answer``."""
    lowered = question.lower()
    for c in constants:
        if c.text.lower() not in lowered:
            return "missing_constant"
    for name in answer_names:
        if name and re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", lowered):
            return "names_answer"
    return None


def paraphrase(
    question: str, backend: LLMBackend, constants: Iterable[Const], answer_names: Iterable[str]
) -> str | None:
    """An LLM rewording of `question`, or None when it drops a constant or names the answer."""
    consts = list(constants)
    messages = [
        {
            "role": "system",
            "content": "Rewrite the question as one fluent English question. "
            "Keep every quoted name exactly. Do not answer it.",
        },
        {"role": "user", "content": question},
    ]
    text = backend.generate(messages, max_tokens=256, temperature=0.0).text.strip()
    if not text or check_question(text, consts, answer_names) is not None:
        return None
    return text
