"""Typed configs of dataset specs, SFT and GRPO runs, loaded from TOML or YAML files.

A config file holds the fields of one dataclass at top level (or under a section named like
the kind: ``[sft]``, ``[grpo]``, ``[dataset]``). Unknown keys are errors (a typo must not be
silently ignored); precedence is flag > file > default (`load_config(..., overrides=...)`).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from training.errors import TrainingConfigError

MIXES = ("filtered", "eff", "hybrid", "auto")


@dataclass(frozen=True)
class DatasetSpec:
    """Which trajectories a dataset takes, and how they are mixed."""

    name: str = "default"
    mix: str = "auto"  # filtered | eff (pruned only) | hybrid (pruned + unpruned hard of other tasks) | auto
    splits: tuple[str, ...] = ("train",)  # Task.split (a task without one counts as train)
    policies: tuple[str, ...] = ()  # Rollout.policy (teacher, llm); empty: any
    kinds: tuple[str, ...] = ()  # Task.kind, the source (leaper, shaper); empty: any
    variants: tuple[str, ...] = ()  # Task.variant (basic, union, reverse-union, kp); empty: any
    terminations: tuple[str, ...] = ("answer",)
    kept_only: bool = True  # the ISR/ISE filter's verdict (Rollout.kept)
    min_accuracy: float = 0.0  # "correct": accuracy >= this (1.0 = exactly right)
    min_f1: float = 0.0
    min_isr: float = 0.0
    min_ise: float = 0.0
    pruned: bool | None = None  # for mix=filtered: only pruned (true), only unpruned (false), both
    variant_ratios: dict[str, float] = field(
        default_factory=dict
    )  # e.g. {basic = 0.5, union = 0.5}
    hybrid_min_rounds: int = 3  # "hard": an unpruned trajectory with at least this many rounds
    hybrid_ratio: float = 1.0  # unpruned hard trajectories per pruned one, at most
    max_per_task: int = 0  # 0: no cap
    limit: int = 0  # 0: no cap
    seed: int = 0

    def canonical(self) -> dict[str, Any]:
        """The spec as sorted plain data (hashed into the dataset id)."""
        data = dataclasses.asdict(self)
        return json.loads(json.dumps(data, sort_keys=True, default=list))


@dataclass(frozen=True)
class SFTRunConfig:
    """An SFT run with TRL's SFTTrainer (loss on assistant turns only)."""

    model: str = "smollm2"  # "smollm2" (packaged, converted once) or a checkpoint folder
    dataset: str = ""  # a dataset folder (with train.jsonl) or a Dataset id/name in the graph
    output_dir: str = ""  # default: out/runs/<run_id>
    max_length: int = 1024  # tokens; longer examples are dropped (truncation would cut answers)
    per_device_train_batch_size: int = 1
    gradient_accumulation_steps: int = 1
    learning_rate: float = 2e-5
    lr_scheduler_type: str = "constant"
    warmup_steps: float = 0  # an int: steps; a float < 1: share of all steps
    num_train_epochs: float = 1.0
    max_steps: int = -1  # > 0 overrides epochs
    logging_steps: int = 1
    save_steps: int = 50
    save_total_limit: int = 2
    seed: int = 0
    dtype: str = "float32"  # bfloat16 on GPUs
    device: str = "cpu"  # cpu | cuda
    gradient_checkpointing: bool = False
    packing: bool = False
    chat_template: str = ""  # a .jinja file; default: the model's, patched for assistant masks
    limit_examples: int = 0  # 0: all


