"""What a reader takes from a question before searching: the tables it names, what it asks for,
its clues and, for a Knowledge-Projection question, its clauses.

The question-only teacher plans from this and from nothing else. It reads the question forms the
task synthesis writes (`seekgraph.synth.leaper.questions`, `seekgraph.synth.shaper.questions`)
the way a person reads them: quoted table titles with their sections, the kind of entity asked
for ("Which authors …"), the attributes ("For each, give their year"), a Reverse-Union task's
clues ("find the only one whose title is The Sea") and pivot, a KP task's clauses ("Which
novels are listed in the Wikipedia table "Prix Goncourt" with the same author as …?", read by
`seekgraph.agent.kp_reading`). A question
in no known form gives a plan of kind ``unknown`` with whatever quoted names it holds.
The plan also says what to look for on a table page (`visit_goal`).

>>> p = parse_question('Which authors are listed in the Wikipedia table "Booker Prize" '
...                    '(section "Winners")? For each, give their country and their year.')
>>> p.kind, p.tables, p.nouns, p.attributes
('list', (TableName(title='Booker Prize', section='Winners', columns=(), first_row=''),), ('authors',), ('country', 'year'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from seekgraph.agent.kp_reading import read_kp
from seekgraph.agent.question_parts import Clause, TableName, Term, column_names
from seekgraph.synth.phrasing.words import join

__all__ = ["Clause", "QuestionPlan", "TableName", "Term", "parse_question", "visit_goal"]

# a quoted table as `seekgraph.synth.phrasing.tables.TableRef.quoted` writes it: its title, then
# in brackets its section (or, without one, its columns), "first N rows" and "a selection"
# (each when it applies)
_COLUMNS = r'table (?:with columns|whose first columns are) [^()"]+?'
_MARKS = (
    rf'(?: \((?:section "[^"]+"|{_COLUMNS}(?:, starting with "[^"]+")?)?'
    r"(?:(?:, )?first \d+ rows)?(?:(?:, )?a selection)?\))?"
)
_REF = rf'"[^"]+"{_MARKS}'
_REF_PARTS = re.compile(
    r'"(?P<title>[^"]+)"(?: \((?:section "(?P<section>[^"]+)"|table (?:with columns|whose first '
    r'columns are) (?P<columns>[^()"]+?)(?:, starting with "(?P<first>[^"]+)")?)?'
    r"(?:(?:, )?first \d+ rows)?(?:(?:, )?a selection)?\))?"
)
_WHERE = rf"(?:the first \d+ rows of )?the Wikipedia table (?P<ref>{_REF})"
_SELECTION = r"(?: The table gives a selection, not all of them\.)?"
_LIST = re.compile(
    rf"^Which (?P<noun>.+?) are listed(?: as (?P<role>[^\"?]+?))? in {_WHERE}\?{_SELECTION}"
    r"(?: For each, give (?P<attrs>.+?)\.)?$"
)
_LIST_KINDS = re.compile(
    rf"^{_WHERE} lists? things of several kinds\. Name each of them\.{_SELECTION}"
    r"(?: For each, give (?P<attrs>.+?)\.)?$",
    re.IGNORECASE,
)
_UNION_KINDS = re.compile(
    rf"^Which (?P<noun>.+?) listed in the Wikipedia table (?P<ref>{_REF}) are also listed, "
    r"(?P<others>.+?)\?(?: For each, give (?P<attrs>.+?)(?:, as each table states them)?\.)?$"
)
_UNION_SAME = re.compile(
    r"^Which (?P<noun>.+?) are listed in (?:both|all \d+) of the Wikipedia tables "
    r"(?P<refs>.+?)\?(?: For each, give (?P<attrs>.+?)(?:, as each table states them)?\.)?$"
)
_OTHER = re.compile(rf"as (?P<noun>.+?), in (?P<ref>{_REF})")
_REVERSE = re.compile(
    r"^Of the (?P<noun>.+?) listed in the Wikipedia tables (?P<refs>.+?), find the only one "
    r"(?P<clues>(?:whose|who|that) .+?)(?: in the same row)?\. Then find (?:its|their) (?P<pivot>.+?) "
    r"and list every other .+? with the same .+?\."
    r"(?: For each, give (?P<attrs>.+?)(?:, as each table states them)?\.)?$"
)
_CLUE_WHOSE = re.compile(
    r'^whose (?:"(?P<q>.+?)" column reads|(?P<rel>.+?) (?:is|are)) (?P<value>.+)$'
)
_CLUE_LISTED = re.compile(r"^that is listed with the (?P<rel>year|date|season) (?P<value>.+)$")
_CLUE_VERB = re.compile(r"^(?:who|that) (?:was |were |is |are )?(?P<rel>.+?) (?:in|on) (?P<v>.+)$")
_ATTR_SPLIT = re.compile(r", and |, | and (?=their |the |where )")


@dataclass(frozen=True)
class QuestionPlan:
    """What the question says, as a reader takes it."""

    kind: str  # list | union | reverse | kp | unknown
    tables: tuple[TableName, ...] = ()
    nouns: tuple[str, ...] = ()  # per table: what its entities are called
    attributes: tuple[str, ...] = ()  # the attribute words asked for
    clues: tuple[tuple[str, str], ...] = ()  # reverse: (relation words, value)
    pivot: str = ""  # reverse: the relation the others share with the anchor
    clauses: tuple[Clause, ...] = ()  # kp
    names: tuple[str, ...] = ()  # every quoted name (titles, sections, constants)
    role: str = ""  # list: the role the entities are listed in ("winners" beside runners-up)


def _refs(text: str) -> tuple[TableName, ...]:
    return tuple(
        TableName(
            m.group("title"),
            m.group("section") or "",
            column_names(m.group("columns")),
            m.group("first") or "",
        )
        for m in _REF_PARTS.finditer(text)
    )


def attribute_words(phrase: str) -> str:
    """'their nation' → 'nation'; 'the year they were born' → 'born'; 'where they were
    born' → 'born'; 'the "Drafted to" column' → 'Drafted to'."""
    phrase = phrase.strip()
    m = re.match(r'^the "(.+)" column$', phrase)
    if m:
        return m.group(1)
    m = re.match(r"^(?:the (?:year|date|\w+) |where )they (?:were |was |are )?(.+)$", phrase)
    if m:
        return m.group(1)
    return re.sub(r"^(?:their|its|the) ", "", phrase)


