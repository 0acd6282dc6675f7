"""The prune stage on the real server, on hand-written FIXTURE trajectories in the Tongyi format.

The fixtures below imitate the teacher policy (same message format, same detour
record `{"step": i, "kind": ...}`); `test_clipper_pipeline.py` runs on real teacher rollouts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner

from seekgraph.agent.store import read_trajectories
from seekgraph.cli import main
from seekgraph.common.wire import Trajectory, check_complete, parse_messages, system_prompt
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.leases import Leases
from seekgraph.graphdb.settings import ConnectionSettings
from seekgraph.training.stategraph import store
from seekgraph.training.stategraph.errors import ExtractionWorkerError
from seekgraph.training.stategraph.extract_rules import Lexicon, extract_rule_graphs
from seekgraph.training.stategraph.extraction import Extractions
from seekgraph.training.stategraph.model import StateGraph
from seekgraph.training.stategraph.prune import prune_rollouts
from seekgraph.training.stategraph.prune_config import PruneConfig
from tests.conftest import cli_login
from tests.scaffolding.rollouts import store_trajectory

SYSTEM = system_prompt("2026-01-01")  # THE system prompt, so a stored trajectory renders as is
WIKI = "https://en.wikipedia.org/wiki/"


def _call(name: str, arguments: dict[str, Any]) -> str:
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": arguments}) + "\n</tool_call>"


def _search_obs(query: str, hits: list[tuple[str, str, str]]) -> str:
    lines = [
        f"{i}. [{title}]({WIKI}{slug})\n{snippet}"
        for i, (title, slug, snippet) in enumerate(hits, 1)
    ]
    return (
        f"A Google search for '{query}' found {len(hits)} results:\n\n## Web Results\n"
        + "\n\n".join(lines)
    )


def _visit_obs(slug: str, goal: str, evidence: str) -> str:
    return (
        f"The useful information in {WIKI}{slug} for user goal {goal} as follows: \n\n"
        f"Evidence in page: \n{evidence}\n\nSummary: \n{evidence}\n\n"
    )


BOOKER_HITS = [
    (
        "Booker Prize",
        "Booker_Prize",
        "The Booker Prize 1989 was won by Kazuo Ishiguro for The Remains of the Day.",
    ),
    ("Kazuo Ishiguro", "Kazuo_Ishiguro", "Kazuo Ishiguro is a British novelist."),
]
ISHIGURO = "Kazuo Ishiguro was born in Nagasaki, Japan, in 1954."


def fixture_messages(
    first_search_is_detour: bool = False,
) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    """A teacher-like trajectory with three detours (steps 1, 3, 4) and its detour record."""
    q = "Which winner of the 1989 Booker Prize was born in Nagasaki?"
    goal = "birthplace of Kazuo Ishiguro"
    turns: list[tuple[str, str, dict[str, Any], str, str]] = [
        (
            "I search for the 1989 Booker Prize first.",
            "search",
            {"query": ["Booker Prize 1989"]},
            _search_obs("Booker Prize 1989", BOOKER_HITS),
            "",
        ),
        (
            "Maybe another search phrasing finds more.",
            "search",
            {"query": ["Booker Prize 1989 list"]},
            _search_obs("Booker Prize 1989 list", BOOKER_HITS),
            "redundant_search",
        ),
        (
            "I read the page of Kazuo Ishiguro.",
            "visit",
            {"url": [WIKI + "Kazuo_Ishiguro"], "goal": goal},
            _visit_obs("Kazuo_Ishiguro", goal, ISHIGURO),
            "",
        ),
        (
            "This linked page might help; let me look.",
            "visit",
            {"url": [WIKI + "Japan"], "goal": "anything related"},
            _visit_obs("Japan", "anything related", "Japan is an island country in East Asia."),
            "irrelevant_visit",
        ),
        (
            "Let me double-check what I read earlier.",
            "visit",
            {"url": [WIKI + "Kazuo_Ishiguro"], "goal": goal},
            _visit_obs("Kazuo_Ishiguro", goal, ISHIGURO),
            "reverification",
        ),
    ]
    if first_search_is_detour:  # the detour is the first to reveal the answer entity
        turns[0], turns[1] = turns[1], turns[0]
        turns[0] = (*turns[0][:4], "redundant_search")
        turns[1] = (*turns[1][:4], "")
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": q}]
    detours = []
    for step, (thought, tool, args, obs, kind) in enumerate(turns):
        messages.append(
            {"role": "assistant", "content": f"<think>{thought}</think>\n{_call(tool, args)}"}
        )
        messages.append({"role": "user", "content": f"<tool_response>\n{obs}\n</tool_response>"})
        if kind:
            detours.append({"step": step, "kind": kind, "tool": tool, "arguments": args})
    messages.append(
        {
            "role": "assistant",
            "content": "<think>Kazuo Ishiguro won the 1989 Booker Prize and was born in Nagasaki."
            "</think>\n<answer>Kazuo Ishiguro</answer>",
        }
    )
    return messages, detours


ENTITIES = {
    "Kazuo_Ishiguro": "Kazuo Ishiguro",
    "Booker_Prize": "Booker Prize",
    "Nagasaki": "Nagasaki",
    "Japan": "Japan",
    "United_Kingdom": "United Kingdom",
}


def load_fixture(
    driver: neo4j.Driver,
    rollout_id: str = "task:1/teacher/teacher-d0.3/0",
    messages: list[dict[str, str]] | None = None,
    detours: list[dict[str, Any]] | None = None,
    kept: bool = True,
) -> str:
    """Write entities, pages, a task with its target and a rollout with steps (the rollout stage's shape)."""
    if messages is None:
        messages, detours = fixture_messages()
    driver.execute_query(
        """
        UNWIND $entities AS e
        MERGE (n:Entity {entity_id: '/wiki/' + e.slug}) SET n.name = e.name, n.aliases = []
        MERGE (p:Page {page_id: '/wiki/' + e.slug})
        SET p.url = $wiki + e.slug, p.title = e.name, p.text = e.name + ' (fixture page)'
        MERGE (p)-[:ABOUT]->(n)
        WITH p WHERE p.page_id = '/wiki/Kazuo_Ishiguro'
        MATCH (m:Entity) WHERE m.entity_id IN ['/wiki/Nagasaki', '/wiki/Japan', '/wiki/Booker_Prize']
        MERGE (p)-[:MENTIONS]->(m)
        """,
        entities=[{"slug": s, "name": n} for s, n in ENTITIES.items()],
        wiki=WIKI,
    )
    pages = []
    for k in range(2, len(messages), 2):
        content = messages[k + 1]["content"] if k + 1 < len(messages) else ""
        pages.append(tuple("/wiki/" + s for s in ENTITIES if WIKI + s in content))
    driver.execute_query(
        """
        MERGE (t:Task {task_id: 'task:1'}) SET t.question = $question, t.kind = 'leaper'
        WITH t MATCH (e:Entity {entity_id: '/wiki/Kazuo_Ishiguro'})
        MERGE (t)-[:TARGET {role: 'answer'}]->(e)
        """,
        question=messages[1]["content"],
    )
    return store_trajectory(
        driver,
        None,
        rollout_id,
        "task:1",
        parse_messages(messages),
        detours={d["step"] + 1: d["kind"] for d in detours or []},
        pages=pages,
        kept=kept,
    )


def count(driver: neo4j.Driver, query: str, **params: Any) -> int:
    return int(driver.execute_query(query, params).records[0][0])


NO_REWRITE = PruneConfig(rewrite=False)


def test_detours_are_pruned_and_stored_next_to_the_original(clean_db: neo4j.Driver) -> None:
    rid = load_fixture(clean_db)
    result = prune_rollouts(clean_db, None, NO_REWRITE)
    [outcome] = result.outcomes
    assert outcome.status == "pruned"
    assert outcome.removed == [2, 4, 5] and outcome.detours == [2, 4, 5]
    assert outcome.necessary_sets == [[0, 1, 3, 6]] * 3
    assert (outcome.tool_calls_before, outcome.tool_calls_after) == (5, 2)
    assert outcome.tokens_after < outcome.tokens_before
    row = clean_db.execute_query(
        "MATCH (p:Rollout {pruned: true})-[:PRUNED_FROM]->(o:Rollout {rollout_id: $rid}) "
        "RETURN p.rollout_id AS id, p.removed_steps AS removed, p.rewrite_status AS rw, "
        "p.rounds AS rounds, p.rounds_before AS before, o.prune_status AS status, "
        "COUNT { (p)-[:PRUNED_BY]->(:StateGraph) } AS by, COUNT { (p)-[:FOR_TASK]->() } AS task",
        rid=rid,
    ).records[0]
    assert row["removed"] == [1, 3, 4] and row["status"] == "pruned"
    assert (row["rounds"], row["before"], row["by"], row["task"]) == (3, 6, 3, 1)
    assert row["rw"] == "not_rewritten"
    pruned = read_trajectories(clean_db, None, [row["id"]])[row["id"]].trajectory
    check_complete(pruned)
    original, _ = fixture_messages()
    kept_contents = [m["content"] for m in pruned.messages()[1:]]
    # tool calls (and, without rewriting, the whole kept messages) are re-attached unchanged
    assert kept_contents == [
        m["content"] for k, m in enumerate(original) if k not in (0, 4, 5, 8, 9, 10, 11)
    ]
    assert pruned.tool_calls == 2 and [t.index for t in pruned.turns] == [1, 3, 6]
    assert (
        count(
            clean_db,
            "MATCH (g:StateGraph)-[:OF_ROLLOUT]->(:Rollout {rollout_id: $rid}) RETURN count(g)",
            rid=rid,
        )
        == 3
    )
    assert (
        count(
            clean_db,
            "MATCH (:StateGraph {graph_id: $g})-[:HAS_NODE]->(a:Action) "
            "WHERE a.necessary RETURN count(a)",
            g=f"{rid}/rule/0",
        )
        == 4
    )
    assert count(clean_db, "MATCH (:Information)-[e:ENABLES]->(:Action) RETURN count(e)") > 0


def test_rerun_adds_nothing_and_skips_finished_work(clean_db: neo4j.Driver) -> None:
    load_fixture(clean_db)
    prune_rollouts(clean_db, None, NO_REWRITE)
    before = (
        count(clean_db, "MATCH (n) RETURN count(n)"),
        count(clean_db, "MATCH ()-[r]->() RETURN count(r)"),
    )
    again = prune_rollouts(clean_db, None, NO_REWRITE)
    assert again.report.skipped == 1 and again.outcomes == []
    assert before == (
        count(clean_db, "MATCH (n) RETURN count(n)"),
        count(clean_db, "MATCH ()-[r]->() RETURN count(r)"),
    )


def test_state_graphs_hold_the_facts_some_action_relies_on(clean_db: neo4j.Driver) -> None:
    """Facts no action relies on are counted on their action, not stored; the stored graph
    still gives the search the same necessary sets as the graph as built."""
    load_fixture(clean_db)
    built = prune_rollouts(clean_db, None, replace(NO_REWRITE, graph_search="memory"))
    assert (
        count(clean_db, "MATCH (i:Information) WHERE NOT (i)-[:ENABLES]->() RETURN count(i)") == 0
    )
    unused = count(clean_db, "MATCH (a:Action) RETURN sum(a.unused_facts)")
    assert unused > 0
    assert unused >= count(clean_db, "MATCH (g:StateGraph) RETURN sum(g.n_unused_infos)") > 0
    stored = prune_rollouts(clean_db, None, replace(NO_REWRITE, graph_search="cypher", redo=True))
    assert [o.necessary_sets for o in stored.outcomes] == [o.necessary_sets for o in built.outcomes]


def test_a_redo_of_unchanged_graphs_writes_none_of_them(clean_db: neo4j.Driver) -> None:
    """A state graph stored whole (its content hash is set with its parts) and built the same
    again is not written again: its nodes stay the same nodes."""
    load_fixture(clean_db)
    prune_rollouts(clean_db, None, NO_REWRITE)
    ids = "MATCH (:StateGraph)-[:HAS_NODE]->(n) RETURN collect(elementId(n))"
    before = clean_db.execute_query(ids).records[0][0]
    again = prune_rollouts(clean_db, None, replace(NO_REWRITE, redo=True))
    assert again.report.notes["state graphs already stored as built (not written again)"] == 3
    assert clean_db.execute_query(ids).records[0][0] == before


def test_a_redone_rollout_leaves_nothing_of_an_earlier_attempt(clean_db: neo4j.Driver) -> None:
    """An earlier attempt (another extractor version) may have written state-graph nodes and
    edges that this attempt would not compute; writing the graph again replaces them (no stale
    ENABLES edges)."""
    load_fixture(clean_db)
    prune_rollouts(clean_db, None, NO_REWRITE)
    shape = (
        count(clean_db, "MATCH (:StateGraph)-[:HAS_NODE]->(n) RETURN count(n)"),
        count(clean_db, "MATCH ()-[r:ENABLES|PRODUCES]->() RETURN count(r)"),
    )
    clean_db.execute_query(
        """
        MATCH (g:StateGraph) WITH g LIMIT 1
        SET g.content_hash = 'an earlier attempt'
        WITH g
        MATCH (g)-[:HAS_NODE]->(a:Action {index: 0})
        CREATE (g)-[:HAS_NODE]->(i:Information {info_id: g.graph_id + '/stale', key: 'stale'})
        CREATE (a)-[:ENABLES]->(i)
        """
    )
    prune_rollouts(clean_db, None, PruneConfig(rewrite=False, redo=True))
    assert count(clean_db, "MATCH (i:Information {key: 'stale'}) RETURN count(i)") == 0
    assert shape == (
        count(clean_db, "MATCH (:StateGraph)-[:HAS_NODE]->(n) RETURN count(n)"),
        count(clean_db, "MATCH ()-[r:ENABLES|PRODUCES]->() RETURN count(r)"),
    )


@pytest.mark.parametrize("graph_search", ["memory", "cypher"])
def test_two_workers_prune_every_trajectory_exactly_once(
    clean_db: neo4j.Driver, graph_search: str
) -> None:
    """Two workers on one graph (leases, one trajectory per chunk, chunks read ahead): each
    trajectory is pruned by one of them, the other counts it as held or done."""
    ids = [load_fixture(clean_db, rollout_id=f"task:1/teacher/teacher-d0.3/{k}") for k in range(6)]
    config = PruneConfig(rewrite=False, chunk_size=1, graph_search=graph_search)
    with ThreadPoolExecutor(2) as pool:
        runs = [
            pool.submit(
                prune_rollouts, clean_db, None, config, leases=Leases(clean_db, None, "prune")
            )
            for _ in range(2)
        ]
        results = [r.result() for r in runs]
    done = [o.rollout_id for r in results for o in r.outcomes]
    assert sorted(done) == sorted(ids)
    assert [r.report.skipped for r in results] == [6 - len(r.outcomes) for r in results]
    assert count(clean_db, "MATCH (r:Rollout {pruned: true}) RETURN count(r)") == 6
    assert count(clean_db, "MATCH (g:StateGraph) RETURN count(g)") == 18
    assert count(clean_db, "MATCH (l:Lease) RETURN count(l)") == 0


def test_a_failing_chunk_gives_back_the_chunk_claimed_ahead(clean_db: neo4j.Driver) -> None:
    """The stage claims the next chunk before it searches and writes the current one; when the
    current one fails, both chunks' leases are given back and the chunk before stays done."""
    ids = [load_fixture(clean_db, rollout_id=f"task:1/teacher/teacher-d0.3/{k}") for k in range(4)]
    seen: list[str] = []

    def extract(trajectory: Trajectory, lexicon: Lexicon) -> list[StateGraph]:
        seen.append(trajectory.question)
        if len(seen) == 2:
            raise RuntimeError("the extractor failed on the second trajectory")
        return extract_rule_graphs(trajectory, lexicon)

    config = replace(NO_REWRITE, chunk_size=1)
    with pytest.raises(RuntimeError, match="second trajectory"):
        prune_rollouts(
            clean_db, None, config, extractor=extract, leases=Leases(clean_db, None, "prune")
        )
    assert count(clean_db, "MATCH (l:Lease) RETURN count(l)") == 0
    done = "MATCH (r:Rollout) WHERE r.prune_status IS NOT NULL RETURN r.rollout_id AS id"
    assert [r["id"] for r in clean_db.execute_query(done).records] == [ids[0]]
    again = prune_rollouts(clean_db, None, NO_REWRITE)  # the re-run does the rest
    assert sorted(o.rollout_id for o in again.outcomes) == ids[1:]


def test_a_stage_that_cannot_give_its_claims_back_still_closes_its_reader(
    clean_db: neo4j.Driver, neo4j_connection: ConnectionSettings
) -> None:
    """When the connection of the leases is gone (Neo4j lost), giving back the failed chunk and
    the chunk claimed ahead fails too: the stage still closes its reader thread (and writer and
    extraction processes) and says why it stopped, with the extractor's failure behind it."""
    ids = [load_fixture(clean_db, rollout_id=f"task:1/teacher/teacher-d0.3/{k}") for k in range(4)]
    lost = open_driver(neo4j_connection)
    seen: list[str] = []

    def extract(trajectory: Trajectory, lexicon: Lexicon) -> list[StateGraph]:
        seen.append(trajectory.question)
        if len(seen) == 2:
            lost.close()
            raise RuntimeError("the extractor failed on the second trajectory")
        return extract_rule_graphs(trajectory, lexicon)

    config = replace(NO_REWRITE, chunk_size=1)
    with pytest.raises(neo4j.exceptions.DriverError) as raised:
        prune_rollouts(
            clean_db, None, config, extractor=extract, leases=Leases(lost, None, "prune")
        )
    chain, error = [], raised.value
    while error is not None:
        chain.append(str(error))
        error = error.__context__
    assert any("second trajectory" in e for e in chain), chain
    assert not [t.name for t in threading.enumerate() if t.name.startswith("prune-reader")]
    clean_db.execute_query("MATCH (l:Lease) DETACH DELETE l")  # a dead owner's, in a real run
    again = prune_rollouts(clean_db, None, NO_REWRITE)
    assert sorted(o.rollout_id for o in again.outcomes) == ids[1:]


def test_extraction_in_worker_processes_stores_the_same_graphs(clean_db: neo4j.Driver) -> None:
    """Forked extraction workers (a bad trajectory among good ones) give the same outcomes, in
    the same order, and the same stored graphs as extraction in the stage's own process."""
    ids = [load_fixture(clean_db, rollout_id=f"task:1/teacher/teacher-d0.3/{k}") for k in range(5)]
    messages, detours = fixture_messages()
    messages[4]["content"] = "<think>no tool call here</think>"
    bad = load_fixture(clean_db, "task:1/teacher/teacher-d0.3/bad", messages, detours)
    hashes = "MATCH (g:StateGraph) RETURN g.graph_id AS id, g.content_hash AS hash ORDER BY id"
    results = {}
    stored = {}
    for processes in (1, 3):
        clean_db.execute_query(
            "MATCH (g:StateGraph) OPTIONAL MATCH (g)-[:HAS_NODE]->(n) DETACH DELETE g, n"
        )
        config = replace(NO_REWRITE, extract_processes=processes, chunk_size=4, redo=True)
        results[processes] = prune_rollouts(clean_db, None, config).outcomes
        stored[processes] = clean_db.execute_query(hashes).records
    assert [o.rollout_id for o in results[3]] == [ids[0], ids[1], ids[2], ids[3], bad, ids[4]]
    assert [(o.status, o.reason, o.kept, o.necessary_sets) for o in results[3]] == [
        (o.status, o.reason, o.kept, o.necessary_sets) for o in results[1]
    ]
    assert [o.status for o in results[3]].count("pruned") == 5
    assert len(stored[3]) == 15 and stored[3] == stored[1]


def _die(trajectory: Trajectory, lexicon: Lexicon) -> list[StateGraph]:
    os._exit(3)  # a worker killed mid-extraction (out of memory, say)


def test_a_dead_extraction_worker_is_a_one_line_stage_error() -> None:
    trajectory = parse_messages(fixture_messages()[0])
    pool = Extractions(_die, 2)
    try:
        with pytest.raises(ExtractionWorkerError, match="extraction worker process died"):
            list(pool.map([(trajectory, []), (trajectory, [])]))
    finally:
        pool.close()


def test_the_workers_of_a_killed_stage_exit(tmp_path: Path) -> None:
    """kill -9 of the stage leaves no time to shut its pool down: the workers see their
    parent gone and exit."""
    script = (
        "import os, time\n"
        "from seekgraph.training.stategraph.extraction import Extractions, rule_extractor\n"
        "pool = Extractions(rule_extractor, 2)\n"
        "print(*pool._pool._processes, flush=True)\n"
        "time.sleep(600)\n"
    )
    stage = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert stage.stdout is not None
    workers = [int(pid) for pid in stage.stdout.readline().split()]
    assert len(workers) == 2 and all(_alive(pid) for pid in workers)
    stage.kill()
    stage.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)


