"""The `train-sft` stage: supervised fine-tuning on a dataset folder with TRL's `SFTTrainer`.

Loss is on assistant turns only (`assistant_only_loss=True`): the system prompt, the question
and every `<tool_response>` user turn are masked (label -100). TRL builds the mask from the chat
template's ``{% generation %}`` markers; templates without them are patched by TRL when it knows
them (Qwen3, Llama 3, ...) and ChatML templates such as SmolLM2's get
`seekgraph/training/templates/chatml_training.jinja`.

Examples longer than `max_length` are dropped, not truncated: truncating a trajectory would cut
its final answer. Which examples a run used and which it dropped (and why) is recorded on the
graph as ``(:TrainingRun)-[:TRAINING_EXAMPLE {used, reason, position, tokens}]->(:Rollout)``.
The run is a TrainingRun node; re-running the same config resumes from the last checkpoint in
the run's folder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.common.offline import offline_and_quiet
from seekgraph.training import runs
from seekgraph.training.config import SFTRunConfig, as_dict
from seekgraph.training.dataset_files import read_examples, resolve_dataset
from seekgraph.training.errors import TrainingConfigError, TrainingError

TEMPLATES = Path(__file__).resolve().parent / "templates"
CHATML_TRAINING = TEMPLATES / "chatml_training.jinja"


@dataclass
class SFTResult:
    run_id: str
    output_dir: Path
    checkpoint: Path
    steps: int
    losses: list[float]
    examples: int
    dropped_too_long: int
    seconds: float
    steps_per_second: float
    resumed_from: str | None = None
    metrics: dict[str, Any] = field(default_factory=dict)
    skipped: bool = False  # the run had finished before: nothing was trained


def resolve_model(model: str) -> Path:
    """'smollm2' → the packaged model's converted checkpoint; else an existing folder."""
    if model in ("smollm2", "default", ""):
        from seekgraph.common.llm.smollm2 import ensure_checkpoint

        return ensure_checkpoint()
    path = Path(model)
    if not (path / "config.json").is_file():
        raise TrainingConfigError(f"model {model!r} is neither 'smollm2' nor a checkpoint folder")
    return path


def training_chat_template(tokenizer: Any, override: str = "") -> str | None:
    """A template with generation markers for `tokenizer`, or None when its own has them."""
    from trl.chat_template_utils import get_training_chat_template, has_generation_markers

    if override:
        return Path(override).read_text(encoding="utf-8")
    template = tokenizer.chat_template
    if isinstance(template, dict):
        template = template.get("default", "")
    if template and has_generation_markers(template):
        return None
    try:
        patched = get_training_chat_template(tokenizer)
    except ValueError:
        patched = None
    if patched:
        return str(patched)
    if template and "<|im_start|>" in template:
        return CHATML_TRAINING.read_text(encoding="utf-8")
    raise TrainingConfigError(
        "the model's chat template has no {% generation %} markers and is not one TRL or seekgraph "
        "can patch; pass `chat_template = 'FILE.jinja'` in the SFT config"
    )


def load_tokenizer(model_path: Path, chat_template_file: str = "") -> Any:
    """The model's tokenizer with a training chat template (assistant masks) installed."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_path))
    template = training_chat_template(tokenizer, chat_template_file)
    if template is not None:
        tokenizer.chat_template = template
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def fit_examples(
    tokenizer: Any, examples: list[dict[str, Any]], max_length: int, limit: int = 0
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The conversations to train on (rendered length fits `max_length` tokens, at most `limit`
    of them when set) and the decision on every example (`example_decisions`)."""
    decisions = example_decisions(tokenizer, examples, max_length, limit)
    kept = [
        {"messages": ex["messages"]} for ex, d in zip(examples, decisions, strict=True) if d["used"]
    ]
    return kept, decisions