def _attributes(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    return tuple(attribute_words(p) for p in _ATTR_SPLIT.split(text) if p.strip())


def _clue(text: str) -> tuple[str, str] | None:
    m = _CLUE_WHOSE.match(text)
    if m:
        return (m.group("q") or m.group("rel"), m.group("value"))
    m = _CLUE_LISTED.match(text)
    if m:
        return (m.group("rel"), m.group("value"))
    m = _CLUE_VERB.match(text)
    if m:
        return (m.group("rel"), m.group("v"))
    return None


def parse_question(question: str) -> QuestionPlan:
    """The plan a reader makes from `question` (see the module docstring)."""
    q = " ".join(question.split())
    names = tuple(re.findall(r'"([^"]+)"', q))
    m = _LIST.match(q)
    if m:
        return QuestionPlan(
            "list",
            _refs(m.group("ref")),
            (m.group("noun"),),
            _attributes(m.group("attrs")),
            names=names,
            role=m.group("role") or "",
        )
    m = _LIST_KINDS.match(q)
    if m:
        refs = _refs(m.group("ref"))
        return QuestionPlan("list", refs, ("things",), _attributes(m.group("attrs")), names=names)
    m = _UNION_KINDS.match(q)
    if m:
        others = list(_OTHER.finditer(m.group("others")))
        tables = _refs(m.group("ref")) + tuple(_refs(o.group("ref"))[0] for o in others)
        nouns = (m.group("noun"), *(o.group("noun") for o in others))
        return QuestionPlan("union", tables, nouns, _attributes(m.group("attrs")), names=names)
    m = _UNION_SAME.match(q)
    if m:
        tables = _refs(m.group("refs"))
        nouns = (m.group("noun"),) * len(tables)
        return QuestionPlan("union", tables, nouns, _attributes(m.group("attrs")), names=names)
    m = _REVERSE.match(q)
    if m:
        tables = _refs(m.group("refs"))
        parts = re.split(r" and (?=(?:whose|who|that) )", m.group("clues"))
        clues = tuple(c for c in (_clue(p) for p in parts) if c is not None)
        return QuestionPlan(
            "reverse",
            tables,
            (m.group("noun"),) * len(tables),
            _attributes(m.group("attrs")),
            clues,
            m.group("pivot"),
            names=names,
        )
    clauses = read_kp(q)
    if clauses is not None:
        tables = tuple(dict.fromkeys(c.table for c in clauses if c.table is not None))
        return QuestionPlan("kp", tables, clauses=clauses, names=names)
    return QuestionPlan("unknown", _refs(q), names=names)


def visit_goal(plan: QuestionPlan, name: TableName) -> str:
    """What to look for on a table page: the question's attribute words, clue values and,
    for KP, the relations and constants of the clauses on this table."""
    asked = list(plan.attributes)
    values: list[str] = []
    if plan.kind == "reverse":
        asked += [r for r, _ in plan.clues] + [plan.pivot]
        values += [v for _, v in plan.clues]
    for c in plan.clauses:
        if c.table == name:
            asked.append(c.relation)
            values += [t.text for t in (*c.key, *c.cells) if not t.unknown]
    goal = f"Every row of the table '{name.title}'"
    if asked:
        goal += f" with its {join(list(dict.fromkeys(asked)))}"
    if values:
        goal += f"; the rows of {join(list(dict.fromkeys(values)))}"
    return goal
