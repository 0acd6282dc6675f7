"""State graphs from meaning instead of names: an embedding matcher and a constrained LLM.

The rule extractor (`extract_rules`) links an action to the information it relies on when both
mention the same entity of our graph. These two constructions decide the same question another
way, so the 2-of-3 vote compares genuinely different readings of one trajectory:

- **embedding** (`extract_embedding_graph`): information = the units of the observations (a
  table row, a search result line, a sentence); an action's *claims* (each query, URL and goal
  of a call, each line of an answer) rely on the earlier unit most similar to them under
  all-MiniLM-L6-v2, when the cosine is at least `threshold`;
- **llm** (`extract_choice_graph`): the same units and claims, but a language model chooses:
  the `k` most similar earlier units are listed as options A, B, ... and the model's next-token
  distribution over the option letters (and N for "none") picks the one the claim relies on.
  The reply is a choice among given letters, read from the logits, so it always parses (the
  free-form JSON extractor of `extract_llm` parsed 0 of 306 replies of SmolLM2).

Both produce, for action ``a``, every unit of its observation (action 0, the query, produces
the question's units). Cost: the embedding graph embeds each unit and claim once (about a
second per long trajectory on CPU); the LLM graph runs one batched forward pass over its
claims' prompts (seconds to tens of seconds per trajectory on CPU).

Example: a search returns "1. [Booker Prize](url) The Booker Prize winners …"; a visit of
that url relies on that result line (its URL claim is most similar to it), so the search is
necessary for the visit.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from seekgraph.agent.web.tools import segments
from seekgraph.common.wire import Trajectory, Turn
from seekgraph.training.stategraph.extract_rules import returned_texts
from seekgraph.training.stategraph.model import StateGraph

_SPACE = re.compile(r"\s+")
LETTERS = "ABCDEFGH"


class SentenceEmbedder(Protocol):
    def embed_array(self, texts: Sequence[str]) -> Any: ...


def unit_key(text: str) -> str:
    norm = _SPACE.sub(" ", text).strip().lower()
    return "u:" + hashlib.sha1(norm.encode("utf-8")).hexdigest()[:12]


def units(text: str, max_chars: int = 400) -> list[str]:
    """The information units of an observation: its lines and sentences (`segments`), cut."""
    return [u[:max_chars] for u in segments(text) if len(u.strip()) > 3]


def claims(turn: Turn) -> list[str]:
    """What an action states or asks for: each query, URL and goal of a call, each answer line."""
    if turn.is_answer:
        return [line.strip() for line in (turn.answer or "").splitlines() if line.strip()]
    out: list[str] = []
    arguments = turn.arguments if isinstance(turn.arguments, dict) else {}
    for name in ("query", "url", "goal"):
        value = arguments.get(name)
        values = value if isinstance(value, list) else [value]
        out += [str(v) for v in values if isinstance(v, str | int) and str(v).strip()]
    return out or [turn.thought]


@dataclass
class _Layout:
    """Units per action (action 0 is the question) and claims per action (0 has none)."""

    units: list[list[str]]
    claims: list[list[str]]

    @classmethod
    def of(cls, trajectory: Trajectory) -> _Layout:
        sources = returned_texts(trajectory)[:-1]
        return cls(
            units=[units(s) for s in sources] + [[]],
            claims=[[]] + [claims(t) for t in trajectory.turns],
        )

    def graph(
        self, enables: list[set[str]], extractor: str, run: int, notes: dict[str, Any]
    ) -> StateGraph:
        produces = [{unit_key(u) for u in us} for us in self.units]
        info_text = {unit_key(u): u for us in self.units for u in us}
        return StateGraph(
            produces=produces,
            enables=enables,
            info_text=info_text,
            info_kind={k: "sentence" for k in info_text},
            extractor=extractor,
            run=run,
            granularity=extractor,
            notes=notes,
        )


def _similarities(
    layout: _Layout, embedder: SentenceEmbedder
) -> tuple[Any, Any, list[int], list[int]]:
    """(claim x unit cosine matrix, unit texts' producer action, claim's action) as arrays."""
    import numpy as np

    unit_texts = [u for us in layout.units for u in us]
    unit_action = [a for a, us in enumerate(layout.units) for _ in us]
    claim_texts = [c for cs in layout.claims for c in cs]
    claim_action = [a for a, cs in enumerate(layout.claims) for _ in cs]
    if not unit_texts or not claim_texts:
        return np.zeros((len(claim_texts), len(unit_texts))), unit_texts, unit_action, claim_action
    vectors = embedder.embed_array(unit_texts + claim_texts)
    sims = vectors[len(unit_texts) :] @ vectors[: len(unit_texts)].T
    return sims, unit_texts, unit_action, claim_action


def extract_embedding_graph(
    trajectory: Trajectory, embedder: SentenceEmbedder, *, threshold: float = 0.5, run: int = 0
) -> StateGraph:
    """The embedding construction (see the module docstring)."""
    layout = _Layout.of(trajectory)
    sims, unit_texts, unit_action, claim_action = _similarities(layout, embedder)
    enables: list[set[str]] = [set() for _ in layout.units]
    matched = 0
    for c, a in enumerate(claim_action):
        earlier = [u for u, producer in enumerate(unit_action) if producer < a]
        if not earlier:
            continue
        best = max(earlier, key=lambda u: (float(sims[c, u]), -u))
        if float(sims[c, best]) >= threshold:
            enables[a].add(unit_key(unit_texts[best]))
            matched += 1
    notes = {"claims": len(claim_action), "matched": matched, "threshold": threshold}
    return layout.graph(enables, "embedding", run, notes)


def choice_prompt(claim: str, options: Sequence[str]) -> str:
    lines = "\n".join(f"{LETTERS[i]}. {o}" for i, o in enumerate(options))
    return (
        "An agent doing web research wrote a step. Which earlier fact does the step rely "
        f"on?\n\nFacts:\n{lines}\nN. none of them\n\nStep: {claim}\n\nAnswer with one letter.\n"
        "Answer:"
    )


@dataclass
class ChoiceModel:
    """A causal LM read as a chooser: the probability of each option letter after a prompt.

    `model` and `tokenizer` are a transformers causal LM and its tokenizer (e.g. a
    `TransformersBackend`'s), evaluated in batches of `batch_size` left-padded prompts."""

    model: Any
    tokenizer: Any
    batch_size: int = 8

    def choose(self, prompts: Sequence[str], n_options: Sequence[int]) -> list[int | None]:
        """Per prompt, the chosen option index, or None when "N" is likelier than any option."""
        import torch

        letter_ids = [
            self.tokenizer.encode(f" {c}", add_special_tokens=False)[-1] for c in LETTERS + "N"
        ]
        out: list[int | None] = []
        pad = self.tokenizer.pad_token_id or self.tokenizer.eos_token_id
        for start in range(0, len(prompts), self.batch_size):
            batch = [self.tokenizer.encode(p) for p in prompts[start : start + self.batch_size]]
            longest = max(len(ids) for ids in batch)
            ids = torch.tensor([[pad] * (longest - len(b)) + b for b in batch])
            mask = torch.tensor([[0] * (longest - len(b)) + [1] * len(b) for b in batch])
            with torch.no_grad():
                logits = self.model(input_ids=ids, attention_mask=mask).logits[:, -1, :]
            for row, n in zip(logits, n_options[start : start + len(batch)], strict=True):
                allowed = [letter_ids[i] for i in range(n)] + [letter_ids[-1]]
                best = int(torch.argmax(row[allowed]))
                out.append(None if best == n else best)
        return out


def extract_choice_graph(
    trajectory: Trajectory,
    embedder: SentenceEmbedder,
    chooser: ChoiceModel,
    *,
    k: int = 4,
    max_claims: int = 8,
    option_chars: int = 160,
    run: int = 0,
) -> StateGraph:
    """The constrained-LLM construction (see the module docstring)."""
    layout = _Layout.of(trajectory)
    sims, unit_texts, unit_action, claim_action = _similarities(layout, embedder)
    asks: list[tuple[int, list[int]]] = []  # (claim's action, candidate unit indexes)
    prompts: list[str] = []
    per_action: dict[int, int] = {}
    for c, a in enumerate(claim_action):
        earlier = [u for u, producer in enumerate(unit_action) if producer < a]
        if not earlier or per_action.get(a, 0) >= max_claims:
            continue
        per_action[a] = per_action.get(a, 0) + 1
        ranked = sorted(earlier, key=lambda u: (-float(sims[c, u]), u))[: min(k, len(LETTERS))]
        claim = [x for cs in layout.claims for x in cs][c]
        asks.append((a, ranked))
        prompts.append(
            choice_prompt(claim[:option_chars], [unit_texts[u][:option_chars] for u in ranked])
        )
    chosen = chooser.choose(prompts, [len(r) for _, r in asks]) if prompts else []
    enables: list[set[str]] = [set() for _ in layout.units]
    for (a, ranked), pick in zip(asks, chosen, strict=True):
        if pick is not None:
            enables[a].add(unit_key(unit_texts[ranked[pick]]))
    notes = {
        "prompts": len(prompts),
        "parsed": len(prompts),  # a choice read from logits always parses
        "none_chosen": sum(p is None for p in chosen),
        "k": k,
    }
    return layout.graph(enables, "llm-choice", run, notes)


def describe(graph: StateGraph) -> str:
    """One line of what a construction found (for notes and benches)."""
    produces, enables = graph.edge_count()
    return json.dumps({"extractor": graph.extractor, "produces": produces, "enables": enables})
