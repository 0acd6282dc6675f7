"""Multi-turn GRPO through the agent environment: the episode loop and a CPU smoke test.

What these tests prove, and what not:
- `test_episode_*` drive `seekgraph.training.multiturn.run_episode` with a scripted policy (fixed turns,
  like tests/test_agent_react.py's scripted backend) over the REAL tools and the fixture web in
  Neo4j and SmolLM2's real tokenizer/chat template: the policy's tool calls are executed, their
  `<tool_response>` turns are appended exactly as the chat template renders them, and those
  tokens — and only those — have env_mask 0 (no loss); the rewards score the whole trajectory.
- `test_grpo_smoke` runs TRL's GRPOTrainer with the real SmolLM2-135M on CPU for 1 step (2 rollouts of one task). The
  environment seeds two real tool rounds (search the question, visit its top hit); the policy
  then samples its own turn(s). A 135M model with 16 tokens per turn does not write valid tool
  calls, so this proves the plumbing (seeded tool rounds, policy turns through `rollout_func`,
  rewards over trajectories, an update, the TrainingRun's per-step metrics), not learning.
"""

from __future__ import annotations

import json
from pathlib import Path

import neo4j
import pytest
import torch

from seekgraph.agent.web.tools import WebTools
from seekgraph.common.wire import system_prompt, tool_call_text
from seekgraph.training.config import GRPORunConfig
from seekgraph.training.grpo import run_grpo, task_prompts
from seekgraph.training.multiturn import EpisodeConfig, run_episode
from seekgraph.training.rewards import score_trajectory
from tests.agent_fixture import SHAPER_TASK, load_fixture

pytestmark = pytest.mark.slow

QUESTION = "Which novelist won the Booker Prize in 1980 and wrote Lord of the Flies?"
TURNS = [
    "<think>search first</think>\n"
    + tool_call_text("search", {"query": ["Booker Prize 1980 Lord of the Flies"]}),
    "<think>read his page</think>\n"
    + tool_call_text("visit", {"url": ["/wiki/William_Golding"], "goal": "the novelist"}),
    "<think>done</think>\n<answer>William Golding</answer>",
]


class Scripted:
    """A policy that writes fixed turns (token ids + end of turn) and keeps what it was shown."""

    def __init__(self, tokenizer: object, turns: list[str]) -> None:
        self.tokenizer, self.turns, self.contexts = tokenizer, list(turns), []  # type: ignore[var-annotated]

    def __call__(self, ids: list[int], max_new_tokens: int) -> list[int]:
        self.contexts.append(list(ids))
        text = self.turns[len(self.contexts) - 1]
        new = list(self.tokenizer(text, add_special_tokens=False)["input_ids"])  # type: ignore[operator]
        if len(new) >= max_new_tokens:  # cut by the budget, as generate() does: no end token
            return new[:max_new_tokens]
        return [*new, self.tokenizer.eos_token_id]  # type: ignore[attr-defined]


@pytest.fixture
def tokenizer(smollm2_checkpoint: Path) -> object:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(smollm2_checkpoint))


def _prompt() -> list[dict[str, str]]:
    return [
        {"role": "system", "content": system_prompt("2026-11-30")},
        {"role": "user", "content": QUESTION},
    ]


def test_episode_runs_policy_tool_calls_and_masks_tool_responses(
    clean_db: neo4j.Driver, database: str | None, tokenizer: object
) -> None:
    load_fixture(clean_db, database)
    tools = WebTools(clean_db, database, top_k=2, evidence_chars=400)
    policy = Scripted(tokenizer, TURNS)
    episode = run_episode(
        _prompt(),
        tokenizer=tokenizer,
        tools=tools,
        generate=policy,
        eos_ids=[tokenizer.eos_token_id],  # type: ignore[attr-defined]
        config=EpisodeConfig(max_rounds=3, turn_max_tokens=200, observation_chars=800),
    )
    assert episode.termination == "answer" and episode.prediction == "William Golding"
    assert [s["tool"] for s in episode.steps] == ["search", "visit"] and episode.tool_calls == 2
    assert "William Golding" in episode.steps[0]["observation"]  # real search results
    assert "Booker Prize in 1980" in episode.steps[1]["observation"]  # real page evidence
    # the same token stream as the chat template renders the whole conversation
    observations = [s["observation"][:800] for s in episode.steps]
    messages = _prompt()
    for turn, obs in zip(TURNS, [*observations, None], strict=True):
        messages.append({"role": "assistant", "content": turn})
        if obs is not None:
            messages.append(
                {"role": "user", "content": f"<tool_response>\n{obs}\n</tool_response>"}
            )
    rendered = tokenizer.apply_chat_template(messages, tokenize=False)  # type: ignore[attr-defined]
    decode = tokenizer.decode  # type: ignore[attr-defined]
    assert decode(episode.prompt_ids + episode.completion_ids) == rendered.rstrip("\n")
    # loss mask: 1 exactly on what the policy wrote, 0 on every tool-response turn
    assert len(episode.env_mask) == len(episode.completion_ids)
    policy_ids = [t for t, m in zip(episode.completion_ids, episode.env_mask, strict=True) if m]
    env_ids = [t for t, m in zip(episode.completion_ids, episode.env_mask, strict=True) if not m]
    assert decode(policy_ids, skip_special_tokens=True) == "".join(TURNS)
    env_text = decode(env_ids)
    assert env_text.count("<tool_response>") == 2 and observations[1][:200] in env_text
    assert "<think>" not in env_text
    # each later turn saw the earlier tool responses
    assert decode(policy.contexts[2]).count("</tool_response>") == 2
    # rewards over the whole trajectory: right answer, the visit revealed the target, 2 calls
    scored = score_trajectory(episode.record(), [["William Golding"]], omega=1.0)
    assert scored == pytest.approx({"soft_f": 1.0, "efficiency": 0.5, "format": 2 / 3})


