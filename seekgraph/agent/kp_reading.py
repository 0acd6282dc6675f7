"""Read a Knowledge-Projection question back into clauses, as a reader takes it apart.

The KP questions of this project (`seekgraph.synth.shaper.questions`) are English sentences of
a fixed grammar: sentences that introduce a variable ("A writer is listed in … with country
"Norway"."), then the question ("Which novels are listed in … with such a writer as its author
and are linked from the Wikipedia article on "Oslo"?"), where a variable defined by one fact
is a noun phrase in place ("the country of "X" in the Wikipedia table "Y"", "an author listed
in … with the same country as "Z""). `read_kp` undoes that grammar and nothing more: every
quoted name is masked first (titles and constants may hold any word), each sentence is split
at its predicates, and each phrase is matched against the forms the grammar has, backtracking
over where a relation's words end. The result is what a solver propagates: a ``row`` clause
says that in a table the row of `key` has `relation` in `cells`; a ``link`` clause that the
article on `key` links to the article on one of `cells`. Unknowns are ``answer`` and ``A``,
``B``, … in the order the question mentions them.

>>> cs = read_kp('Which novels are listed in the Wikipedia table "Booker Prize" with the '
...              'same author as "The Sea"?')
>>> [(c.key, c.relation, c.cells) for c in cs]  # doctest: +NORMALIZE_WHITESPACE
[((Term(text='The Sea', unknown=False),), 'author', (Term(text='A', unknown=True),)),
 ((Term(text='answer', unknown=True),), 'author', (Term(text='A', unknown=True),))]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from seekgraph.agent.question_parts import Clause, TableName, Term, column_names

_QUOTED = re.compile(r'"([^"]*)"')
_MASK = r'"#(\d+)"'
_TABLE = re.compile(
    rf"^(?:the first \d+ rows of )?the (?P<full>Wikipedia )?table {_MASK}"
    rf"(?: \((?:section {_MASK}|table (?:with columns|whose first columns are) "
    rf"(?P<columns>[^()]+?)(?:, starting with {_MASK})?)\))?$"
)
_CONSTS = re.compile(rf"^{_MASK}(?: or {_MASK})*$")
_PREDICATES = re.compile(r"(?:, | and )(?=(?:is|are|has|have) )")
_ANSWER = Term("answer", True)
# words a relation's name never holds: they belong to the grammar around it
_NOT_RELATION = re.compile(r'["(),]|\b(?:listed in|linked from|whose|Wikipedia|rows of|that is)\b')


def _is_relation(text: str) -> bool:
    """Whether `text` can be a relation's name (it holds none of the grammar's words)."""
    return _NOT_RELATION.search(text) is None


Clauses = tuple[Clause, ...]
Phrase = tuple[tuple[Term, ...], Clauses]  # what a noun phrase names, and what defines it


def _splits(text: str, sep: str) -> Iterator[tuple[str, str]]:
    """Every (left, right) of `text` around one occurrence of `sep`, leftmost first."""
    start = text.find(sep)
    while start > 0:
        yield text[:start], text[start + len(sep) :]
        start = text.find(sep, start + 1)


def _row(
    key: tuple[Term, ...], relation: str, cells: tuple[Term, ...], table: TableName | None
) -> Clause:
    return Clause("row", key, relation, cells, table)


def _rename(clauses: Clauses, old: Term, new: Term) -> Clauses:
    def swap(terms: tuple[Term, ...]) -> tuple[Term, ...]:
        return tuple(new if t == old else t for t in terms)

    return tuple(replace(c, key=swap(c.key), cells=swap(c.cells)) for c in clauses)


@dataclass
class _Reader:
    """One question: its masked names, the variables its sentences introduced, its tables."""

    names: list[str]
    refs: dict[str, Term] = field(default_factory=dict)  # "such a writer" -> its variable
    tables: dict[str, TableName] = field(default_factory=dict)  # title -> its full name
    count: int = 0

    def var(self) -> Term:
        self.count += 1
        return Term(f"#{self.count}", True)

    def table(self, text: str) -> TableName | None:
        m = _TABLE.match(text)
        if not m:
            return None
        title = self.names[int(m.group(2))]
        section = self.names[int(m.group(3))] if m.group(3) else ""
        if not m.group("full") and not section and title in self.tables:
            return self.tables[title]
        first = self.names[int(m.group(5))] if m.group(5) else ""
        name = TableName(title, section, column_names(m.group("columns")), first)
        if m.group("full"):
            self.tables.setdefault(title, name)
        return name

    # noun phrases
    def noun_phrase(self, text: str) -> Phrase | None:
        """Constants ('"a" or "b"'), 'such a KIND', a role ('the R of …') or 'the KIND TAIL'."""
        if _CONSTS.match(text):
            return tuple(Term(self.names[int(i)], False) for i in re.findall(r'"#(\d+)"', text)), ()
        if text in self.refs:
            return (self.refs[text],), ()
        role = self.role(text)
        if role is not None:
            return role
        if text.startswith("the "):
            for _, tail in _splits(text[4:], " "):
                var = self.var()
                clauses = self.tail(var, tail)
                if clauses is not None:
                    return (var,), clauses
        return None

    def role(self, text: str) -> Phrase | None:
        """'the R listed in TABLE for NP', 'the R, in any table, of NP', 'the R of NP in
        TABLE' or 'the R of NP'."""
        if not text.startswith("the "):
            return None
        body = text[4:]
        for relation, rest in _splits(body, " listed in "):
            for where, inner in _splits(rest, " for "):
                table = self.table(where)
                if table is not None and (got := self._of(relation, inner, table)) is not None:
                    return got
        for relation, rest in _splits(body, ", in "):
            for where, inner in _splits(rest, ", of "):
                table = None if where == "any table" else self.table(where)
                if table is not None or where == "any table":
                    got = self._of(relation, inner, table)
                    if got is not None:
                        return got
        for relation, rest in _splits(body, " of "):
            for inner, where in _splits(rest, " in "):
                # only constants and earlier sentences' names take a table after them: a noun
                # phrase in place ending in a table is 'the R of the KIND listed in T with …'
                named = _CONSTS.match(inner) is not None or inner in self.refs
                table = self.table(where) if named else None
                if table is not None and (got := self._of(relation, inner, table)) is not None:
                    return got
            if (got := self._of(relation, rest, None, same_table=True)) is not None:
                return got
        return None

    def _of(
        self, relation: str, inner: str, table: TableName | None, same_table: bool = False
    ) -> Phrase | None:
        """The RELATION of what `inner` names, in `table`; with `same_table`, in the table
        `inner`'s own row is listed in ('the author of the novel listed in T with …'), or in
        no table when `inner` is constants."""
        if not _is_relation(relation):
            return None
        key = self.noun_phrase(inner)
        if key is None:
            return None
        if same_table:
            rows = [c for c in key[1] if c.kind == "row" and c.key == key[0] and c.table]
            if key[1] and not rows:
                return None
            table = rows[-1].table if rows else None
        var = self.var()
        return (var,), (*key[1], _row(key[0], relation, (var,), table))

    def tail(self, var: Term, text: str) -> Clauses | None:
        """What follows a described variable's noun ('listed in … with …', 'that is the …')."""
        if text.startswith("that is "):
            role = self.role(text[8:])
            return None if role is None else _rename(role[1], role[0][0], var)
        return self.predicate(var, text, verb="", have="")

    # predicates
    def predicates(self, subject: Term, text: str) -> Clauses | None:
        out: list[Clause] = []
        for part in _PREDICATES.split(text):
            got = self.predicate(subject, part)
            if got is None:
                return None
            out.extend(got)
        return tuple(out)

    def predicate(
        self, subject: Term, text: str, verb: str = "(?:is|are) ", have: str = "(?:has|have) "
    ) -> Clauses | None:
        m = re.match(rf"^{verb}listed in (.+)$", text)
        if m:
            for where, attributes in _splits(m.group(1), " with "):
                table = self.table(where)
                if table is not None:
                    got = self.attributes(subject, attributes.split(" and with "), table)
                    if got is not None:
                        return got
        m = re.match(rf"^{verb}linked from the Wikipedia article on (.+)$", text)
        if m and (key := self.noun_phrase(m.group(1))) is not None:
            return (*key[1], Clause("link", key[0], "links to", (subject,)))
        m = re.match(
            rf"^(?:{have}a Wikipedia article that|whose Wikipedia article) links to the "
            r"article on (.+)$",
            text,
        )
        if m and (cells := self.noun_phrase(m.group(1))) is not None:
            return (*cells[1], Clause("link", (subject,), "links to", cells[0]))
        if verb:
            m = re.match(rf"^{verb}(the .+)$", text)
            if m and (role := self.role(m.group(1))) is not None:
                return _rename(role[1], role[0][0], subject)
            m = re.match(rf"^{have}(.+)$", text)
            if m:
                return self.attribute(subject, m.group(1), None)
        elif text.startswith("with "):
            return self.attribute(subject, text[5:], None)
        return None

    def attributes(
        self, subject: Term, parts: list[str], table: TableName | None
    ) -> Clauses | None:
        out: list[Clause] = []
        for part in parts:
            got = self.attribute(subject, part, table)
            if got is None:
                return None
            out.extend(got)
        return tuple(out)

    def attribute(self, subject: Term, text: str, table: TableName | None) -> Clauses | None:
        """'R "c"', 'the same R as NP', 'the same R as "c" in TABLE', 'such a KIND as its R',
        'such a KIND among its R' or 'a R TAIL'."""
        if text.startswith("the same "):
            for relation, inner in _splits(text[9:], " as "):
                if not _is_relation(relation):
                    continue
                for named, where in _splits(inner, " in "):
                    # 'the same R as "X" in TABLE': X's row is in another table
                    other = self.table(where)
                    if other is not None and (_CONSTS.match(named) or named in self.refs):
                        key = self.noun_phrase(named)
                        if key is not None:
                            var = self.var()
                            return (
                                _row(key[0], relation, (var,), other),
                                _row((subject,), relation, (var,), table),
                            )
                key = self.noun_phrase(inner)
                if key is not None:
                    var = self.var()
                    same = (
                        _row(key[0], relation, (var,), table),
                        _row((subject,), relation, (var,), table),
                    )
                    return (*key[1], *same)
        for ref, term in self.refs.items():
            for link in (" as its ", " among its "):
                relation = text[len(ref) + len(link) :]
                if text.startswith(ref + link) and _is_relation(relation):
                    return (_row((subject,), relation, (term,), table),)
        m = re.match(r"^an? (.+)$", text)
        if m:
            for relation, tail in _splits(m.group(1), " "):
                if not _is_relation(relation):
                    break
                var = self.var()
                clauses = self.tail(var, tail)
                if clauses is not None:
                    return (*clauses, _row((subject,), relation, (var,), table))
        m = re.match(rf'^([^"]+?) ({_MASK}(?: or {_MASK})*)$', text)
        if m and (cells := self.noun_phrase(m.group(2))) is not None:
            return (_row((subject,), m.group(1), cells[0], table),)
        return None


