"""Settings of the training stages: dataset, train-sft, train-grpo and eval.

Sections ``[dataset]``, ``[train-sft]``, ``[train-grpo]`` and ``[eval]`` of the config file (or of
a stage's own ``--config FILE``), read by the one config loader (`seekgraph.common.config`): unknown keys
and wrong types are errors. The defaults are a short CPU run of the packaged SmolLM2; the same
commands take a bigger model and a GPU by configuration (`configs/*.toml`).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from seekgraph.agent.config import ToolSettings
from seekgraph.common.config import option

MIXES = ("filtered", "eff", "hybrid", "auto")


@dataclass(frozen=True)
class DatasetSpec:
    """Which trajectories a dataset takes, and how they are mixed."""

    name: str = option("pipeline", "Dataset name (folder prefix).")
    mix: str = option(
        "auto",
        "filtered | eff (pruned only) | hybrid (pruned + unpruned hard ones of other tasks) | "
        "auto (hybrid when pruned trajectories exist, else filtered).",
        choices=MIXES,
    )
    splits: tuple[str, ...] = option(
        ("train",), "Task splits (a task without one counts as train)."
    )
    policies: tuple[str, ...] = option(
        (), "Rollout policies (teacher, gold-walker, llm, student); empty: any."
    )
    models: tuple[str, ...] = option(
        (), "Rollout models, e.g. question-v1-d0.3 (a policy under its settings); empty: any."
    )
    kinds: tuple[str, ...] = option((), "Task kinds, the source (leaper, shaper); empty: any.")
    variants: tuple[str, ...] = option(
        (), "Task variants (basic, union, reverse-union, kp); empty: any."
    )
    terminations: tuple[str, ...] = option(("answer",), "Rollout terminations to take.")
    kept_only: bool = option(True, "Only trajectories the ISR/ISE filter kept.")
    min_accuracy: float = option(0.0, '"Correct": accuracy at least this (1.0: exactly right).')
    min_f1: float = option(0.0, "F1 at least this.", min=0, max=1)
    min_isr: float = option(0.0, "ISR at least this.", min=0, max=1)
    min_ise: float = option(0.0, "ISE at least this.", min=0)
    pruned: bool | None = option(
        None, "mix=filtered: only pruned (true), only unpruned (false); unset: both."
    )
    drop_stale_thoughts: bool = option(
        False,
        "Leave out pruned trajectories whose thoughts were not rewritten (they may cite pruned "
        "steps); each example's `thoughts` field says which it is.",
    )
    variant_ratios: dict[str, float] = field(
        default_factory=dict,
        metadata={"help": "Share per variant, e.g. {basic = 0.5, union = 0.5} (config file only)."},
    )
    hybrid_min_rounds: int = option(
        3, '"Hard": an unpruned trajectory with at least this many rounds.', min=0
    )
    hybrid_ratio: float = option(1.0, "Unpruned hard trajectories per pruned one, at most.", min=0)
    max_per_task: int = option(0, "Trajectories per task, at most (0: no cap).", min=0)
    limit: int = option(0, "Examples, at most (0: no cap).", min=0)
    seed: int = option(0, "Seed of the (stable) selection order.")
    hf_folder: bool = option(True, "Also write a Hugging Face datasets folder (load_from_disk).")

    def canonical(self) -> dict[str, Any]:
        """The selection part of the spec as sorted plain data (hashed into the dataset id)."""
        data = dataclasses.asdict(self)
        data.pop("hf_folder")
        return json.loads(json.dumps(data, sort_keys=True, default=list))  # type: ignore[no-any-return]


@dataclass(frozen=True)
class SFTRunConfig:
    """An SFT run with TRL's SFTTrainer (loss on assistant turns only)."""

    model: str = option("smollm2", "smollm2 (the packaged model, converted once) or a folder.")
    dataset: str = option(
        "pipeline", "A dataset folder (with train.jsonl) or a Dataset id/name in the graph."
    )
    output_dir: str = option("", "Where checkpoints go (empty: <out>/runs/<run id>).")
    max_length: int = option(
        1024, "Tokens; longer examples are dropped (truncation would cut answers).", min=16
    )
    per_device_train_batch_size: int = option(1, "Batch size per device.", min=1)
    gradient_accumulation_steps: int = option(1, "Gradient accumulation steps.", min=1)
    learning_rate: float = option(2e-5, "Learning rate.", min=0)
    lr_scheduler_type: str = option("constant", "transformers scheduler name.")
    warmup_steps: float = option(0, "Warm-up: steps (>= 1) or a share of all steps (< 1).", min=0)
    num_train_epochs: float = option(1.0, "Epochs (unless max_steps > 0).", min=0)
    max_steps: int = option(10, "Optimizer steps (> 0 overrides epochs).", min=-1)
    logging_steps: int = option(1, "Log every this many steps.", min=1)
    save_steps: int = option(5, "Checkpoint every this many steps.", min=1)
    save_total_limit: int = option(2, "Checkpoints kept.", min=1)
    seed: int = option(0, "Training seed.")
    dtype: str = option(
        "float32", "float32 on CPU, bfloat16 on GPUs.", choices=("float32", "bfloat16", "float16")
    )
    device: str = option("cpu", "cpu or cuda.", choices=("cpu", "cuda"))
    mixed_bf16: bool = option(
        False,
        "Mixed precision: float32 weights, bfloat16 matmuls (GPUs, and CPUs with AMX or "
        "AVX512-BF16, where it is several times faster).",
    )
    gradient_checkpointing: bool = option(False, "Trade compute for memory.")
    packing: bool = option(False, "Pack examples into full-length sequences.")
    chat_template: str = option(
        "", "A .jinja training template (default: the model's, patched for assistant masks)."
    )
    limit_examples: int = option(0, "Train on at most this many examples (0: all).", min=0)