def _alive(pid: int) -> bool:
    """A running process (an exited one not reaped yet is a zombie: not alive)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


def test_the_action_that_produced_an_answer_entity_is_never_dropped(clean_db: neo4j.Driver) -> None:
    messages, detours = fixture_messages(first_search_is_detour=True)
    rid = load_fixture(clean_db, messages=messages, detours=detours)
    [outcome] = prune_rollouts(clean_db, None, NO_REWRITE).outcomes
    assert outcome.status == "pruned"
    assert 1 in outcome.kept  # the detour search that first revealed Kazuo Ishiguro stays
    assert outcome.answer_kept and outcome.answer_keys == ["/wiki/Kazuo_Ishiguro"]
    assert outcome.removed == [2, 4, 5]
    record = store.read_rollouts(clean_db, None, [rid])[0]
    kept_obs = [t.observation for t in parse_messages(messages).turns if t.index in outcome.kept]
    lexicon = Lexicon(record.lexicon)
    assert "/wiki/Kazuo_Ishiguro" in lexicon.mentions(" ".join(o or "" for o in kept_obs))


def disagreeing_extractor(trajectory: Trajectory, lexicon: Lexicon) -> list[StateGraph]:
    """Three constructions that each credit a different search with the answer's input."""
    n = len(trajectory.turns) + 1
    graphs = []
    for run, source in enumerate((1, 2, 3)):
        produces: list[set[str]] = [{"q"}] + [set() for _ in range(n - 1)]
        enables: list[set[str]] = [set() for _ in range(n)]
        produces[source] = {f"fact{run}"}
        enables[n - 1] = {f"fact{run}"}
        graphs.append(
            StateGraph(
                produces=produces,
                enables=enables,
                extractor="fixture",
                run=run,
                granularity="disagree",
            )
        )
    return graphs