def example_decisions(
    tokenizer: Any, examples: list[dict[str, Any]], max_length: int, limit: int = 0
) -> list[dict[str, Any]]:
    """Per example (in dataset order): `used`, the drop `reason` ('' when used), `tokens`.

    Reasons: ``over_max_length`` (rendered conversation longer than `max_length` tokens; it is
    dropped, not truncated) and ``over_limit_examples`` (fits, but beyond `limit_examples`).
    """
    out = []
    fitting = 0
    for position, ex in enumerate(examples):
        ids = tokenizer.apply_chat_template(ex["messages"], tokenize=True, return_dict=True)
        tokens = len(ids["input_ids"])
        reason = ""
        if tokens > max_length:
            reason = "over_max_length"
        elif limit and fitting >= limit:
            reason = "over_limit_examples"
        else:
            fitting += 1
        out.append(
            {
                "rollout_id": ex.get("rollout_id", ""),
                "position": position,
                "tokens": tokens,
                "used": not reason,
                "reason": reason,
            }
        )
    return out


def build_trainer(
    config: SFTRunConfig,
    model_path: Path,
    examples: list[dict[str, Any]],
    output_dir: Path,
    callbacks: list[Any] | None = None,
) -> Any:
    """An SFTTrainer over `examples` (TRL conversational records), assistant-only loss."""
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig, SFTTrainer

    offline_and_quiet()
    from datasets import disable_progress_bars

    disable_progress_bars()  # TRL's tokenizing passes would fill logs with \r-joined bars
    tokenizer = load_tokenizer(model_path, config.chat_template)
    model = AutoModelForCausalLM.from_pretrained(
        str(model_path), dtype=getattr(torch, config.dtype)
    )
    use_cpu = config.device == "cpu"
    args = SFTConfig(
        output_dir=str(output_dir),
        max_length=config.max_length,
        assistant_only_loss=True,
        packing=config.packing,
        per_device_train_batch_size=config.per_device_train_batch_size,
        gradient_accumulation_steps=config.gradient_accumulation_steps,
        learning_rate=config.learning_rate,
        lr_scheduler_type=config.lr_scheduler_type,
        warmup_steps=config.warmup_steps,
        num_train_epochs=config.num_train_epochs,
        max_steps=config.max_steps,
        logging_steps=config.logging_steps,
        save_steps=config.save_steps,
        save_total_limit=config.save_total_limit,
        seed=config.seed,
        data_seed=config.seed,
        use_cpu=use_cpu,
        bf16=config.mixed_bf16 or (config.dtype == "bfloat16" and not use_cpu),
        report_to=[],
        dataloader_num_workers=0,
        dataset_num_proc=None,
        disable_tqdm=True,
        save_only_model=False,
        # TRL turns checkpointing on unless told (about 20% slower steps); the setting decides
        activation_checkpointing=config.gradient_checkpointing,
    )
    dataset = Dataset.from_list(examples)
    return SFTTrainer(
        model=model,
        args=args,
        train_dataset=dataset,
        processing_class=tokenizer,
        callbacks=callbacks or [],
    )


def last_checkpoint(output_dir: Path) -> Path | None:
    found = [p for p in output_dir.glob("checkpoint-*") if p.is_dir() and p.name[11:].isdigit()]
    return max(found, key=lambda p: int(p.name[11:])) if found else None


