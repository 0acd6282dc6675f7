"""One short GPU check (run by the lead on a lent H200, see scripts/gpu_check.sh).

What it does, in about a minute of device time:
1. builds the model: the checkpoint in ``--model`` when it has weights, else a randomly
   initialised model from its ``config.json`` (weights do not change throughput; the real
   SmolLM2 weights are 540 MB and cannot travel to the device machine), saved to /tmp;
2. three agent generations (Tongyi wire format prompts) through ``load_backend('vllm:...')``
   when vLLM is importable there, else says why not, and through the transformers backend on
   CUDA;
3. one SFT step (forward + backward + AdamW, loss on assistant tokens only, bf16) per model
   size: the SmolLM2 shape and a larger Qwen3-1.7B-shaped model (random init), tokens/s;
4. prints a table (and writes it to ``$OUT/gpu_check.md`` when ``$OUT`` is set).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

AGENT_MESSAGES = [
    {
        "role": "system",
        "content": "You are a deep research assistant. Use <tool_call> to call "
        "search or visit, and give the final answer in <answer></answer>.",
    },
    {
        "role": "user",
        "content": "Which novels by Kazuo Ishiguro were shortlisted for the Booker "
        "Prize, and in which years?",
    },
]

# Qwen3-1.7B's published shape; random weights, throughput only
QWEN3_1_7B_SHAPE: dict[str, Any] = {
    "model_type": "qwen3",
    "hidden_size": 2048,
    "intermediate_size": 6144,
    "num_hidden_layers": 28,
    "num_attention_heads": 16,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "vocab_size": 151936,
    "max_position_embeddings": 40960,
    "rope_theta": 1000000.0,
    "tie_word_embeddings": True,
}


def materialise(model_dir: Path, out: Path) -> Path:
    """A loadable checkpoint folder: `model_dir` itself if it has weights, else random init."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    if any(model_dir.glob("*.safetensors")):
        return model_dir
    config = AutoConfig.from_pretrained(str(model_dir))
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out))
    for name in os.listdir(model_dir):
        if name.startswith("tokenizer") or name.endswith(".jinja") or name.endswith(".txt"):
            shutil.copy(model_dir / name, out / name)
    return out


def generations(spec: str, n: int = 3, max_tokens: int = 128) -> dict[str, Any]:
    from seekgraph.common.llm import load_backend
    from seekgraph.graphdb.errors import SeekgraphError

    try:
        backend = load_backend(spec)
        start = time.perf_counter()
        tokens = 0
        for i in range(n):
            gen = backend.generate(
                AGENT_MESSAGES,
                max_tokens=max_tokens,
                temperature=0.7,
                seed=i,
                stop=["<tool_response>"],
            )
            tokens += gen.completion_tokens
        seconds = time.perf_counter() - start
        return {
            "spec": spec,
            "ok": True,
            "tokens": tokens,
            "seconds": round(seconds, 3),
            "tokens_per_s": round(tokens / seconds, 1),
            "sample": gen.text[:80],
        }
    except (SeekgraphError, ImportError) as e:
        return {"spec": spec, "ok": False, "error": f"{type(e).__name__}: {str(e)[:200]}"}


def sync(device: str) -> None:
    import torch

    if device == "cuda":
        torch.cuda.synchronize()


