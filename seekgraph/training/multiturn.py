"""Multi-turn GRPO rollouts through the agent's environment (TRL's `rollout_func` hook).

TRL 1.16's `GRPOTrainer(rollout_func=...)` hands the per-process batch of prompts (each prompt
already repeated `num_generations` times by TRL's sampler) to a function that returns
``prompt_ids``, ``completion_ids`` and ``logprobs`` per prompt; every other key is passed to the
reward functions, except ``env_mask``, which TRL multiplies into the loss mask (1 = token the
policy wrote, 0 = token the environment wrote). This module is that function for the agent's
ReAct environment, in the Tongyi wire format of `seekgraph.agent.react`:

1. the prompt (system, question, and any seeded assistant/tool turns) is rendered with the
   tokenizer's chat template, generation prompt added;
2. the policy samples one assistant turn (up to `turn_max_tokens`, stopped at the end-of-turn
   token or at ``<tool_response>``, as the agent stops its backends);
3. the wire format's parser (`seekgraph.common.wire.parse_assistant`) reads it: ``<answer>`` ends the episode; a ``<tool_call>`` is run
   through the real `search`/`visit` tools (`seekgraph.agent.web.tools`, the graph's offline web) and its
   ``<tool_response>`` user turn is appended as the chat template renders it — those tokens get
   ``env_mask`` 0, so they are context for later turns but carry no loss; a malformed call comes
   back as the agent's error observation; a turn with neither ends the episode (format error);
4. until `max_rounds` policy turns or `max_completion_tokens` tokens.

The whole multi-turn completion (policy turns and tool responses) is one GRPO completion; the
rewards (`seekgraph.training.rewards.score_trajectory`) score the returned ``trajectory`` record: answer,
every tool call and observation (seeded ones included), every policy turn.

Rollouts are generated one at a time with `model.generate` (plain PyTorch, no vLLM): fine for
the CPU smoke test and small models, slow for real runs — a batched or vLLM-backed version
would keep this function's contract. TRL gets ``logprobs=None`` (no importance-sampling
correction is needed: the same weights generate and train within a step).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from seekgraph.agent.trajectory import Termination
from seekgraph.agent.web.tools import Observation, ToolBox
from seekgraph.common.wire import STOP, cut_at_stop, parse_assistant, tool_response_text

Generate = Callable[[list[int], int], list[int]]  # (context ids, max new tokens) -> new ids
_PLACEHOLDER = "@@SEEKGRAPH-ASSISTANT-TURN@@"


@dataclass(frozen=True)
class EpisodeConfig:
    max_rounds: int = 3  # assistant turns the policy writes (seeded turns not counted)
    turn_max_tokens: int = 64  # new tokens per policy turn
    max_completion_tokens: int = 1024  # policy + tool-response tokens of one episode
    observation_chars: int = 1500  # tool responses are cut to this many characters


@dataclass
class Episode:
    """One multi-turn rollout: token ids, loss mask and what the rewards read."""

    prompt_ids: list[int]
    completion_ids: list[int] = field(default_factory=list)
    env_mask: list[int] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)  # role, tool, arguments, observation
    turns: list[str] = field(default_factory=list)  # the policy's turns (cleaned text)
    prediction: str = ""
    termination: str = ""
    seeded_rounds: int = 0
    tool_calls: int = 0  # calls the policy made (seeded ones are in `steps` only)

    def record(self) -> dict[str, Any]:
        """The ``trajectory`` field TRL passes to the reward functions."""
        return {
            "steps": self.steps,
            "turns": self.turns,
            "prediction": self.prediction,
            "termination": self.termination,
            "rounds": self.seeded_rounds + len(self.turns),
            "policy_tool_calls": self.tool_calls,
        }


def render_ids(tokenizer: Any, messages: Sequence[dict[str, str]]) -> list[int]:
    out = tokenizer.apply_chat_template(
        list(messages), add_generation_prompt=True, tokenize=True, return_dict=True
    )
    return list(out["input_ids"])


def tool_turn_suffix(tokenizer: Any, content: str) -> str:
    """What the chat template writes after an assistant turn's end token up to the next
    assistant generation prompt, for a user turn holding `content` (found with a placeholder
    conversation, so any template works, not only ChatML)."""
    messages = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": _PLACEHOLDER},
        {"role": "user", "content": content},
    ]
    text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    marker = _PLACEHOLDER + (tokenizer.eos_token or "")
    at = text.rfind(marker)
    if at < 0:
        raise ValueError("the chat template does not end an assistant turn with the EOS token")
    return str(text[at + len(marker) :])


def seeded_steps(prompt: Sequence[dict[str, str]]) -> list[dict[str, Any]]:
    """Tool calls already in the prompt (seeded assistant turns) with their observations,
    marked ``seeded`` (the environment made them: rewards do not count them as the policy's)."""
    steps: list[dict[str, Any]] = []
    for i, message in enumerate(prompt):
        if message["role"] != "assistant":
            continue
        parsed = parse_assistant(message["content"])
        if parsed.kind not in ("tool_call", "malformed_call"):
            continue
        reply = prompt[i + 1]["content"] if i + 1 < len(prompt) else ""
        observation = reply.removeprefix("<tool_response>").removesuffix("</tool_response>")
        steps.append(
            {
                "role": "tool_call",
                "tool": parsed.tool,
                "arguments": parsed.arguments,
                "observation": observation.strip(),
                "seeded": True,
            }
        )
    return steps


def run_episode(
    prompt: Sequence[dict[str, str]],
    *,
    tokenizer: Any,
    tools: ToolBox,
    generate: Generate,
    eos_ids: Sequence[int],
    config: EpisodeConfig,
) -> Episode:
    """Roll one prompt out to an answer, a format error or a budget (module docstring)."""
    episode = Episode(render_ids(tokenizer, prompt))
    episode.steps = seeded_steps(prompt)
    episode.seeded_rounds = sum(1 for m in prompt if m["role"] == "assistant")
    eos = list(eos_ids)
    for round_index in range(config.max_rounds):
        room = config.max_completion_tokens - len(episode.completion_ids)
        if room <= 0:
            episode.termination = Termination.CONTEXT_LIMIT.value
            break
        new = generate(
            episode.prompt_ids + episode.completion_ids, min(room, config.turn_max_tokens)
        )
        hits = [new.index(t) for t in eos if t in new]
        ended = bool(hits)
        if hits:  # generate() may run on past the end token when it pads
            new = new[: min(hits) + 1]
        episode.completion_ids += new
        episode.env_mask += [1] * len(new)
        text = cut_at_stop(tokenizer.decode(new, skip_special_tokens=True), STOP).strip()
        episode.turns.append(text)
        parsed = parse_assistant(text)
        if parsed.kind == "answer":
            episode.prediction = parsed.answer
            episode.termination = Termination.ANSWER.value
            break
        if parsed.kind == "invalid":
            episode.termination = Termination.FORMAT_ERROR.value
            break
        if parsed.kind == "malformed_call":
            observation = Observation(parsed.error, error="malformed_tool_call")
        else:
            observation = tools.call(parsed.tool, parsed.arguments)
            episode.tool_calls += 1
        shown = observation.text[: config.observation_chars]  # what the policy reads
        episode.steps.append(
            {
                "role": "tool_call",
                "tool": parsed.tool,
                "arguments": parsed.arguments,
                "observation": shown,  # the rewards credit only what it was shown
            }
        )
        if round_index == config.max_rounds - 1:  # the agent, too, stops before reading it
            episode.termination = Termination.MAX_ROUNDS.value
            break
        response = tool_response_text(shown)
        suffix = tokenizer(tool_turn_suffix(tokenizer, response), add_special_tokens=False)
        env_ids = ([] if ended else eos[:1]) + list(suffix["input_ids"])
        episode.completion_ids += env_ids
        episode.env_mask += [0] * len(env_ids)
    if not episode.completion_ids:  # TRL needs one token; an environment token carries no loss
        episode.completion_ids, episode.env_mask = eos[:1], [0]
    if len(episode.completion_ids) > config.max_completion_tokens:  # the last tool response
        episode.completion_ids = episode.completion_ids[: config.max_completion_tokens]
        episode.env_mask = episode.env_mask[: config.max_completion_tokens]
        episode.termination = episode.termination or Termination.CONTEXT_LIMIT.value
    return episode


def sampler(trainer: Any, temperature: float) -> Generate:
    """`Generate` over the trainer's current policy weights (sampling, no gradients)."""
    import torch
    from trl.models.utils import unwrap_model_for_generation

    tokenizer = trainer.processing_class

    def generate(ids: list[int], max_new_tokens: int) -> list[int]:
        device = trainer.accelerator.device
        with (
            unwrap_model_for_generation(trainer.model_wrapped, trainer.accelerator) as model,
            torch.no_grad(),
        ):
            out = model.generate(
                input_ids=torch.tensor([ids], device=device),
                attention_mask=torch.ones(1, len(ids), dtype=torch.long, device=device),
                max_new_tokens=max_new_tokens,
                do_sample=True,
                temperature=temperature,
                top_p=1.0,
                top_k=0,
                eos_token_id=list(trainer.eos_token_ids),
                pad_token_id=tokenizer.pad_token_id,
                stop_strings=["<tool_response>"],
                tokenizer=tokenizer,
            )
        return [int(t) for t in out[0, len(ids) :].tolist()]

    return generate


def make_rollout_func(
    tools: ToolBox, config: EpisodeConfig, temperature: float, stats: dict[str, Any]
) -> Callable[[list[Any], Any], dict[str, Any]]:
    """TRL's ``rollout_func(prompts, trainer)`` running `run_episode` per prompt.

    `stats` collects per-batch episode statistics (rounds, tool calls, terminations) that the
    caller writes to the TrainingRun."""

    def rollout_func(prompts: list[Any], trainer: Any) -> dict[str, Any]:
        generate = sampler(trainer, temperature)
        started = time.perf_counter()
        episodes = [
            run_episode(
                prompt,
                tokenizer=trainer.processing_class,
                tools=tools,
                generate=generate,
                eos_ids=list(trainer.eos_token_ids),
                config=config,
            )
            for prompt in prompts
        ]
        records = [e.record() for e in episodes]
        terminations: dict[str, int] = {}
        for e in episodes:
            terminations[e.termination] = terminations.get(e.termination, 0) + 1
        stats.setdefault("batches", []).append(
            {
                "episodes": len(episodes),
                "rounds": [r["rounds"] for r in records],
                "policy_tool_calls": [e.tool_calls for e in episodes],
                "tool_calls": [len(e.steps) for e in episodes],
                "env_tokens": [e.env_mask.count(0) for e in episodes],
                "policy_tokens": [e.env_mask.count(1) for e in episodes],
                "terminations": terminations,
                "seconds": time.perf_counter() - started,
            }
        )
        return {
            "prompt_ids": [e.prompt_ids for e in episodes],
            "completion_ids": [e.completion_ids for e in episodes],
            "logprobs": None,
            "env_mask": [e.env_mask for e in episodes],
            "trajectory": records,
        }

    return rollout_func
