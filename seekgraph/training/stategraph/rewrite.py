"""Coherence-aware thought rewriting (WebClipper §3.4), checked, with a rewrite without a model.

After pruning, a kept turn whose original predecessor was removed may still refer to what the
removed steps found. Such a thought (and only such a thought: `turns_to_rewrite`) is rewritten.

Without a backend (the default: no model is loaded), the rewrite is deterministic
(`thoughts.deterministic_rewrite`: the sentences that cite a removed step or name what only a
removed step showed are dropped). With a backend, an LLM gets the full original context and the
list of removed steps and writes `n_candidates` rewrites (different seeds); a candidate is kept
only when it passes every check of `thoughts.problems` (cites no pruned step, names nothing the
kept history has not shown, reads as fluent text: checked, not assumed from its perplexity);
among those, the one with the lowest perplexity under a local model (SmolLM2 through
transformers by default), conditioned on the pruned trajectory before it, wins. When none
passes, the thought is rewritten deterministically. Each record says which (``method``:
``llm`` or ``deterministic``) and why the candidates were rejected. Tool calls and observations
are re-attached unchanged; other thoughts keep their exact text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from seekgraph.common.llm.base import LLMBackend, Message
from seekgraph.common.wire import Trajectory, Turn
from seekgraph.training.stategraph.thoughts import deterministic_rewrite, problems, shown_text

_TAGS = re.compile(r"</?(think|tool_call|tool_response|answer)>", re.I)
_CUT = re.compile(r"<(tool_call|answer|tool_response)>", re.I)
_SPACE = re.compile(r"\s+")

SYSTEM = (
    "You edit one step of a web research agent's trajectory. Some earlier steps were removed "
    "because the answer did not depend on them. Rewrite the agent's thought so that it reads "
    "naturally without the removed steps: do not mention them or anything only they found; "
    "keep the plan and the facts from the kept steps. Reply with the rewritten thought only, "
    "in one to three sentences."
)

Scorer = Callable[[str, Sequence[str]], list[float]]  # (context, candidates) -> perplexities


@dataclass(frozen=True)
class RewriteConfig:
    n_candidates: int = 3  # candidates per thought (keep small on CPU)
    max_new_tokens: int = 64  # length limit of one candidate
    temperature: float = 0.8
    observation_chars: int = 240  # per step, in the prompt's view of the original trajectory
    context_chars: int = 4000  # the whole original-context block in the prompt


@dataclass
class RewriteRecord:
    turn: int
    original: str
    chosen: str
    status: str  # "rewritten"
    candidates: list[str] = field(default_factory=list)
    perplexities: list[float] = field(default_factory=list)  # of the candidates that passed
    method: str = "deterministic"  # "llm": a checked candidate; "deterministic": no model
    rejected: dict[str, list[str]] = field(default_factory=dict)  # candidate -> failed checks

    def as_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "status": self.status,
            "method": self.method,
            "rejected": self.rejected,
            "original": self.original,
            "chosen": self.chosen,
            "candidates": self.candidates,
            "perplexities": [round(p, 3) for p in self.perplexities],
        }


def turns_to_rewrite(original: Trajectory, kept: Sequence[int]) -> list[int]:
    """Kept turns whose context lost at least one pruned step right before them."""
    ordered = sorted(set(kept) | {original.turns[-1].index})
    out, previous = [], 0
    for t in ordered:
        if t - previous > 1:
            out.append(t)
        previous = t
    return out


def clean_candidate(text: str) -> str:
    """The thought part of a generation: cut at a tool call/answer, tags and extra space removed."""
    cut = _CUT.search(text)
    if cut:
        text = text[: cut.start()]
    text = _TAGS.sub(" ", text)
    return _SPACE.sub(" ", text).strip()


def _brief(turn: Turn, chars: int) -> str:
    if turn.is_answer:
        return f"step {turn.index}: thought: {turn.thought} | answer: {turn.answer}"
    obs = _SPACE.sub(" ", turn.observation or "")[:chars]
    return (
        f"step {turn.index}: thought: {turn.thought} | {turn.tool} "
        f"{turn.parsed.call_text.strip()} | observation: {obs}"
    )


def prompt(
    original: Trajectory, removed: Sequence[int], turn: Turn, config: RewriteConfig
) -> list[Message]:
    """The candidate prompt: question, full original context, removed steps, the thought."""
    context = "\n".join(
        _brief(t, config.observation_chars) for t in original.turns if t.index < turn.index
    )[-config.context_chars :]
    removed_text = ", ".join(str(r) for r in removed) or "none"
    user = (
        f"Question: {original.question}\n\nOriginal trajectory before step {turn.index}:\n"
        f"{context}\n\nRemoved steps: {removed_text}\n\nThought of step {turn.index} to "
        f"rewrite:\n{turn.thought}\n\nRewritten thought:"
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def chat_text(trajectory: Trajectory, before: int) -> str:
    """The pruned trajectory before turn `before`, in ChatML, ending where a thought begins."""
    parts = [f"<|im_start|>user\n{trajectory.question}<|im_end|>"]
    for t in trajectory.turns:
        if t.index >= before:
            break
        parts.append(f"<|im_start|>assistant\n{t.content}<|im_end|>")
        if t.response is not None:
            parts.append(f"<|im_start|>user\n{t.response}<|im_end|>")
    parts.append("<|im_start|>assistant\n<think>")
    return "\n".join(parts)


def smollm2_scorer(backend: Any = None, *, context_chars: int = 3000) -> Scorer:
    """Perplexity under a transformers model (SmolLM2 by default) via `seekgraph.common.llm.scoring`."""
    from seekgraph.common.llm.scoring import perplexity
    from seekgraph.common.llm.transformers_backend import TransformersBackend

    model = backend if isinstance(backend, TransformersBackend) else TransformersBackend()

    def score(context: str, candidates: Sequence[str]) -> list[float]:
        ctx = context[-context_chars:]
        return perplexity(model, [(ctx, c) for c in candidates])

    return score


def history_shown(pruned: Trajectory, turn: Turn) -> str:
    """What the kept history shows before `turn`'s thought: the question, the kept turns before
    it (messages and tool responses) and the turn's own call or answer (what the thought plans)."""
    before = [p for t in pruned.turns if t.index < turn.index for p in (t.content, t.response)]
    own = turn.answer if turn.is_answer else turn.parsed.call_text
    return shown_text([pruned.question, *before, own])