@dataclass(frozen=True)
class GRPORunConfig(ToolSettings):
    """Multi-turn GRPO with TRL's GRPOTrainer through the agent environment (seekgraph/training/grpo.py)."""

    top_k: int = option(3, "Search results per query.", min=1, max=50)
    evidence_chars: int = option(
        1500, "Extractive visit: characters of evidence per page.", min=100
    )
    model: str = option("smollm2", "smollm2 or a checkpoint folder.")
    output_dir: str = option("", "Where checkpoints go (empty: <out>/runs/<run id>).")
    split: str = option("train", "Tasks of this split are the prompts.")
    variants: tuple[str, ...] = option((), "Only these variants; empty: any.")
    limit_tasks: int = option(32, "Prompts (tasks), at most.", min=1)
    seed_actions: tuple[str, ...] = option(
        ("search",),
        'Environment-written opening turns ("search" the question, "visit" its top hit).',
        choices=("search", "visit"),
    )
    max_rounds: int = option(3, "Policy turns per rollout (seeded ones not counted).", min=1)
    turn_max_tokens: int = option(64, "New tokens per policy turn.", min=1)
    observation_chars: int = option(1500, "Tool responses are cut to this many characters.", min=1)
    date: str = option("", 'The system prompt\'s "Current date" (empty: today).')
    num_generations: int = option(4, "Completions per prompt (GRPO group size).", min=2)
    per_device_train_batch_size: int = option(4, "Batch size per device.", min=1)
    gradient_accumulation_steps: int = option(1, "Gradient accumulation steps.", min=1)
    max_prompt_length: int = option(512, "Prompt tokens, at most.", min=16)
    max_completion_length: int = option(
        1024, "One rollout (policy turns + tool responses) in tokens.", min=16
    )
    temperature: float = option(1.0, "Sampling temperature.", min=0)
    learning_rate: float = option(1e-6, "Learning rate.", min=0)
    beta: float = option(0.0, "KL weight (0 needs no reference model).", min=0)
    max_steps: int = option(10, "Optimizer steps.", min=1)
    logging_steps: int = option(1, "Log every this many steps.", min=1)
    save_steps: int = option(50, "Checkpoint every this many steps.", min=1)
    seed: int = option(0, "Training seed.")
    dtype: str = option(
        "float32", "float32 on CPU, bfloat16 on GPUs.", choices=("float32", "bfloat16", "float16")
    )
    device: str = option("cpu", "cpu or cuda.", choices=("cpu", "cuda"))
    omega: float = option(1.0, "Soft-F: omega > 1 weighs recall more.", min=0)
    weight_soft_f: float = option(1.0, "Reward weight of soft-F.")
    weight_efficiency: float = option(0.2, "Reward weight of the ISE efficiency term.")
    weight_format: float = option(0.2, "Reward weight of the format term.")


@dataclass(frozen=True)
class EvalConfig(ToolSettings):
    """The agent evaluation of a checkpoint on held-out tasks, written as an Evaluation node."""

    checkpoint: str = option("smollm2", "A checkpoint folder, or smollm2 for the packaged model.")
    backend: str = option(
        "",
        "LLM spec that serves the checkpoint (empty: transformers on it, on --device); e.g. "
        "openai:URL#MODEL for `vllm serve` or `transformers serve` of the same checkpoint.",
    )
    device: str = option("cpu", "transformers backend: cpu or cuda.", choices=("cpu", "cuda"))
    dtype: str = option(
        "float32",
        "transformers backend: weights' dtype (bfloat16 is faster on GPUs and AMX CPUs).",
        choices=("float32", "bfloat16", "float16"),
    )
    split: str = option("heldout", "Tasks of this split.")
    limit_tasks: int = option(10, "Tasks, at most.", min=1)
    max_rounds: int = option(4, "Round budget per rollout.", min=1)
    max_tokens: int = option(160, "Tokens per LLM message.", min=1)
    max_context_tokens: int = option(6000, "Context budget in tokens.", min=256)
    max_seconds: float = option(300.0, "Wall time per rollout.", min=1)
    concurrency: int = option(1, "Rollout threads.", min=1)


def as_dict(config: Any) -> dict[str, Any]:
    """Plain JSON-able data of a config (stored in `config_json`)."""
    result: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(config), default=list))
    return result
