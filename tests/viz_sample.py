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

LONG = "task-basic/teacher/rule/long"
BASIC, UNION, REVERSE, KP, ROLLOUT, PRUNED = (
    "task-basic",
    "task-union",
    "task-reverse",
    "task-kp",
    "task-basic/teacher/rule/0",
    "task-basic/teacher/rule/0/pruned",
)
RELATIONS = ["nationality", "year"]
BOOKER = [
    ("/wiki/Kazuo_Ishiguro", "Kazuo Ishiguro", "British", "1989"),
    ("/wiki/Ben_Okri", "Ben Okri", "Nigerian", "1991"),
    ("/wiki/Anne_Enright", "Anne Enright", "Irish", "2007"),
]
NOBEL = [
    ("/wiki/Kazuo_Ishiguro", "Kazuo Ishiguro", "British", "2017"),
    ("/wiki/Doris_Lessing", "Doris Lessing", "British", "2007"),
]
# A third table of the biclique that no task question names: never drawn with the tasks.
COMMONWEALTH = [
    ("/wiki/Ben_Okri", "Ben Okri", "Nigerian", "1987"),
    ("/wiki/Peter_Carey", "Peter Carey", "Australian", "1998"),
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

    for rel_name in RELATIONS:
        node(f"rel:{rel_name}", ["Relation"], name=rel_name)
    for table_id, title, rows in (
        ("booker", "Booker Prize winners", BOOKER),
        ("nobel", "Nobel Prize in Literature laureates", NOBEL),
        ("commonwealth", "Commonwealth Writers' Prize winners", COMMONWEALTH),
    ):
        node(f"table:{table_id}", ["Table"], table_id=table_id, title=title, status="kept")
        tree = node(
            f"tree:{table_id}",
            ["Tree"],
            tree_id=f"tree:{table_id}",
            table_id=table_id,
            root=title,
            relations=RELATIONS,
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

    trees = ["tree:booker", "tree:nobel", "tree:commonwealth"]
    node("bic", ["Biclique"], biclique_id="bic", trees=trees, relations=RELATIONS, size=6)
    for t in trees:
        rel("bic", "HAS_MEMBER", t)
    for r in RELATIONS:
        rel("bic", "SHARES", f"rel:{r}")

    def record(eid: str, name: str, **attributes: list[str]) -> dict[str, Any]:
        return {"name": name, "entity_id": eid, "attributes": attributes}

    node(
        BASIC,
        ["Task"],
        task_id=BASIC,
        kind="leaper",
        variant="basic",
        status="kept",
        question="List every Booker Prize winner with their nationality and year.",
        n_targets=9,
        answer_json=json.dumps(
            [record(e, n, nationality=[nat], year=[y]) for e, n, nat, y in BOOKER]
        ),
    )
    rel(BASIC, "BUILT_FROM", "tree:booker")
    for eid, _, nat, year in BOOKER:
        rel(BASIC, "TARGET", eid, role="anchor")
        rel(BASIC, "TARGET", f"text:{nat.lower()}", role="attribute")
        rel(BASIC, "TARGET", f"year:{year}", role="attribute")
    # Union of the Booker and Nobel trees (the biclique has a third tree the question does not
    # name): I = {Ishiguro} answers; every anchor of both trees is in R.
    node(
        UNION,
        ["Task"],
        task_id=UNION,
        kind="leaper",
        variant="union",
        status="kept",
        question="Which Booker Prize winners are also Nobel laureates, with nationality and year?",
        n_targets=7,
        answer_json=json.dumps(
            [
                record(
                    "/wiki/Kazuo_Ishiguro",
                    "Kazuo Ishiguro",
                    nationality=["British"],
                    year=["1989", "2017"],
                )
            ]
        ),
    )
    for x in ("tree:booker", "tree:nobel", "bic"):
        rel(UNION, "BUILT_FROM", x)
    rel(UNION, "TARGET", "/wiki/Kazuo_Ishiguro", role="answer")
    for eid in ("/wiki/Ben_Okri", "/wiki/Anne_Enright", "/wiki/Doris_Lessing"):
        rel(UNION, "TARGET", eid, role="anchor")
    for v in ("text:british", "year:1989", "year:2017"):
        rel(UNION, "TARGET", v, role="attribute")
    # Reverse-Union: find the bridge (Ishiguro) from his years, read his nationality (the
    # pivot), list the other winners of that nationality (Doris Lessing).
    node(
        REVERSE,
        ["Task"],
        task_id=REVERSE,
        kind="leaper",
        variant="reverse-union",
        status="kept",
        question="A writer won the Booker in 1989 and the Nobel in 2017: which other winners "
        "share his nationality, and in which year did they win?",
        n_targets=4,
        answer_json=json.dumps([record("/wiki/Doris_Lessing", "Doris Lessing", year=["2007"])]),
    )
    for x in ("tree:booker", "tree:nobel", UNION):
        rel(REVERSE, "BUILT_FROM", x)
    rel(REVERSE, "PIVOT", "text:british")
    rel(REVERSE, "CLUE", "year:1989")
    rel(REVERSE, "CLUE", "year:2017")
    rel(REVERSE, "TARGET", "/wiki/Doris_Lessing", role="answer")
    rel(REVERSE, "TARGET", "/wiki/Kazuo_Ishiguro", role="anchor")
    rel(REVERSE, "TARGET", "text:british", role="attribute")
    rel(REVERSE, "TARGET", "year:2007", role="attribute")
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

    # KP task, executable over the sample: ? -nationality-> C@British (layer 0) and
    # ? -year-> V@Y, V@Y -~year-> C@Anne Enright (layer 1: V@Y replaced the constant 2007).
    # Solutions: ? = Doris Lessing, V@Y = 2007.
    node(
        KP,
        ["Task"],
        task_id=KP,
        kind="shaper",
        variant="kp",
        status="kept",
        source="expanded",
        layer=1,
        question="Which writer has the nationality British and won in the year Anne Enright won?",
        answer_json=json.dumps(["Doris Lessing"]),
    )
    vs = {"?": (True, 0), "V@Y": (False, 1)}
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
    for text, ref, label in (
        ("British", "text:british", "Value"),
        ("Anne Enright", "/wiki/Anne_Enright", "Entity"),
        ("2007", "year:2007", "Value"),
    ):
        node(
            f"{KP}/{text}",
            ["Constant"],
            constant_id=f"{KP}/{text}",
            text=text,
            kind=label.lower(),
            ref=ref,
            label=label,
        )
        rel(f"{KP}/{text}", "DENOTES", ref)
    triples = [
        (0, "nationality", "?", f"{KP}/British", 0),
        (1, "year", "?", f"{KP}/V@Y", 1),
        (2, "~year", "V@Y", f"{KP}/Anne Enright", 1),
    ]
    for index, relation, subject, obj, layer in triples:
        tid = f"{KP}/{index}"
        node(tid, ["Triple"], triple_id=tid, relation=relation, index=index, layer=layer)
        rel(KP, "HAS_TRIPLE", tid)
        rel(tid, "SUBJECT", f"{KP}/{subject}")
        rel(tid, "OBJECT", obj, position=0)
    rel(f"{KP}/V@Y", "EXPANDS", f"{KP}/2007")
    rel(KP, "TARGET", "/wiki/Doris_Lessing", role="answer")

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
        f1=0.9,
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
        rounds_before=4,
        tokens=1100,
        tokens_before=1800,
        pruned=True,
    )
    rel(PRUNED, "PRUNED_FROM", ROLLOUT)
    rel(PRUNED, "FOR_TASK", BASIC)
    for rid, isr, ise, kept, task in (
        ("r-low", 0.2, 0.05, False, REVERSE),
        ("r-mid", 0.5, 0.08, False, KP),
        ("r-high", 1.0, 0.5, True, UNION),
    ):
        node(
            rid,
            ["Rollout"],
            rollout_id=rid,
            task_id=task,
            isr=isr,
            ise=ise,
            f1=isr,
            kept=kept,
            rounds=5,
            tokens=2000,
            pruned=False,
        )
        rel(rid, "FOR_TASK", task)
    # The dataset: the pruned basic trajectory and the kept union one.
    node("ds", ["Dataset"], dataset_id="ds", name="sample", mix="hybrid", n_examples=2)
    rel("ds", "INCLUDES", PRUNED, position=0)
    rel("ds", "INCLUDES", "r-high", position=1)
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
            unused_facts=1 if index == 2 else 0,  # a fact no action used: counted, not stored
        )
        rel(graph, "HAS_NODE", aid)
    infos = [
        ("i0", "Booker Prize winners", 0, [1]),
        ("i1", "Kazuo Ishiguro 1989", 1, [3]),
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
    # ingest ran twice: the later run rejected everything (the report must say so and still
    # draw the run that kept something).
    for run, stage, kept, rejected, at in (
        ("run:ingest", "ingest", 12, 2, "2026-01-01T10:00:00Z"),
        ("run:leaper-basic", "leaper-basic", 5, 1, "2026-01-01T10:05:00Z"),
        ("run:ingest-again", "ingest", 0, 3, "2026-01-01T11:00:00Z"),
    ):
        node(
            run,
            ["StageRun"],
            run_id=run,
            stage=stage,
            kept=kept,
            rejected=rejected,
            skipped=0,
            reasons=[],
            seconds=1.0 + kept,
            finished_at=at,
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


def long_rollout(n_steps: int, rollout_id: str = LONG) -> tuple[list[Node], list[Rel]]:
    """A rollout of `n_steps` steps and its state graph, in the schema's shape: every step
    searches, every third reveals a target, action t relies on a fact of action t-1, and every
    other action is pruned (what a 100-step union trajectory looks like to the pictures)."""
    nodes: list[Node] = [
        (
            rollout_id,
            ["Rollout"],
            {
                "rollout_id": rollout_id,
                "rounds": n_steps,
                "tokens": 50 * n_steps,
                "termination": "answer",
                "pruned": False,
            },
        )
    ]
    task = (f"{rollout_id}:task", ["Task"], {"task_id": f"{rollout_id}:task", "kind": "leaper"})
    nodes.append(task)
    rels: list[Rel] = [(rollout_id, "FOR_TASK", task[0], {})]
    graph = f"{rollout_id}/rule/0"
    nodes.append((graph, ["StateGraph"], {"graph_id": graph, "extractor": "rule", "run": 0}))
    rels.append((graph, "OF_ROLLOUT", rollout_id, {}))
    for i in range(n_steps):
        sid = f"{rollout_id}#{i}"
        nodes.append((sid, ["Step"], {"step_id": sid, "index": i, "kind": "tool_call"}))
        rels.append((rollout_id, "HAS_STEP", sid, {}))
        if i:
            rels.append((f"{rollout_id}#{i - 1}", "NEXT", sid, {}))
        if i % 3 == 0:
            eid = f"/wiki/Long_{i}"
            nodes.append((eid, ["Entity"], {"entity_id": eid, "name": f"Target {i}"}))
            rels.append((sid, "REVEALED", eid, {}))
    for a in range(n_steps + 1):
        aid = f"{graph}/a{a}"
        necessary = a % 2 == 0 or a == n_steps
        nodes.append(
            (
                aid,
                ["Action"],
                {"action_id": aid, "index": a, "tool": "search", "necessary": necessary},
            )
        )
        rels.append((graph, "HAS_NODE", aid, {}))
        info = f"{graph}/i{a}"
        nodes.append((info, ["Information"], {"info_id": info, "text": f"fact {a}"}))
        rels += [(graph, "HAS_NODE", info, {}), (aid, "PRODUCES", info, {})]
        if a < n_steps:
            rels.append((info, "ENABLES", f"{graph}/a{a + 1}", {}))
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


def load_sample(
    driver: neo4j.Driver,
    database: str | None = None,
    part: tuple[list[Node], list[Rel]] | None = None,
) -> None:
    """Write the sample (into an empty database) through APOC, then drop the helper keys;
    `part` writes other nodes instead (e.g. `long_rollout`, whose edges join only its own
    nodes)."""
    nodes, rels = part if part is not None else sample()
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
        "SET n.finished_at = CASE WHEN n:StageRun THEN datetime(n.finished_at) END "
        "REMOVE n._sample_key",
        database_=database,
    )
