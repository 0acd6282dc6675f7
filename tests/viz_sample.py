"""A small graph in the shape of docs/schema.md, so the viz tests do not wait for other stages.

Two source tables (Booker and Nobel winners) give two reasoning trees; their biclique shares
`nationality` and `year`; a Basic, a Union and a Reverse-Union task are built on them; a KP task
has two layers; a rollout has a state graph with one unnecessary action and a pruned copy;
stage runs, rejections and a training run feed the report. Counts the tests check are constants
here so a change to the sample shows up as one edit.
"""

from __future__ import annotations

import json
from typing import Any

import neo4j

Node = tuple[str, list[str], dict[str, Any]]  # (key, labels, properties)
Rel = tuple[str, str, str, dict[str, Any]]  # (from key, type, to key, properties)

BASIC, UNION, REVERSE, KP, ROLLOUT, PRUNED = (
    "task-basic",
    "task-union",
    "task-reverse",
    "task-kp",
    "task-basic/teacher/rule/0",
    "task-basic/teacher/rule/0/pruned",
)
BOOKER = [
    ("/wiki/Kazuo_Ishiguro", "Kazuo Ishiguro", "British", "1989"),
    ("/wiki/Ben_Okri", "Ben Okri", "Nigerian", "1991"),
    ("/wiki/Anne_Enright", "Anne Enright", "Irish", "2007"),
]
NOBEL = [
    ("/wiki/Kazuo_Ishiguro", "Kazuo Ishiguro", "British", "2017"),
    ("/wiki/Wole_Soyinka", "Wole Soyinka", "Nigerian", "1986"),
]


