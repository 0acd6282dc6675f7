"""What the question-only teacher concludes from the tables and pages it read: the answer.

Planning (`seekgraph.agent.questions`) says what the question asks; reading
(`seekgraph.agent.reading`, driven by `seekgraph.agent.teacher`) gathers the rows the visits and
snippets showed. Solving works on those rows alone, as a person with the printed pages would:
list the rows (Basic), intersect the tables' entities (Union), find the one entity the clues
describe and the others sharing its pivot (Reverse-Union), or propagate a KP task's constants
through its clauses until the unknowns settle (`KPSolver`; a link clause is checked on the
linking page's text). The records are in the scorer's format (`seekgraph.common.answers`),
spelled as the pages spell them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from seekgraph.agent.questions import Clause, QuestionPlan, TableName, Term
from seekgraph.agent.reading import Table, cell_in, mentions, split_cell, value_key
from seekgraph.common.answers import AnswerRecord
from seekgraph.synth.phrasing.words import join


@dataclass
class Solver:
    """The answer to a planned question from what was read: `tables` by the name the question
    gives them, `pages` (a linking page's name -> its evidence lines)."""

    plan: QuestionPlan
    tables: dict[TableName, Table]
    pages: dict[str, list[str]]

    def answer(self) -> tuple[list[AnswerRecord], str]:
        kind = self.plan.kind
        if kind == "list":
            return self.answer_list()
        if kind == "union":
            return self.answer_union()
        if kind == "reverse":
            return self.answer_reverse()
        if kind == "kp":
            return self.answer_kp()
        return [], "The question is in a form I cannot break down, and the pages do not answer it."

    def rows_of(self, names: Sequence[TableName], nouns: Sequence[str]) -> list[tuple[Table, int]]:
        """(table, key column) of each named table that was read: the column the question's
        role names ("listed as winners": "Winner") when one does, else its noun's."""
        out = []
        for name, noun in zip(names, nouns, strict=False):
            table = self.tables.get(name)
            if table is not None:
                role = table.named_column(self.plan.role) if self.plan.role else None
                out.append((table, table.key_column(noun) if role is None else role))
        return out

    def records(self, found: Sequence[tuple[Table, int, tuple[str, ...]]]) -> list[AnswerRecord]:
        """One record per entity (first spelling kept), with the asked attributes of every row
        that names it, in the order the rows came."""
        names: dict[str, str] = {}
        attributes: dict[str, dict[str, list[str]]] = {}
        for table, key, row in found:
            k = value_key(row[key])
            if not k:
                continue
            names.setdefault(k, row[key])
            attrs = attributes.setdefault(k, {})
            for word in self.plan.attributes:
                j = table.column(word)
                if j is None or j == key or not row[j]:
                    continue
                values = attrs.setdefault(word, [])
                if row[j] not in values:
                    values.append(row[j])
        return [AnswerRecord(names[k], attributes[k]) for k in names]

    def answer_list(self) -> tuple[list[AnswerRecord], str]:
        read = self.rows_of(self.plan.tables, self.plan.nouns)
        if not read:
            return [], "I could not find the table the question names."
        table, key = read[0]
        records = self.records([(table, key, row) for row in table.rows])
        return records, (
            f"The table lists {len(records)} {self.plan.nouns[0]} in its '{table.header[key]}' "
            "column; I give each with the asked columns of its rows."
        )

    def answer_union(self) -> tuple[list[AnswerRecord], str]:
        read = self.rows_of(self.plan.tables, self.plan.nouns)
        if len(read) < len(self.plan.tables):
            missing = len(self.plan.tables) - len(read)
            return [], f"I could not read {missing} of the tables, so I cannot intersect them."
        common = set.intersection(*({value_key(r[k]) for r in t.rows} - {""} for t, k in read))
        found = [(t, k, r) for t, k in read for r in t.rows if value_key(r[k]) in common]
        records = self.records(found)
        sizes = join([str(len({value_key(r[k]) for r in t.rows})) for t, k in read])
        return records, (
            f"The tables list {sizes} entries; {len(records)} of them appear in every table."
        )

    def answer_reverse(self) -> tuple[list[AnswerRecord], str]:
        read = self.rows_of(self.plan.tables, self.plan.nouns)
        if not read:
            return [], "I could not find the tables the question names."
        anchors: set[str] = set()
        for table, key in read:
            columns = [(table.column(rel, [value]), value) for rel, value in self.plan.clues]
            if not columns or any(j is None for j, _ in columns):
                continue
            for row in table.rows:
                if all(cell_in(row[j], {value_key(v)}) for j, v in columns if j is not None):
                    anchors.add(value_key(row[key]))
        if not anchors:
            return [], "No row of the tables matches every clue, so I cannot find the anchor."
        pivots: set[str] = set()
        shown: list[str] = []
        for table, key in read:
            j = table.column(self.plan.pivot)
            for row in table.rows:
                if j is not None and j != key and value_key(row[key]) in anchors and row[j]:
                    pivots.add(value_key(row[j]))
                    shown.append(row[j])
        found = []
        for table, key in read:
            j = table.column(self.plan.pivot)
            if j is None or j == key:
                continue
            found += [
                (table, key, r)
                for r in table.rows
                if value_key(r[j]) in pivots and value_key(r[key]) not in anchors
            ]
        records = self.records(found)
        return records, (
            f"Only one entry matches the clues; its {self.plan.pivot} is "
            f"{join(list(dict.fromkeys(shown))) or 'not shown'}, shared by {len(records)} others."
        )

    def answer_kp(self) -> tuple[list[AnswerRecord], str]:
        domains = KPSolver(self.plan.clauses, self.tables, self.pages).solve()
        answer = domains.get("answer") or {}
        resolved = [
            f"entity {v} is {join(sorted(d.values())[:4])}"
            for v, d in sorted(domains.items())
            if v != "answer" and d
        ]
        note = ("From the rows I read, " + "; ".join(resolved) + ". ") if resolved else ""
        if not answer:
            return [], note + "The clauses leave no entity that satisfies them all."
        return [AnswerRecord(n) for n in answer.values()], note + (
            f"{len(answer)} entr{'y' if len(answer) == 1 else 'ies'} satisfy every clause."
        )


class KPSolver:
    """The unknowns of a KP question, narrowed clause by clause until nothing changes.

    A row clause (`Clause.kind == "row"`) relates a table's entity column (`key`) to the column
    its relation names; whichever side is known narrows the other. A link clause keeps the
    candidates the linking page mentions. When nothing narrows any more and an unknown is still
    open, its candidates start as every value of its column (a reader would scan the column),
    once per unknown. Not `strict`, an unknown left without candidates narrows nothing, so the
    values that led to the dead end stay: the rows to search for next.
    """

    def __init__(
        self,
        clauses: Sequence[Clause],
        tables: dict[TableName, Table],
        pages: dict[str, list[str]],
        strict: bool = True,
    ) -> None:
        self.clauses = clauses
        self.strict = strict
        self.tables = tables
        self.pages = pages
        self.domains: dict[str, dict[str, str]] = {}

    def known(self, terms: Sequence[Term]) -> set[str] | None:
        out: set[str] = set()
        for t in terms:
            if not t.unknown:
                out.add(value_key(t.text))
            elif self.domains.get(t.text) or (t.text in self.domains and self.strict):
                out |= set(self.domains[t.text])
            else:  # unknown (or, not strict, a dead end: what led there stays)
                return None
        return out

    def narrow(self, terms: Sequence[Term], found: dict[str, str]) -> bool:
        changed = False
        for t in terms:
            if not t.unknown:
                continue
            if t.text not in self.domains:
                self.domains[t.text] = dict(found)
                changed = True
            else:
                kept = {k: v for k, v in self.domains[t.text].items() if k in found}
                changed |= kept != self.domains[t.text]
                self.domains[t.text] = kept
        return changed

    def columns(self, clause: Clause) -> tuple[Table, int, int] | None:
        table = self.tables.get(clause.table) if clause.table else None
        if table is None:
            return None
        key = table.key_column()
        cells = [t.text for t in clause.cells if not t.unknown]
        j = table.column(clause.relation, cells)
        if j is None:
            return None
        return table, key, j

    def step(self, clause: Clause) -> bool:
        if clause.kind == "link":
            dst = self.known(clause.cells)
            texts = [ln for t in clause.key if not t.unknown for ln in self.pages.get(t.text, [])]
            if dst is None or not texts:
                return False
            page = " ".join(texts)
            found = {k: v for k, v in self.domains_of(clause.cells).items() if mentions(page, v)}
            return self.narrow(clause.cells, found)
        cols = self.columns(clause)
        if cols is None:
            return False
        table, key, j = cols
        changed = False
        cells = self.known(clause.cells)
        if cells is not None:
            found = {value_key(r[key]): r[key] for r in table.rows if cell_in(r[j], cells)}
            changed |= self.narrow(clause.key, found)
        keys = self.known(clause.key)
        if keys is not None:
            found = {
                value_key(v): v
                for r in table.rows
                if value_key(r[key]) in keys
                for v in split_cell(r[j])
            }
            changed |= self.narrow(clause.cells, found)
        return changed

    def domains_of(self, terms: Sequence[Term]) -> dict[str, str]:
        out: dict[str, str] = {}
        for t in terms:
            out |= self.domains.get(t.text, {}) if t.unknown else {value_key(t.text): t.text}
        return out

    def seed(self) -> bool:
        """Open one still-unknown variable as the whole column it sits in."""
        for clause in self.clauses:
            cols = self.columns(clause) if clause.kind == "row" else None
            if cols is None:
                continue
            table, key, j = cols
            for terms, column in ((clause.cells, j), (clause.key, key)):
                for t in terms:
                    if t.unknown and t.text not in self.domains and t.text != "answer":
                        self.domains[t.text] = {
                            value_key(v): v for r in table.rows for v in split_cell(r[column])
                        }
                        return True
        return False

    def solve(self) -> dict[str, dict[str, str]]:
        for _ in range(4 * len(self.clauses) + 4):
            if any(self.step(c) for c in self.clauses):
                continue
            if not self.seed():
                break
        return self.domains
