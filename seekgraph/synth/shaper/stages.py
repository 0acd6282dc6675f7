"""Import and execution of published WebShaper rows, export, and LLM paraphrases of KP tasks.

The stage objects (`shaper-import`, `shaper-seeds`, `shaper-expand`) are in `seekgraph.synth.stages`.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.shaper.compile import execute
from seekgraph.synth.shaper.kp import LINKED_FROM, LINKS_TO, Const, KPTask, ShaperError, Triple
from seekgraph.synth.shaper.published import read_rows, to_row
from seekgraph.synth.shaper.questions import check_question, paraphrase
from seekgraph.synth.shaper.store import load_tasks, save_tasks

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend

IMPORT_STAGE = "shaper-import"


def import_published(driver: neo4j.Driver, database: str | None, path: Path) -> StageReport:
    """Import every row (kept, or rejected with a reason), then execute the kept ones."""
    report = StageReport(IMPORT_STAGE)
    tasks: list[KPTask] = []
    normalised_rows = 0
    codes: dict[str, int] = {}
    for parsed in read_rows(path):
        if parsed.task is None:
            report.reject(parsed.row_id, parsed.reason, parsed.detail)
            continue
        if parsed.normalised:
            normalised_rows += 1
            for code in parsed.normalised:
                codes[code] = codes.get(code, 0) + 1
        tasks.append(parsed.task)
        report.keep()
    save_tasks(driver, tasks, database)
    status = execute_published(driver, database, tasks)
    report.notes.update(
        {
            "normalised_rows": normalised_rows,
            "normalised_elements": dict(sorted(codes.items())),
            "execution": dict(sorted(status.items())),
        }
    )
    return report.finish()


def _snake(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def map_relation(phrase: str, known: set[str]) -> str | None:
    """A published relation phrase → an executable KP relation, or None.

    ``links to``/``linked from`` map to page links; otherwise the snake-cased phrase, without a
    leading ``is/has/was`` and a trailing ``of/in/by``, must be a known canonical relation;
    ``is X of`` reads the edge backwards (``~X``).
    """
    snake = _snake(phrase)
    if snake in (LINKS_TO, "link_to", "links"):
        return LINKS_TO
    if snake in (LINKED_FROM, "is_linked_from"):
        return LINKED_FROM
    inverse = snake.startswith("is_") and snake.endswith("_of")
    core = re.sub(r"^(is|has|was|had)_", "", snake)
    core = re.sub(r"_(of|in|by)$", "", core)
    for name in (snake, core):
        if name in known:
            return ("~" + name) if inverse and name == core else name
    return None


def execute_published(
    driver: neo4j.Driver, database: str | None, tasks: list[KPTask]
) -> dict[str, int]:
    """Map relations, resolve constants and execute; counts by outcome, stored on each Task."""
    known = {
        r["name"] for r in cypher.read(driver, "shaper/list_relation_names", database=database)
    }
    texts = sorted({c.text for t in tasks for c in t.constants()})
    resolved = {
        r["text"]: (r["ref"], r["label"])
        for r in cypher.read(driver, "shaper/resolve_constants", database=database, texts=texts)
    }
    counts: dict[str, int] = {}
    rows = []
    for task in tasks:
        n_answers = 0
        try:
            triples = []
            for t in task.triples:
                relation = map_relation(t.relation, known)
                if relation is None:
                    raise _Outcome("unmapped_relation")
                triples.append(
                    Triple(
                        _resolve(t.subject, resolved),
                        relation,
                        tuple(_resolve(o, resolved) for o in t.objects),
                    )
                )
            answer = execute(driver, replace(task, triples=tuple(triples)), database)
            n_answers = len(answer)
            outcome = "non_empty" if answer else "empty"
        except _Outcome as e:
            outcome = e.outcome
        except ShaperError:
            outcome = "not_executable"
        counts[outcome] = counts.get(outcome, 0) + 1
        rows.append({"task_id": task.task_id, "exec_status": outcome, "exec_answers": n_answers})
    cypher.run_batches(driver, "shaper/set_task_execution", rows, database=database)
    return counts


class _Outcome(Exception):
    def __init__(self, outcome: str) -> None:
        super().__init__(outcome)
        self.outcome = outcome


def _resolve(term: Any, resolved: dict[str, tuple[str, str]]) -> Any:
    if not isinstance(term, Const):
        return term
    if term.text not in resolved:
        raise _Outcome("unresolved_constant")
    ref, label = resolved[term.text]
    return Const(term.text, ref, label)


def export_tasks(
    driver: neo4j.Driver,
    database: str | None,
    path: Path,
    *,
    source: str | None = None,
    split: str | None = None,
) -> int:
    """Write kept KP tasks in the published format (one JSON object a line); returns rows."""
    tasks = load_tasks(driver, database, source=source)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w", encoding="utf-8") as f:
        for task in tasks:
            if split is not None and task.split != split:
                continue
            row = to_row(task)
            row["split"] = task.split
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            n += 1
    return n


def paraphrase_tasks(
    driver: neo4j.Driver, database: str | None, backend: LLMBackend, *, source: str = "expanded"
) -> StageReport:
    """Reword template questions with an LLM; a paraphrase failing the checks is rejected."""
    report = StageReport("shaper-paraphrase")
    rows = []
    for task in load_tasks(driver, database, source=source):
        text = paraphrase(task.question, backend, task.constants(), task.answer)
        if text is None:
            report.reject(task.task_id, "paraphrase_failed_check", task.question[:300])
            continue
        assert check_question(text, task.constants(), task.answer) is None
        rows.append({"task_id": task.task_id, "question": text, "model": backend.name})
        report.keep()
    cypher.run_batches(driver, "shaper/set_task_paraphrases", rows, database=database)
    return report.finish()