def test_without_a_majority_the_trajectory_stays_unpruned_with_a_reason(
    clean_db: neo4j.Driver,
) -> None:
    rid = load_fixture(clean_db)
    result = prune_rollouts(clean_db, None, NO_REWRITE, extractor=disagreeing_extractor)
    assert [o.status for o in result.outcomes] == ["unpruned"]
    assert result.report.reasons == {"no_majority": 1}
    assert count(clean_db, "MATCH (r:Rollout {pruned: true}) RETURN count(r)") == 0
    status = clean_db.execute_query(
        "MATCH (r:Rollout {rollout_id: $rid}) RETURN r.prune_detail", rid=rid
    ).records[0][0]
    assert status.startswith("no_majority: run 0: [0, 1, 6]")


def silent_extractor(trajectory: Trajectory, lexicon: Lexicon) -> list[StateGraph]:
    """Three LLM constructions none of whose replies parsed (what SmolLM2-135M gives)."""
    n = len(trajectory.turns) + 1
    return [
        StateGraph(
            produces=[set() for _ in range(n)],
            enables=[set() for _ in range(n)],
            extractor="llm",
            run=run,
            granularity="llm-facts",
            notes={"calls": n - 1, "parse_failures": n - 1},
        )
        for run in range(3)
    ]


def test_constructions_without_a_parsed_reply_do_not_vote(clean_db: neo4j.Driver) -> None:
    # three empty graphs would "agree" on keeping only the required actions
    rid = load_fixture(clean_db)
    result = prune_rollouts(clean_db, None, NO_REWRITE, extractor=silent_extractor)
    assert [o.status for o in result.outcomes] == ["unpruned"]
    assert result.report.reasons == {"extraction_failed": 1}
    assert result.outcomes[0].necessary_sets == [None, None, None]
    assert count(clean_db, "MATCH (r:Rollout {pruned: true}) RETURN count(r)") == 0
    status = clean_db.execute_query(
        "MATCH (r:Rollout {rollout_id: $rid}) RETURN r.prune_detail", rid=rid
    ).records[0][0]
    assert status == "extraction_failed: run 0: failed; run 1: failed; run 2: failed"