def run_sft(
    config: SFTRunConfig,
    *,
    driver: neo4j.Driver | None = None,
    database: str | None = None,
    out_root: Path = Path("out"),
    echo: Any = print,
) -> SFTResult:
    """Train, checkpoint, resume; record the TrainingRun (when a driver is given)."""
    from seekgraph.common.llm.smollm2 import is_converted  # light import: no torch

    if not config.dataset:
        raise TrainingConfigError("the SFT config needs `dataset` (a folder or a Dataset id/name)")
    dataset_id, folder = resolve_dataset(driver, database, config.dataset)
    model_path = resolve_model(config.model)
    cfg = as_dict(config)
    # where the run and its dataset lie is no part of what it is (a moved folder resumes);
    # a dataset folder without an id is known by its path alone
    where = {"output_dir", "dataset"} if dataset_id else {"output_dir"}
    rid = runs.run_id("sft", {k: v for k, v in cfg.items() if k not in where}, dataset_id)
    output_dir = runs.output_folder(config.output_dir, out_root, rid)
    done = runs.finished_run(driver, database, rid, output_dir) if driver is not None else None
    if done is not None:
        echo(f"SFT run {rid} already finished: {done['checkpoint']}")
        return _finished_result(rid, output_dir, done)
    fitting, decisions = _examples(config, model_path, folder)
    dropped = sum(1 for d in decisions if d["reason"] == "over_max_length")
    if driver is not None:
        runs.start_run(
            driver,
            database,
            run_id=rid,
            kind="sft",
            config=cfg,
            dataset_id=dataset_id,
            output_dir=output_dir,
        )
        runs.record_examples(driver, database, rid, decisions)
    metrics: dict[str, Any] = {
        "examples": len(fitting),
        "dropped_too_long": dropped,
        "model": str(model_path),
        "converted_gguf": is_converted(model_path),
    }
    checkpoints: list[str] = [str(p.resolve()) for p in sorted(output_dir.glob("checkpoint-*"))]
    callback = runs.progress_callback(driver, database, rid, metrics, checkpoints)
    trainer = build_trainer(config, model_path, fitting, output_dir, [callback])
    resume = last_checkpoint(output_dir)
    resumed_steps = int(resume.name[11:]) if resume else 0
    echo(
        f"SFT run {rid}: {len(fitting)} examples ({dropped} too long), model {model_path}"
        + (f", resuming from {resume}" if resume else "")
    )

    def summarize(output: Any, seconds: float) -> None:
        metrics.update(
            {k: float(v) for k, v in output.metrics.items() if isinstance(v, int | float)}
        )
        new_steps = int(trainer.state.global_step) - resumed_steps
        metrics["steps_per_second_measured"] = new_steps / seconds if seconds > 0 else 0.0

    seconds, final = runs.train_and_record(
        trainer,
        driver,
        database,
        run_id=rid,
        metrics=metrics,
        checkpoints=checkpoints,
        resume=str(resume) if resume else None,
        summarize=summarize,
    )
    return SFTResult(
        rid,
        output_dir,
        final,
        int(trainer.state.global_step),
        [s["loss"] for s in metrics.get("steps", []) if "loss" in s],
        len(fitting),
        dropped,
        seconds,
        float(metrics["steps_per_second_measured"]),
        str(resume) if resume else None,
        metrics,
    )


def _finished_result(run_id: str, output_dir: Path, done: dict[str, Any]) -> SFTResult:
    """The result of a run that finished earlier, read back from its TrainingRun node."""
    metrics = json.loads(done["metrics_json"] or "{}")
    return SFTResult(
        run_id,
        output_dir,
        Path(done["checkpoint"]),
        int(metrics.get("global_step", 0)),
        [s["loss"] for s in metrics.get("steps", []) if "loss" in s],
        int(metrics.get("examples", 0)),
        int(metrics.get("dropped_too_long", 0)),
        float(metrics.get("seconds", 0.0)),
        float(metrics.get("steps_per_second_measured", 0.0)),
        None,
        metrics,
        skipped=True,
    )


def count_fitting(
    config: SFTRunConfig, driver: neo4j.Driver | None = None, database: str | None = None
) -> int:
    """How many examples of `config.dataset` fit `config.max_length` tokens (before any
    `limit_examples`): what a run of this config could train on. Arms compared by an
    experiment are cut to the smallest such count, so dataset size is not a confound."""
    _, folder = resolve_dataset(driver, database, config.dataset)
    tokenizer = load_tokenizer(resolve_model(config.model), config.chat_template)
    decisions = example_decisions(tokenizer, read_examples(folder), config.max_length)
    return sum(1 for d in decisions if d["used"])


def _examples(
    config: SFTRunConfig, model_path: Path, folder: Path
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The examples that fit `max_length` and the decision on every example of the dataset."""
    tokenizer = load_tokenizer(model_path, config.chat_template)
    fitting, decisions = fit_examples(
        tokenizer, read_examples(folder), config.max_length, config.limit_examples
    )
    if not fitting:
        dropped = sum(1 for d in decisions if d["reason"] == "over_max_length")
        raise TrainingError(
            f"no example of {folder} fits max_length={config.max_length} tokens "
            f"({dropped} too long)"
        )
    return fitting, decisions