def test_episode_budgets_and_malformed_calls(
    clean_db: neo4j.Driver, database: str | None, tokenizer: object
) -> None:
    load_fixture(clean_db, database)
    tools = WebTools(clean_db, database, top_k=2, evidence_chars=400)
    eos = [tokenizer.eos_token_id]  # type: ignore[attr-defined]
    # max_rounds: the last call runs (ISE counts it) but its response is not appended
    short = run_episode(
        _prompt(),
        tokenizer=tokenizer,
        tools=tools,
        generate=Scripted(tokenizer, TURNS),
        eos_ids=eos,
        config=EpisodeConfig(max_rounds=2, turn_max_tokens=200),
    )
    assert short.termination == "max_rounds" and len(short.steps) == 2
    assert short.completion_ids[-1] == eos[0] and short.env_mask[-1] == 1
    # a malformed call is answered with the agent's error observation; prose ends the episode
    bad = run_episode(
        _prompt(),
        tokenizer=tokenizer,
        tools=tools,
        generate=Scripted(tokenizer, ["<tool_call>{not json</tool_call>", "I think it is him."]),
        eos_ids=eos,
        config=EpisodeConfig(max_rounds=3, turn_max_tokens=200),
    )
    assert bad.termination == "format_error" and bad.tool_calls == 0
    assert bad.steps[0]["observation"].startswith("Error: Tool call is not a valid JSON")
    assert bad.record()["rounds"] == 2
    # a turn cut by turn_max_tokens before </tool_call>: the one parser (Tongyi's leniency)
    # reads no call, as the agent's loop would, so the episode ends with a format error
    call = TURNS[0].removesuffix("\n</tool_call>")
    n = len(tokenizer(call, add_special_tokens=False)["input_ids"])  # type: ignore[operator]
    cut = run_episode(
        _prompt(),
        tokenizer=tokenizer,
        tools=tools,
        generate=Scripted(tokenizer, [call + " and then more words", "done."]),
        eos_ids=eos,
        config=EpisodeConfig(max_rounds=2, turn_max_tokens=n),
    )
    assert cut.termination == "format_error" and cut.tool_calls == 0
    assert cut.env_mask == [1] * n and len(cut.completion_ids) == n


def _weights(path: Path) -> dict[str, torch.Tensor]:
    from safetensors.torch import load_file

    return load_file(str(path / "model.safetensors"))


def test_grpo_smoke(
    clean_db: neo4j.Driver, database: str | None, smollm2_checkpoint: Path, tmp_path: Path
) -> None:
    load_fixture(clean_db, database)
    config = GRPORunConfig(
        model=str(smollm2_checkpoint),
        output_dir=str(tmp_path / "grpo"),
        limit_tasks=2,
        seed_actions=("search", "visit"),
        max_rounds=2,
        turn_max_tokens=16,
        max_completion_length=512,
        observation_chars=400,
        top_k=2,
        evidence_chars=400,
        date="2026-11-30",
        num_generations=2,
        per_device_train_batch_size=2,
        temperature=1.0,
        max_steps=1,
        learning_rate=1e-4,
        seed=3,
    )
    prompts = task_prompts(clean_db, database, config)
    assert [p["task_id"] for p in prompts] == sorted(p["task_id"] for p in prompts)
    golding = next(p for p in prompts if p["task_id"] == SHAPER_TASK)
    # two environment-written tool rounds, each answered by the real tools
    roles = [m["role"] for m in golding["prompt"]]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]
    assert '"name": "visit"' in golding["prompt"][4]["content"]
    assert "Booker Prize in 1980" in golding["prompt"][5]["content"]
    result = run_grpo(config, driver=clean_db, database=database, echo=lambda s: None)
    assert result.steps == 1 and len(result.rewards) == 1
    before, after = _weights(smollm2_checkpoint), _weights(result.checkpoint)
    changed = [k for k in before if not torch.equal(before[k], after[k])]
    assert changed, "no parameter changed: every group had equal rewards"
    node = clean_db.execute_query(
        "MATCH (r:TrainingRun {run_id: $id}) OPTIONAL MATCH (r)-[:USED_TASK]->(t:Task) "
        "RETURN r, count(t) AS tasks",
        id=result.run_id,
        database_=database,
    ).records[0]
    assert node["r"]["kind"] == "grpo" and node["r"]["status"] == "finished" and node["tasks"] == 2
    metrics = json.loads(node["r"]["metrics_json"])
    logged = [s for s in metrics["steps"] if "reward" in s]
    assert [s["step"] for s in logged] == [1]
    for s in logged:
        for name in ("soft_f_reward", "efficiency_reward", "format_reward"):
            assert f"rewards/{name}/mean" in s
    # every rollout: the two seeded tool rounds, then at least one policy turn
    episodes = [e for b in metrics["rollouts"] for e in b["rounds"]]
    assert len(episodes) == 2 and all(r >= 3 for r in episodes)
    assert all(n >= 2 for b in metrics["rollouts"] for n in b["tool_calls"])
    # the efficiency reward counts only the policy's own calls, not the seeded visit's finds
    own_calls = [n for b in metrics["rollouts"] for n in b["policy_tool_calls"]]
    if not any(own_calls):
        assert all(s["rewards/efficiency_reward/mean"] == 0 for s in logged)
