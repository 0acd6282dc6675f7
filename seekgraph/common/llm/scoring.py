"""Perplexity under a local model, e.g. to pick the rewrite closest to the base model's style.

WebClipper rewrites a thought whose context was pruned, produces several candidates and keeps
the one with the lowest perplexity under the base model. `perplexity` scores plain texts or
``(context, continuation)`` pairs, counting only the continuation's tokens (the context is
conditioning); `lowest_perplexity` returns the index of the best candidate.

Definition: ``ppl = exp(-1/N · Σ log p(t_i | t_<i))`` over the N scored tokens.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from seekgraph.common.llm.transformers_backend import TransformersBackend

Scored = str | tuple[str, str]


def perplexity(
    backend: TransformersBackend, items: Sequence[Scored], *, batch_size: int = 8
) -> list[float]:
    """Perplexity of each text (all tokens but the first) or of each pair's continuation."""
    import torch

    tokenizer, model = backend.tokenizer, backend.model
    encoded: list[tuple[list[int], int]] = []  # (ids, index of the first scored token)
    for item in items:
        if isinstance(item, str):
            ids = tokenizer(item, add_special_tokens=False)["input_ids"]
            encoded.append((ids, 1))
        else:
            context, continuation = item
            ctx = tokenizer(context, add_special_tokens=False)["input_ids"]
            cont = tokenizer(continuation, add_special_tokens=False)["input_ids"]
            encoded.append((ctx + cont, max(1, len(ctx))))
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    result: list[float] = []
    for start in range(0, len(encoded), batch_size):
        batch = encoded[start : start + batch_size]
        width = max(len(ids) for ids, _ in batch)
        input_ids = torch.full((len(batch), width), pad, dtype=torch.long)
        attention = torch.zeros((len(batch), width), dtype=torch.long)
        for row, (ids, _) in enumerate(batch):
            input_ids[row, : len(ids)] = torch.tensor(ids, dtype=torch.long)
            attention[row, : len(ids)] = 1
        with torch.no_grad():
            logits = (
                model(
                    input_ids=input_ids.to(model.device), attention_mask=attention.to(model.device)
                )
                .logits.float()
                .cpu()
            )
        logprobs = torch.log_softmax(logits[:, :-1], dim=-1)
        targets = input_ids[:, 1:]
        token_lp = logprobs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        for row, (ids, first) in enumerate(batch):
            scored = token_lp[row, first - 1 : len(ids) - 1]
            if scored.numel() == 0:
                result.append(float("nan"))
            else:
                result.append(math.exp(-float(scored.mean())))
    return result


def lowest_perplexity(backend: TransformersBackend, context: str, candidates: Sequence[str]) -> int:
    """Index of the candidate continuation of `context` with the lowest perplexity."""
    if not candidates:
        raise ValueError("no candidates to choose from")
    scores = perplexity(backend, [(context, c) for c in candidates])
    return min(range(len(scores)), key=lambda i: (math.isnan(scores[i]), scores[i]))