def sft_step(config: Any, seq_len: int, batch: int, device: str = "cuda") -> dict[str, Any]:
    """Tokens/s of one masked-loss training step (after one warm-up step)."""
    import torch
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16).to(device)
    model.train()
    optim = torch.optim.AdamW(model.parameters(), lr=1e-5)
    ids = torch.randint(0, config.vocab_size, (batch, seq_len), device=device)
    labels = ids.clone()
    labels[:, : seq_len // 2] = -100  # prompt/tool tokens masked, as in the SFT collator
    times = []
    for _ in range(3):
        sync(device)
        start = time.perf_counter()
        loss = model(input_ids=ids, labels=labels).loss
        loss.backward()
        optim.step()
        optim.zero_grad(set_to_none=True)
        sync(device)
        times.append(time.perf_counter() - start)
    best = min(times[1:])
    params = sum(p.numel() for p in model.parameters())
    del model, optim
    peak = torch.cuda.max_memory_allocated() / 2**30 if device == "cuda" else float("nan")
    if device == "cuda":
        torch.cuda.empty_cache()
    return {
        "params_m": round(params / 1e6, 1),
        "seq_len": seq_len,
        "batch": batch,
        "step_s": round(best, 4),
        "tokens_per_s": round(batch * seq_len / best),
        "peak_gib": round(peak, 2),
    }


def main() -> None:
    import torch
    from transformers import AutoConfig

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--model",
        type=Path,
        default=Path(".gpu_check/smollm2"),
        help="checkpoint folder (weights optional: config + tokenizer suffice)",
    )
    parser.add_argument("--seq-len", type=int, default=2048)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--device", default="cuda", help="cpu: a dry run of the script itself")
    parser.add_argument("--gen-tokens", type=int, default=128)
    parser.add_argument("--skip-large", action="store_true", help="skip the Qwen3-1.7B shape")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.device == "cuda":
        assert torch.cuda.is_available(), "no CUDA device"
        lines = [f"device: {torch.cuda.get_device_name(0)}; torch {torch.__version__}"]
    else:
        lines = [f"device: {args.device} (dry run); torch {torch.__version__}"]
    model_dir = materialise(args.model, Path("/tmp/gpu_check_model"))
    results: dict[str, Any] = {"generation": [], "sft": []}
    results["generation"].append(generations(f"vllm:{model_dir}", max_tokens=args.gen_tokens))
    from seekgraph.common.llm.transformers_backend import TransformersBackend

    tb = TransformersBackend(model_dir, device=args.device, dtype="bfloat16")
    start = time.perf_counter()
    toks = 0
    for i in range(3):
        toks += tb.generate(
            AGENT_MESSAGES, max_tokens=args.gen_tokens, temperature=0.7, seed=i
        ).completion_tokens
    secs = time.perf_counter() - start
    results["generation"].append(
        {
            "spec": f"transformers:{model_dir} ({args.device})",
            "ok": True,
            "tokens": toks,
            "seconds": round(secs, 3),
            "tokens_per_s": round(toks / secs, 1),
        }
    )
    small = AutoConfig.from_pretrained(str(model_dir))
    results["sft"].append(
        {"model": "smollm2-135m shape", **sft_step(small, args.seq_len, args.batch, args.device)}
    )
    if not args.skip_large:
        large = AutoConfig.for_model(**QWEN3_1_7B_SHAPE)
        results["sft"].append(
            {
                "model": "qwen3-1.7b shape (random)",
                **sft_step(large, args.seq_len, args.batch, args.device),
            }
        )
    lines.append(f"{'generation backend':<60} {'ok':>3} {'tokens':>7} {'tok/s':>8}")
    for g in results["generation"]:
        if g["ok"]:
            lines.append(f"{g['spec'][:60]:<60} {'yes':>3} {g['tokens']:>7} {g['tokens_per_s']:>8}")
        else:
            lines.append(f"{g['spec'][:60]:<60} {'no':>3}  {g['error']}")
    lines.append(
        f"{'SFT step (bf16, AdamW)':<30} {'params M':>9} {'seq':>5} {'batch':>5} "
        f"{'step s':>8} {'tokens/s':>10} {'peak GiB':>9}"
    )
    for s in results["sft"]:
        lines.append(
            f"{s['model']:<30} {s['params_m']:>9} {s['seq_len']:>5} {s['batch']:>5} "
            f"{s['step_s']:>8} {s['tokens_per_s']:>10,} {s['peak_gib']:>9}"
        )
    text = "\n".join(lines)
    print(text)
    out = os.environ.get("OUT")
    if out:
        Path(out, "gpu_check.md").write_text(text + "\n")
        Path(out, "gpu_check.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
