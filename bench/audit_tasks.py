"""Print a fixed-seed random sample of tasks per variant beside their source rows, for a hand audit.

    python -m bench.audit_tasks --config seekgraph.toml --per-variant 20 --seed 0 > audit.md

For each task: the question, the gold records, and every source row of its tables (header and
cells as ingested), so a reviewer can check precision, recall and whether the question is well
posed without opening Neo4j.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.common.config import read_config_file, resolve_settings
from seekgraph.graphdb.driver import open_driver

TASKS = """
MATCH (t:Task {status: 'kept'}) WHERE t.variant = $variant
RETURN t.task_id AS task_id, t.question AS question, t.answer_json AS answer_json,
       t.spec_json AS spec_json, t.tree_json AS tree_json, t.n_targets AS n_targets,
       t.formalization_json AS formalization
ORDER BY task_id
"""
ROWS = """
UNWIND $table_ids AS tid
MATCH (tb:Table {table_id: tid})-[:HAS_ROW]->(r:Row)
OPTIONAL MATCH (r)-[h:HAS_CELL]->(x)
WITH tb, r, h, x ORDER BY r.index, h.column
WITH tb, r, collect({column: h.column, text: h.text, id: coalesce(x.entity_id, x.value_id)})
     AS cells
WITH tb, collect({index: r.index, cells: cells}) AS rows
OPTIONAL MATCH (tb)-[:HAS_COLUMN]->(c:Column)
WITH tb, rows, c ORDER BY c.index
RETURN tb.table_id AS table_id, tb.title AS title, tb.section_title AS section,
       collect(c.header + CASE WHEN c.role = 'key' THEN ' (key)' ELSE '' END) AS header, rows
"""


def _tables(task: dict[str, Any]) -> list[str]:
    spec = json.loads(task["spec_json"] or "{}")
    if "table_ids" in spec:
        return list(spec["table_ids"])
    if "table_id" in spec:
        return [spec["table_id"]]
    triples = json.loads(task.get("formalization") or "[]")
    return sorted({t[1].split("@", 1)[1] for t in triples if "@" in str(t[1])})


def _mentions(task: dict[str, Any]) -> set[str]:
    """KP tasks: the constants and answers, to show only the table rows that hold them."""
    triples = json.loads(task.get("formalization") or "[]")
    terms = [t[0] for t in triples] + [o for t in triples for o in t[2]]
    names = {str(x).removeprefix("C@").lower() for x in terms if str(x).startswith("C@")}
    answers = json.loads(task["answer_json"] or "[]")
    return names | {str(a).lower() for a in (answers if isinstance(answers, list) else [answers])}


def render(driver: neo4j.Driver, task: dict[str, Any], max_rows: int) -> str:
    lines = [f"### {task['task_id']}", "", f"**Q:** {task['question']}", ""]
    answers = json.loads(task["answer_json"] or "[]")
    lines.append(f"**Gold ({len(answers)} records, |R| = {task['n_targets']}):**")
    for a in answers[:40]:
        if isinstance(a, dict):
            attrs = "; ".join(
                f"{k}: {', '.join(v)}" for k, v in (a.get("attributes") or {}).items()
            )
            lines.append(f"- {a.get('name')} `{a.get('entity_id')}` {attrs}")
            for row in a.get("rows") or []:  # an entity of several rows: its values row by row
                by_row = "; ".join(f"{k}: {', '.join(v)}" for k, v in row["attributes"].items())
                lines.append(f"  - row of {row['table']}: {by_row}")
        else:
            lines.append(f"- {a}")
    if task.get("formalization"):
        lines += ["", f"**KP:** `{task['formalization']}`"]
    tree = json.loads(task["tree_json"] or "{}")
    for key in ("bridge", "pivot", "clues"):
        if key in tree:
            lines.append(f"- {key}: `{json.dumps(tree[key], ensure_ascii=False)}`")
    for table in driver.execute_query(ROWS, table_ids=_tables(task)).records:
        lines += ["", f'Table `{table["table_id"]}` "{table["title"]}" / {table["section"]}:']
        lines.append("| " + " | ".join(table["header"]) + " |")
        rows = table["rows"]
        if task.get("formalization"):
            wanted = _mentions(task)
            rows = [r for r in rows if any((c["text"] or "").lower() in wanted for c in r["cells"])]
        for row in rows[:max_rows]:
            cells = [f"{c['text']} `{c['id']}`" for c in row["cells"] if c["column"] is not None]
            lines.append(f"| r{row['index']}: " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", type=Path, default=None)
    parser.add_argument("--per-variant", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-rows", type=int, default=25)
    parser.add_argument("--variant", action="append", default=None)
    parser.add_argument(
        "--only-tables",
        type=Path,
        default=None,
        help="A file of table ids, one per line: sample only tasks all of whose tables are in "
        "it (tables nobody read before the audit).",
    )
    args = parser.parse_args()
    allowed = set(args.only_tables.read_text().split()) if args.only_tables else None
    config = read_config_file(args.config, ["neo4j", "server"])
    driver = open_driver(resolve_settings(config).connection)
    for variant in args.variant or ["basic", "union", "reverse-union", "kp"]:
        tasks = [r.data() for r in driver.execute_query(TASKS, variant=variant).records]
        if allowed is not None:
            tasks = [t for t in tasks if set(_tables(t)) <= allowed]
        sample = random.Random(args.seed).sample(tasks, min(args.per_variant, len(tasks)))
        print(f"## {variant}: {len(sample)} of {len(tasks)} kept tasks (seed {args.seed})\n")
        for task in sample:
            print(render(driver, task, args.max_rows))
    driver.close()


if __name__ == "__main__":
    main()