def action_of(turn: Turn) -> str:
    return "answer" if turn.is_answer else str(turn.tool or "tool")


@dataclass
class Rewriter:
    """Rewrites the thoughts a pruning made incoherent (see the module docstring); without a
    `backend` (or `scorer`) every rewrite is deterministic and no model is touched."""

    backend: LLMBackend | None = None
    scorer: Scorer | None = None
    config: RewriteConfig = field(default_factory=RewriteConfig)

    def rewrite(
        self, original: Trajectory, kept: Sequence[int]
    ) -> tuple[Trajectory, list[RewriteRecord]]:
        """The pruned trajectory with rewritten thoughts, and one record per rewritten turn."""
        pruned = original.keep(kept)
        kept_set = {t.index for t in pruned.turns}
        removed = [t.index for t in original.turns if t.index not in kept_set]
        records: list[RewriteRecord] = []
        for index in turns_to_rewrite(original, sorted(kept_set)):
            turn = next(t for t in pruned.turns if t.index == index)
            before = [r for r in removed if r < index]
            shown = history_shown(pruned, turn)
            record = self._llm(original, pruned, turn, before, shown)
            if record is None or record.method != "llm":
                text = deterministic_rewrite(turn.thought, before, shown, action_of(turn))
                rejected = record.rejected if record is not None else {}
                candidates = record.candidates if record is not None else []
                record = RewriteRecord(
                    index, turn.thought, text, "rewritten", candidates, rejected=rejected
                )
            records.append(record)
            pruned = replace(
                pruned,
                turns=tuple(
                    t.with_thought(record.chosen) if t.index == index else t for t in pruned.turns
                ),
            )
        return pruned, records

    def _llm(
        self,
        original: Trajectory,
        pruned: Trajectory,
        turn: Turn,
        removed: list[int],
        shown: str,
    ) -> RewriteRecord | None:
        """The best LLM candidate that passes every check (method ``llm``), or the rejected
        candidates with their reasons (method ``deterministic``); None without a backend."""
        if self.backend is None or self.scorer is None:
            return None
        messages = prompt(original, removed, turn, self.config)
        candidates: list[str] = []
        for k in range(self.config.n_candidates):
            generation = self.backend.generate(
                messages,
                max_tokens=self.config.max_new_tokens,
                temperature=self.config.temperature,
                seed=k,
                stop=["</think>", "<tool_call>"],
            )
            text = clean_candidate(generation.text)
            if text and text not in candidates:
                candidates.append(text)
        rejected = {c: found for c in candidates if (found := problems(c, removed, shown))}
        passing = [c for c in candidates if c not in rejected]
        if not passing:
            return RewriteRecord(
                turn.index, turn.thought, turn.thought, "rewritten", candidates, rejected=rejected
            )
        scores = self.scorer(chat_text(pruned, turn.index), passing)
        best = min(
            range(len(passing)), key=lambda i: (scores[i] != scores[i], scores[i])
        )  # NaN last
        return RewriteRecord(
            turn.index,
            turn.thought,
            passing[best],
            "rewritten",
            candidates,
            list(scores),
            method="llm",
            rejected=rejected,
        )
