"""Training side on CPU: building a dataset of ~10k trajectories, and SFT steps/s + peak memory.

Part 1 (private Neo4j on free ports): writes N synthetic trajectories in the agent's shape
(seekgraph/training/synthetic.py; ~40 % with a pruned twin), then times reading the candidates (the
reference), a `filtered` build (JSONL + card + Dataset node + INCLUDES) and a `hybrid` build
with the Hugging Face folder. Part 2: SFT steps/s and peak RSS of SmolLM2-135M (float32, CPU,
batch 1) on trajectories padded towards the default `max_length` (1024), after one warm-up.

    .venv/bin/python -m bench.bench_training --trajectories 10000 --sft-steps 3
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.bench_load import connect, private_server
from bench.common import Measurement, measure, peak_rss, table, write_markdown
from seekgraph.graphdb import server
from seekgraph.graphdb.schema import apply_schema
from seekgraph.training.config import DatasetSpec, SFTRunConfig
from seekgraph.training.datasets import build_dataset, load_candidates
from tests.scaffolding.rollouts import messages, trajectory_rows, write_rows


def bench_dataset(n_trajectories: int, repeat: int, root: Path) -> list[Measurement]:
    settings = private_server(root)
    server.start(settings)
    try:
        driver = connect(settings)
        apply_schema(driver)
        n_tasks = max(1, int(n_trajectories / 1.4))
        rows = trajectory_rows(n_tasks, pruned_share=0.6, seed=11)
        start = time.perf_counter()
        written = write_rows(driver, None, rows)
        print(f"wrote {written} rollouts in {time.perf_counter() - start:.1f}s")
        out = root / "datasets"
        results = [
            measure(
                "read candidates (reference)",
                lambda: len(load_candidates(driver, None)),
                repeat=repeat,
            )
        ]

        def build(spec: DatasetSpec, hf: bool) -> int:
            folder = out / f"{spec.name}-{time.perf_counter_ns()}"  # a fresh folder: full work
            return build_dataset(driver, None, replace(spec, hf_folder=hf), folder).n_examples

        filtered = DatasetSpec(name="all", mix="filtered", kept_only=False)
        results.append(
            measure(
                "build filtered (JSONL, node, INCLUDES)",
                lambda: build(filtered, False),
                repeat=repeat,
            )
        )
        hybrid = DatasetSpec(name="hybrid", mix="hybrid", kept_only=False)
        results.append(
            measure("build hybrid + HF datasets folder", lambda: build(hybrid, True), repeat=repeat)
        )
        driver.close()
        return results
    finally:
        server.stop(settings, timeout=60)


def bench_sft(steps: int, max_length: int, root: Path) -> tuple[Measurement, float, int]:
    from seekgraph.common.llm.smollm2 import ensure_checkpoint
    from seekgraph.training.sft import build_trainer, fit_examples, load_tokenizer

    model = ensure_checkpoint()
    rng = random.Random(0)
    tokenizer = load_tokenizer(model)
    examples = []
    for i in range(48):  # 3..14 rounds; the longest that fit max_length are used
        conversation = messages(
            f"Which entities of group {i} match all the clues given?",
            [f"Entity {i}-{k}" for k in range(3)],
            3 + i % 12,
            rng,
        )
        examples.append({"messages": conversation})
    fitting, _ = fit_examples(tokenizer, examples, max_length)

    def length(example: dict[str, Any]) -> int:
        ids = tokenizer.apply_chat_template(example["messages"], tokenize=True, return_dict=True)
        return len(ids["input_ids"])

    fitting = sorted(fitting, key=length, reverse=True)[:8]
    lengths = [
        len(
            tokenizer.apply_chat_template(e["messages"], tokenize=True, return_dict=True)[
                "input_ids"
            ]
        )
        for e in fitting
    ]
    config = SFTRunConfig(
        max_length=max_length, max_steps=steps + 1, save_steps=10_000, learning_rate=1e-5
    )
    trainer = build_trainer(config, model, fitting, root / "sft")
    times: list[float] = []

    from transformers import TrainerCallback

    class Timer(TrainerCallback):  # type: ignore[misc]
        def on_step_begin(self, *args: object, **kwargs: object) -> None:
            self.start = time.perf_counter()

        def on_step_end(self, *args: object, **kwargs: object) -> None:
            times.append(time.perf_counter() - self.start)

    trainer.add_callback(Timer())
    with peak_rss() as peak:
        trainer.train()
    result = Measurement(f"SFT step, SmolLM2 fp32, {max_length} tok", times[1:], items=1)
    mean_tokens = int(sum(lengths) / len(lengths)) if lengths else 0
    return result, peak["peak_mib"], mean_tokens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trajectories", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sft-steps", type=int, default=3)
    parser.add_argument("--max-length", type=int, default=1024)
    parser.add_argument("--skip-sft", action="store_true")
    args = parser.parse_args()
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-training-") as tmp:
        rows = bench_dataset(args.trajectories, args.repeat, Path(tmp))
        lines += table(rows, "read candidates (reference)", unit="examples")
        print("\n".join(lines), flush=True)
        if not args.skip_sft:
            sft, peak, tokens = bench_sft(args.sft_steps, args.max_length, Path(tmp))
            lines += [
                "",
                f"{'case':<40} {'steps':>5} {'median s/step':>14} {'steps/s':>8} "
                f"{'tokens/step':>11} {'peak RSS MiB':>13}",
                f"{sft.case:<40} {len(sft.seconds):>5} {sft.median:>14.2f} "
                f"{1 / sft.median:>8.3f} {tokens:>11} {peak:>13.0f}",
            ]
    print("\n".join(lines))
    note = (
        f"{args.trajectories} synthetic trajectories (seekgraph/training/synthetic.py) in a private "
        "server; 2-core machine shared with other jobs (load ~20), so absolute times are "
        "pessimistic. `python -m bench.bench_training`"
    )
    write_markdown(Path("docs/benchmarks.md"), "Training: dataset build and CPU SFT", lines, note)


if __name__ == "__main__":
    main()