def test_bad_messages_are_rejected_with_the_reason(clean_db: neo4j.Driver) -> None:
    messages, detours = fixture_messages()
    messages[4]["content"] = "<think>no tool call here</think>"
    load_fixture(clean_db, messages=messages, detours=detours)
    result = prune_rollouts(clean_db, None, NO_REWRITE)
    assert result.report.reasons == {"bad_format": 1}
    assert (
        "turn 2: expected a call of search/visit, got invalid" in result.report.rejections[0].detail
    )


def test_unfiltered_rollouts_are_left_alone_unless_asked(clean_db: neo4j.Driver) -> None:
    load_fixture(clean_db, kept=False)
    assert prune_rollouts(clean_db, None, NO_REWRITE).outcomes == []
    config = PruneConfig(rewrite=False, include_unfiltered=True)
    assert [o.status for o in prune_rollouts(clean_db, None, config).outcomes] == ["pruned"]


def test_cli_prunes_with_progress_and_summary(
    clean_db: neo4j.Driver, neo4j_connection: ConnectionSettings
) -> None:
    load_fixture(clean_db)
    args = [
        *cli_login(neo4j_connection),
        "prune",
        "--no-rewrite",
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "prune: kept 1, rejected 0" in result.output
    assert "tool calls (pruned trajectories): 5 -> 2 (-60.0%)" in result.output
    assert "thoughts: not_rewritten=1" in result.output
    assert count(clean_db, "MATCH (s:StageRun {stage: 'prune'}) RETURN count(s)") == 1
    bad = CliRunner().invoke(main, [*args[:-1], "--extractor", "nope"])
    assert bad.exit_code == 2 and "nope" in bad.output


def test_config_rejects_unknown_settings() -> None:
    from seekgraph.common.config import load_section
    from seekgraph.graphdb.errors import ConfigError

    load = lambda values: load_section(PruneConfig, values, source="s.toml", section="prune")  # noqa: E731
    assert load({"extractor": "rule"}).extractor == "rule"
    with pytest.raises(ConfigError, match=r"s\.toml \[prune\]: unknown setting 'extractr'"):
        load({"extractr": "rule"})
    with pytest.raises(ConfigError, match="extractor: expected one of"):
        load({"extractor": "magic"})


def _operators(plan: dict[str, Any]) -> list[str]:
    return [
        str(plan.get("operatorType")),
        *[o for c in plan.get("children", []) for o in _operators(c)],
    ]


def test_ancestor_query_expands_breadth_first_not_path_by_path(driver: neo4j.Driver) -> None:
    from seekgraph.graphdb import cypher

    with driver.session() as session:
        plan = (
            session.run("EXPLAIN " + cypher.query("clipper/find_answer_ancestors"), rows=[])
            .consume()
            .plan
        )
    operators = " ".join(_operators(plan or {}))
    assert "Pruning" in operators, operators
