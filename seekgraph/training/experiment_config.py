"""The `experiment` stage's settings (config section ``[experiment]``): the student, the arms,
the seeds, the shared training and evaluation budget, and the tool settings of its rollouts."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from seekgraph.agent.config import ToolSettings
from seekgraph.common.config import option

DTYPES = ("float32", "bfloat16", "float16")


ARMS = ("filtered", "unfiltered", "random", "pruned", "hybrid")


METRICS = ("valid_turn_rate", "accuracy", "f1", "isr", "ise", "rounds", "tokens", "fae")


TABLES = {  # paper → (arms in its table, the metrics it reports)
    "webleaper": (
        ("filtered", "unfiltered", "random"),
        ("valid_turn_rate", "accuracy", "f1", "isr", "ise", "rounds"),
    ),
    "webclipper": (
        ("filtered", "pruned", "hybrid"),
        ("valid_turn_rate", "rounds", "tokens", "accuracy", "fae"),
    ),
}


ARM_NAMES = {"webclipper": {"filtered": "unpruned"}}


@dataclass(frozen=True)
class ExperimentConfig(ToolSettings):
    """The comparison's data, the student's budget (the same for every arm) and its evaluation."""

    top_k: int = option(3, "Search results per query (short observations).", min=1, max=50)
    evidence_chars: int = option(600, "Extractive visit: characters per page.", min=100)
    observation_chars: int = option(
        900, "Every tool response cut to this many characters (teacher and student).", min=0
    )
    name: str = option("papers", "Experiment name (file and node).")
    arms: tuple[str, ...] = option(
        ("filtered", "unfiltered", "random", "pruned"), "Arms to train.", choices=ARMS
    )
    seeds: tuple[int, ...] = option((0, 1), "Seeds; every arm is trained once per seed.")
    variants: tuple[str, ...] = option(
        (), "Task variants used for training and evaluation (empty: any)."
    )
    train_tasks: int = option(0, "Train tasks, at most (0: all).", min=0)
    task_seed: int = option(0, "Seed of the order in which train and eval tasks are taken.")
    rollouts_per_task: int = option(2, "Teacher rollouts per train task.", min=1)
    detour_rate: float = option(0.3, "Teacher: probability of a detour after each action.", min=0)
    teacher_max_rounds: int = option(16, "Teacher: round budget.", min=2)
    rewrite_limit: int = option(
        0,
        "Pruned trajectories whose thoughts the packaged LLM rewrites (-1: all; minutes each "
        "on CPU); the others are rewritten deterministically.",
        min=-1,
    )
    model: str = option("smollm2", "The student's base: smollm2 or a checkpoint folder.")
    max_steps: int = option(150, "SFT optimizer steps per run.", min=1)
    learning_rate: float = option(1e-4, "SFT learning rate.", min=0)
    lr_scheduler_type: str = option("cosine", "transformers scheduler name.")
    warmup_steps: float = option(0.1, "Warm-up: steps (>= 1) or a share of all steps.", min=0)
    per_device_train_batch_size: int = option(1, "SFT batch size.", min=1)
    gradient_accumulation_steps: int = option(1, "SFT gradient accumulation.", min=1)
    max_length: int = option(
        1536, "SFT: tokens; longer examples are dropped (counted per arm).", min=16
    )
    equal_examples: bool = option(
        True,
        "Every arm of a seed trains on as many examples as the smallest arm has (of those "
        "that fit max_length, in the arm's seeded order), so dataset size is not a confound.",
    )
    device: str = option(
        "cpu", "cpu or cuda (SFT and the transformers eval backend).", choices=("cpu", "cuda")
    )
    dtype: str = option(
        "float32", "Weights in SFT: float32 (with mixed_bf16) or bfloat16.", choices=DTYPES
    )
    mixed_bf16: bool = option(
        True,
        "bfloat16 matmuls over float32 weights in SFT, bfloat16 weights in the evaluation "
        "(several times faster on CPUs with AMX/AVX512-BF16 and on GPUs).",
    )
    eval_tasks: int = option(20, "Held-out tasks evaluated, at most (the same for every arm).")
    eval_backend: str = option(
        "", "LLM spec serving a checkpoint in the evaluation (empty: transformers on it)."
    )
    max_rounds: int = option(8, "Evaluation: round budget (also F-AE's Max_Rounds).", min=1)
    max_tokens: int = option(384, "Evaluation: tokens per assistant message.", min=1)
    max_context_tokens: int = option(3000, "Evaluation: context budget in tokens.", min=256)
    max_seconds: float = option(600.0, "Evaluation: wall time per rollout.", min=1)
    concurrency: int = option(
        4, "Concurrent rollouts (teacher threads; one lock-step batch of the student).", min=1
    )

    def tool_settings(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(ToolSettings)}