@dataclass(frozen=True)
class GRPORunConfig:
    """Multi-turn GRPO with TRL's GRPOTrainer through the agent environment (training/grpo.py)."""

    model: str = "smollm2"
    output_dir: str = ""
    split: str = "train"
    variants: tuple[str, ...] = ()
    limit_tasks: int = 32
    # environment-written opening turns ("search" the question, "visit" its top hit); () = none
    seed_actions: tuple[str, ...] = ("search",)
    max_rounds: int = 3  # assistant turns the policy writes per rollout (seeded ones not counted)
    turn_max_tokens: int = 64  # new tokens per policy turn
    observation_chars: int = 1500  # tool responses are cut to this many characters
    top_k: int = 3  # search results per query
    evidence_chars: int = 1500  # extractive visit budget per page
    date: str = ""  # "Current date" of the system prompt; "" = today
    num_generations: int = 4
    per_device_train_batch_size: int = 4
    gradient_accumulation_steps: int = 1
    max_prompt_length: int = 512
    max_completion_length: int = 1024  # one rollout: policy turns + tool responses, in tokens
    temperature: float = 1.0
    learning_rate: float = 1e-6
    beta: float = 0.0  # KL weight; 0 needs no reference model
    max_steps: int = 10
    logging_steps: int = 1
    save_steps: int = 50
    seed: int = 0
    dtype: str = "float32"
    device: str = "cpu"
    omega: float = 1.0  # soft-F: omega > 1 weighs recall more
    weight_soft_f: float = 1.0
    weight_efficiency: float = 0.2
    weight_format: float = 0.2


C = TypeVar("C", DatasetSpec, SFTRunConfig, GRPORunConfig)


def _read(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise TrainingConfigError(f"config file {path} does not exist")
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(text) or {}
        else:
            data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as e:
        raise TrainingConfigError(f"{path}: cannot parse: {e}") from e
    if not isinstance(data, dict):
        raise TrainingConfigError(f"{path}: expected a table of settings at top level")
    return data


def _coerce(name: str, value: Any, annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _coerce(name, value, inner[0])
    if origin is tuple:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple):
            raise TrainingConfigError(f"{name}: expected a list, got {value!r}")
        return tuple(str(v) for v in value)
    if origin is dict:
        if not isinstance(value, dict):
            raise TrainingConfigError(f"{name}: expected a table, got {value!r}")
        return {str(k): float(v) for k, v in value.items()}
    if annotation is bool:
        if not isinstance(value, bool):
            raise TrainingConfigError(f"{name}: expected true/false, got {value!r}")
        return value
    if annotation is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TrainingConfigError(f"{name}: expected an integer, got {value!r}")
        return value
    if annotation is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TrainingConfigError(f"{name}: expected a number, got {value!r}")
        return float(value)
    if annotation is str:
        if not isinstance(value, str):
            raise TrainingConfigError(f"{name}: expected a string, got {value!r}")
        return value
    return value


def from_mapping(cls: type[C], data: dict[str, Any], *, source: str = "config") -> C:
    """Build `cls` from a plain mapping; unknown keys and wrong types are errors."""
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise TrainingConfigError(f"{source}: unknown setting(s) {unknown}; known: {sorted(names)}")
    values = {k: _coerce(f"{source}: {k}", v, hints[k]) for k, v in data.items()}
    config = cls(**values)
    if isinstance(config, DatasetSpec) and config.mix not in MIXES:
        raise TrainingConfigError(f"{source}: mix must be one of {MIXES}, got {config.mix!r}")
    return config


def load_config(
    cls: type[C],
    path: Path | None,
    *,
    section: str | None = None,
    overrides: dict[str, Any] | None = None,
) -> C:
    """Read `path` (TOML or YAML; optional `[section]`), apply `overrides` (flags, non-None)."""
    data: dict[str, Any] = {}
    if path is not None:
        raw = _read(Path(path))
        data = (
            dict(raw.get(section, raw)) if section and isinstance(raw.get(section), dict) else raw
        )
    data.update({k: v for k, v in (overrides or {}).items() if v is not None})
    return from_mapping(cls, data, source=str(path or "flags"))


def as_dict(config: DatasetSpec | SFTRunConfig | GRPORunConfig) -> dict[str, Any]:
    """Plain JSON-able data of a config (stored in `config_json`)."""
    result: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(config), default=list))
    return result
