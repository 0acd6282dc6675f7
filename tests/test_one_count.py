"""One count of rounds and tokens, everywhere: a trajectory counted by hand, written by the
rollout stage's own writer and pruned by the prune stage, reads the same in the stage's
summary, in `seekgraph viz trajectory` and in the report.

The report once said "before mean 286.9 / after pruning 1453.2 / tokens saved: mean -297%"
while prune printed "451706 -> 232510 (-48.5%)", and `viz trajectory` said "16 rounds, 819
tokens ... pruned version: 4 rounds, 2364 tokens": three numbers from three counts.
"""

from __future__ import annotations

import json

import neo4j

from seekgraph.agent.metrics import Target
from seekgraph.agent.rollouts import save_rollout
from seekgraph.agent.teacher import TaskInfo
from seekgraph.agent.trajectory import Rollout, StepRecord, Termination
from seekgraph.agent.web.responses import search_text
from seekgraph.common.wire import count_tokens, parse_messages, system_prompt, tool_response_text
from seekgraph.training.stages import PRUNE
from seekgraph.viz import graphs
from seekgraph.viz.report_run_sections import change, pruning_section
from tests.conftest import run_stage

QUESTION = "Who won the Booker Prize in 1989?"


def _results(query: str) -> str:
    """The search tool's response (pruning reads only what the web returned in it)."""
    hit = ("Kazuo Ishiguro", "/wiki/Kazuo_Ishiguro", "Kazuo Ishiguro won the Booker Prize in 1989.")
    return tool_response_text(search_text(query, [hit]))


def _call(thought: str, query: str) -> str:
    body = json.dumps({"name": "search", "arguments": {"query": [query]}})
    return f"<think>{thought}</think>\n<tool_call>\n{body}\n</tool_call>"


MESSAGES = [
    {"role": "system", "content": system_prompt("2026-01-01")},
    {"role": "user", "content": QUESTION},
    {"role": "assistant", "content": _call("Search it.", "Booker 1989")},
    {"role": "user", "content": _results("Booker 1989")},
    {"role": "assistant", "content": _call("Search again.", "Booker 1989 winner")},
    {"role": "user", "content": _results("Booker 1989 winner")},
    {
        "role": "assistant",
        "content": "<think>Kazuo Ishiguro.</think>\n<answer>Kazuo Ishiguro</answer>",
    },
]
# Counted by hand, one piece per word and per punctuation mark (`tool_call` is one word):
#   turn 1  < think > Search it . < / think > < tool_call > { " name " : " search " ,
#           " arguments " : { " query " : [ " Booker 1989 " ] } } < / tool_call >      43
#           < tool_response > A Google search for ' Booker 1989 ' found 1 results : # # Web
#           Results 1 . [ Kazuo Ishiguro ] ( / wiki / Kazuo_Ishiguro ) Kazuo Ishiguro won the
#           Booker Prize in 1989 . < / tool_response >                                        44
#   turn 2  the same call with "again" for "it" and one more query word, the response with it
#                                                                                     44 + 45
#   turn 3  < think > Kazuo Ishiguro . < / think > < answer > Kazuo Ishiguro < / answer > 19
HAND = [(43, 44), (44, 45), (19, 0)]
BEFORE = sum(a + b for a, b in HAND)  # 195
AFTER = BEFORE - sum(HAND[1])  # 106: the repeated search is pruned


class _Teacher:
    """The policy the rollout is saved under (it never runs: the trajectory is given)."""

    name, model, max_rounds = "teacher", "teacher-d0.3", 10

    def run(self, task: TaskInfo, seed: str) -> Rollout:
        raise NotImplementedError


def test_rounds_and_tokens_read_the_same_in_stage_picture_and_report(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    trajectory = parse_messages(MESSAGES)
    for turn, (content, response) in zip(trajectory.turns, HAND, strict=True):
        assert count_tokens(turn.content) == content
        assert count_tokens(turn.response or "") == response
    assert (trajectory.rounds, trajectory.tokens()) == (3, BEFORE) == (3, 195)

    clean_db.execute_query(
        """
        UNWIND [['Kazuo_Ishiguro', 'Kazuo Ishiguro'], ['Booker_Prize', 'Booker Prize']] AS e
        MERGE (n:Entity {entity_id: '/wiki/' + e[0]}) SET n.name = e[1], n.aliases = []
        MERGE (p:Page {page_id: '/wiki/' + e[0]}) SET p.title = e[1], p.text = e[1]
        MERGE (p)-[:ABOUT]->(n)
        WITH count(*) AS done
        MERGE (t:Task {task_id: 'count'})
        SET t.kind = 'leaper', t.variant = 'basic', t.question = $q, t.status = 'kept'
        WITH t MATCH (e:Entity {entity_id: '/wiki/Kazuo_Ishiguro'})
        MERGE (t)-[:TARGET {role: 'answer'}]->(e)
        """,
        q=QUESTION,
        database_=database,
    )
    rollout = Rollout(
        trajectory,
        [StepRecord(), StepRecord(detour_kind="redundant_search"), StepRecord()],
        Termination.ANSWER,
        "Kazuo Ishiguro",
    )
    task = TaskInfo("count", "leaper", "basic", QUESTION, None)
    targets = [Target("/wiki/Kazuo_Ishiguro", ("Kazuo Ishiguro",))]
    rid = save_rollout(clean_db, database, task, 0, _Teacher(), rollout, targets)
    clean_db.execute_query(  # what the filter stage sets on a kept trajectory
        "MATCH (r:Rollout {rollout_id: $rid}) SET r.kept = true", rid=rid, database_=database
    )

    report = run_stage(PRUNE, clean_db, database, rewrite=False)
    assert report.notes["outcomes"] == "pruned=1"
    assert report.notes["tokens (pruned trajectories)"] == "195 -> 106 (-45.6%)"
    assert report.notes["tokens (pruned trajectories)"] == change(BEFORE, AFTER)

    for subject in (rid, f"{rid}/pruned"):
        vg = graphs.load(clean_db, "trajectory", subject, database)
        assert vg.title.startswith(f"trajectory {rid}: 3 rounds, 195 tokens"), vg.title
        assert "pruned version: 2 rounds, 106 tokens" in vg.notes
    steps = graphs.load(clean_db, "steps", rid, database)
    assert steps.title == f"rollout {rid}: 3 rounds, 195 tokens"

    section = pruning_section(clean_db, database)
    assert "rounds 3 -> 2 (-33.3%), tokens 195 -> 106 (-45.6%)" in section.text, section.text