def sample() -> tuple[list[Node], list[Rel]]:
    nodes: list[Node] = []
    rels: list[Rel] = []
    seen: set[str] = set()

    def node(key: str, labels: list[str], **props: Any) -> str:
        if key not in seen:
            seen.add(key)
            nodes.append((key, labels, props))
        return key

    def rel(a: str, t: str, b: str, **props: Any) -> None:
        rels.append((a, t, b, props))

    for rel_name in ("nationality", "year"):
        node(f"rel:{rel_name}", ["Relation"], name=rel_name)
    for table_id, title, rows in (
        ("booker", "Booker Prize winners", BOOKER),
        ("nobel", "Nobel Prize in Literature laureates", NOBEL),
    ):
        node(f"table:{table_id}", ["Table"], table_id=table_id, title=title, status="kept")
        tree = node(
            f"tree:{table_id}",
            ["Tree"],
            tree_id=f"tree:{table_id}",
            root=title,
            relations=["nationality", "year"],
            n_anchors=len(rows),
        )
        rel(tree, "FROM_TABLE", f"table:{table_id}")
        for rname in ("nationality", "year"):
            rel(tree, "HAS_RELATION", f"rel:{rname}")
        for i, (eid, name, nat, year) in enumerate(rows):
            node(eid, ["Entity"], entity_id=eid, name=name)
            node(
                f"text:{nat.lower()}",
                ["Value"],
                value_id=f"text:{nat.lower()}",
                kind="text",
                text=nat,
            )
            node(f"year:{year}", ["Value"], value_id=f"year:{year}", kind="year", text=year)
            rel(tree, "HAS_ANCHOR", eid)
            rel(
                eid, "FACT", f"text:{nat.lower()}", relation="nationality", table_id=table_id, row=i
            )
            rel(eid, "FACT", f"year:{year}", relation="year", table_id=table_id, row=i)
    # An unrelated fact from another table must not appear in the trees.
    node("year:1954", ["Value"], value_id="year:1954", kind="year", text="1954")
    rel("/wiki/Kazuo_Ishiguro", "FACT", "year:1954", relation="born", table_id="other", row=0)

    node(
        "bic",
        ["Biclique"],
        biclique_id="bic",
        trees=["tree:booker", "tree:nobel"],
        relations=["nationality", "year"],
        size=4,
    )
    for t in ("tree:booker", "tree:nobel"):
        rel("bic", "HAS_MEMBER", t)
    for r in ("nationality", "year"):
        rel("bic", "SHARES", f"rel:{r}")

    node(
        BASIC,
        ["Task"],
        task_id=BASIC,
        kind="leaper",
        variant="basic",
        status="kept",
        question="List every Booker Prize winner with their nationality and year.",
        n_targets=9,
    )
    rel(BASIC, "BUILT_FROM", "tree:booker")
    for eid, _, nat, year in BOOKER:
        rel(BASIC, "TARGET", eid, role="anchor")
        rel(BASIC, "TARGET", f"text:{nat.lower()}", role="attribute")
        rel(BASIC, "TARGET", f"year:{year}", role="attribute")
    node(
        UNION,
        ["Task"],
        task_id=UNION,
        kind="leaper",
        variant="union",
        status="kept",
        question="Which writers won the Booker or the Nobel, with nationality and year?",
        n_targets=4,
    )
    rel(UNION, "BUILT_FROM", "bic")
    for eid in (
        "/wiki/Kazuo_Ishiguro",
        "/wiki/Ben_Okri",
        "/wiki/Anne_Enright",
        "/wiki/Wole_Soyinka",
    ):
        rel(UNION, "TARGET", eid, role="anchor")
    node(
        REVERSE,
        ["Task"],
        task_id=REVERSE,
        kind="leaper",
        variant="reverse-union",
        status="kept",
        question="A British writer won both prizes ... which other winners share his nationality?",
        n_targets=1,
    )
    rel(REVERSE, "BUILT_FROM", "bic")
    rel(REVERSE, "PIVOT", "/wiki/Kazuo_Ishiguro")
    rel(REVERSE, "CLUE", "year:1989")
    rel(REVERSE, "CLUE", "year:2017")
    rel(REVERSE, "TARGET", "text:british", role="answer")
    node(
        "task-rejected",
        ["Task"],
        task_id="task-rejected",
        kind="leaper",
        variant="basic",
        status="rejected",
        reason="too_few_targets",
        n_targets=1,
    )

    # KP task: ? -[won]-> V@P ; V@P -[awarded in]-> C@1989 (layer 0) ; expanded at layer 1.
    node(
        KP,
        ["Task"],
        task_id=KP,
        kind="shaper",
        variant="kp",
        status="kept",
        question="Which nationality has the writer who won the prize awarded in 1989?",
    )
    vs = {"?": (True, 0), "V@P": (False, 0), "V@Y": (False, 1)}
    for name, (is_target, layer) in vs.items():
        node(
            f"{KP}/{name}",
            ["Variable"],
            variable_id=f"{KP}/{name}",
            name=name,
            is_target=is_target,
            layer=layer,
        )
        rel(KP, "HAS_VARIABLE", f"{KP}/{name}")
    for text in ("Booker Prize", "1989"):
        node(f"{KP}/{text}", ["Constant"], constant_id=f"{KP}/{text}", text=text, kind="text")
    rel(f"{KP}/1989", "DENOTES", "year:1989")
    triples = [
        (0, "won", "?", f"{KP}/V@P", 0),
        (1, "is", "V@P", f"{KP}/Booker Prize", 0),
        (2, "awarded in", "V@P", f"{KP}/V@Y", 1),
        (3, "equals", "V@Y", f"{KP}/1989", 1),
    ]
    for index, relation, subject, obj, layer in triples:
        tid = f"{KP}/{index}"
        node(tid, ["Triple"], triple_id=tid, relation=relation, index=index, layer=layer)
        rel(KP, "HAS_TRIPLE", tid)
        rel(tid, "SUBJECT", f"{KP}/{subject}")
        rel(tid, "OBJECT", obj)
    rel(f"{KP}/V@Y", "EXPANDS", f"{KP}/1989")

    # A rollout with a rule state graph: a0 query, a1 search (necessary), a2 detour, a3 answer.
    node(
        ROLLOUT,
        ["Rollout"],
        rollout_id=ROLLOUT,
        task_id=BASIC,
        policy="teacher",
        model="rule",
        status="done",
        termination="answer",
        rounds=4,
        tokens=1800,
        isr=0.8,
        ise=0.4,
        kept=True,
        pruned=False,
    )
    rel(ROLLOUT, "FOR_TASK", BASIC)
    node(
        PRUNED,
        ["Rollout"],
        rollout_id=PRUNED,
        task_id=BASIC,
        policy="teacher",
        model="rule",
        rounds=3,
        tokens=1100,
        pruned=True,
    )
    rel(PRUNED, "PRUNED_FROM", ROLLOUT)
    for rid, isr, ise, kept in (
        ("r-low", 0.2, 0.05, False),
        ("r-mid", 0.5, 0.08, False),
        ("r-high", 1.0, 0.5, True),
    ):
        node(
            rid,
            ["Rollout"],
            rollout_id=rid,
            isr=isr,
            ise=ise,
            kept=kept,
            rounds=5,
            tokens=2000,
            pruned=False,
        )
    graph = f"{ROLLOUT}/rule/0"
    node(
        graph, ["StateGraph"], graph_id=graph, extractor="rule", run=0, necessary_actions=[0, 1, 3]
    )
    rel(graph, "OF_ROLLOUT", ROLLOUT)
    rel(PRUNED, "PRUNED_BY", graph)
    actions = [(0, "question", True), (1, "search", True), (2, "visit", False), (3, "answer", True)]
    for index, tool, necessary in actions:
        aid = f"{graph}/a{index}"
        node(
            aid,
            ["Action"],
            action_id=aid,
            index=index,
            tool=tool,
            necessary=necessary,
            is_query=index == 0,
            is_answer=tool == "answer",
        )
        rel(graph, "HAS_NODE", aid)
    infos = [
        ("i0", "Booker Prize winners", 0, [1]),
        ("i1", "Kazuo Ishiguro 1989", 1, [3]),
        ("i2", "Ben Okri biography", 2, []),
    ]
    for iid, text, producer, enables in infos:
        key = f"{graph}/{iid}"
        node(key, ["Information"], info_id=key, text=text, kind="sentence")
        rel(graph, "HAS_NODE", key)
        rel(f"{graph}/a{producer}", "PRODUCES", key)
        for a in enables:
            rel(key, "ENABLES", f"{graph}/a{a}")
    for i in range(3):
        sid = f"{ROLLOUT}#{i}"
        node(
            sid,
            ["Step"],
            step_id=sid,
            index=i,
            kind=["tool_call", "tool_call", "answer"][i],
            tool=["search", "visit", ""][i],
            detour_kind="irrelevant_visit" if i == 1 else "",
        )
        rel(ROLLOUT, "HAS_STEP", sid)
        if i:
            rel(f"{ROLLOUT}#{i - 1}", "NEXT", sid)

    # Bookkeeping for the report.
    for stage, kept, rejected in (("ingest", 12, 2), ("leaper-basic", 5, 1)):
        node(
            f"run:{stage}",
            ["StageRun"],
            run_id=f"run:{stage}",
            stage=stage,
            kept=kept,
            rejected=rejected,
            skipped=0,
            reasons=[],
            seconds=1.0,
        )
    for i, (stage, reason) in enumerate(
        (("ingest", "ragged_rows"), ("ingest", "empty_table"), ("leaper-basic", "too_few_targets"))
    ):
        node(
            f"rej:{i}",
            ["Rejection"],
            rejection_id=f"{stage}:{i}",
            stage=stage,
            record_id=str(i),
            reason=reason,
            detail="",
        )
    node(
        "train:sft",
        ["TrainingRun"],
        run_id="sft-1",
        kind="sft",
        status="done",
        metrics_json=json.dumps(
            {"log_history": [{"step": s, "loss": 2.0 / (s + 1)} for s in range(6)]}
        ),
    )
    return nodes, rels


LOAD_NODES = """
UNWIND $rows AS row
CALL apoc.create.node(row.labels, row.props) YIELD node
SET node._sample_key = row.key
"""
LOAD_RELS = """
UNWIND $rows AS row
MATCH (a {_sample_key: row.a}), (b {_sample_key: row.b})
CALL apoc.create.relationship(a, row.type, row.props, b) YIELD rel
RETURN count(rel)
"""


def load_sample(driver: neo4j.Driver, database: str | None = None) -> None:
    """Write the sample (into an empty database) through APOC, then drop the helper keys."""
    nodes, rels = sample()
    driver.execute_query(
        LOAD_NODES,
        {"rows": [{"key": k, "labels": labels, "props": p} for k, labels, p in nodes]},
        database_=database,
    )
    driver.execute_query(
        LOAD_RELS,
        {"rows": [{"a": a, "type": t, "b": b, "props": p} for a, t, b, p in rels]},
        database_=database,
    )
    driver.execute_query(
        "MATCH (n) WHERE n._sample_key IS NOT NULL "
        "SET n.finished_at = CASE WHEN n:StageRun THEN datetime() END "
        "REMOVE n._sample_key",
        database_=database,
    )