def read_kp(question: str) -> tuple[Clause, ...] | None:
    """The clauses of a KP question in the project's form, or None when it is not one."""
    names: list[str] = []

    def mask(m: re.Match[str]) -> str:
        names.append(m.group(1))
        return f'"#{len(names) - 1}"'

    text = _QUOTED.sub(mask, " ".join(question.split()))
    reader = _Reader(names)
    *definitions, ask = re.split(r"(?<=[.?]) (?=[A-Z])", text)
    clauses: list[Clause] = []
    for sentence in definitions:
        m = re.match(r"^(An?) (.+?) ((?:is|has) .+)\.$", sentence)
        var = reader.var()
        got = reader.predicates(var, m.group(3)) if m else None
        if m is None or got is None:
            return None
        clauses.extend(got)
        reader.refs[f"such {m.group(1).lower()} {m.group(2)}"] = var
    m = re.match(r"^(?:Which (.+?)|What|Who) ((?:is|are|has|have) .+)\?$", ask)
    got = reader.predicates(_ANSWER, m.group(2)) if m else None
    if got is None:
        return None
    clauses.extend(got)
    return _letters(tuple(clauses))


def _letters(clauses: Clauses) -> Clauses:
    """Unknowns named A, B, … in order of first mention."""
    order: dict[Term, Term] = {}
    for c in clauses:
        for t in (*c.key, *c.cells):
            if t.unknown and t != _ANSWER and t not in order:
                n = len(order)
                order[t] = Term(chr(65 + n) if n < 26 else f"V{n}", True)
    return tuple(
        replace(
            c,
            key=tuple(order.get(t, t) for t in c.key),
            cells=tuple(order.get(t, t) for t in c.cells),
        )
        for c in clauses
    )
