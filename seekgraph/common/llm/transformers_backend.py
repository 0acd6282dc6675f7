"""transformers backend: a local causal LM (CPU by default) behind `LLMBackend.generate`.

The model loads lazily on the first call (never in the constructor), so building a backend is
free and `seekgraph --help` never imports torch. Generation is serialised with a lock: one
CPU model answers one request at a time, and concurrent rollouts simply queue.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from seekgraph.common.llm.base import Generation, Message
from seekgraph.common.llm.errors import BackendConfigError, BackendError
from seekgraph.common.llm.templates import prompt_ids
from seekgraph.common.offline import offline_and_quiet


def cut_at_stop(text: str, stop: list[str] | None) -> tuple[str, bool]:
    """Cut `text` at the earliest stop string (excluded, as OpenAI servers do)."""
    if not stop:
        return text, False
    cuts = [i for i in (text.find(s) for s in stop if s) if i >= 0]
    if not cuts:
        return text, False
    return text[: min(cuts)], True


class TransformersBackend:
    """A transformers causal LM; `path=None` means the packaged SmolLM2 (converted once)."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        device: str = "cpu",
        dtype: str = "float32",
        max_context: int | None = None,
    ) -> None:
        self.path = Path(path) if path is not None else None
        self.device = device
        self.dtype = dtype
        self.max_context = max_context
        self.name = f"transformers:{self.path}" if self.path else "transformers:smollm2-135m"
        if (device, dtype) != ("cpu", "float32"):  # other numerics: other rollouts
            self.name += f"@{device}-{dtype}"
        self._model: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    # -- loading -------------------------------------------------------------------------
    def _ensure_loaded(self) -> None:
        if self._model is not None:
            return
        with self._lock:
            if self._model is not None:
                return
            offline_and_quiet()
            try:
                import torch
                from transformers import AutoModelForCausalLM, AutoTokenizer
            except ImportError as e:
                raise BackendConfigError("the transformers backend needs the `ml` extra") from e
            path = self.path
            if path is None:
                from seekgraph.common.llm.smollm2 import ensure_checkpoint

                path = ensure_checkpoint()
            if not Path(path).exists():
                raise BackendConfigError(f"model folder {path} does not exist")
            try:
                tokenizer = AutoTokenizer.from_pretrained(str(path))
                model = AutoModelForCausalLM.from_pretrained(
                    str(path), dtype=getattr(torch, self.dtype)
                )
            except (OSError, ValueError) as e:
                raise BackendConfigError(f"cannot load a causal LM from {path}: {e}") from e
            model = model.to(self.device)  # type: ignore[arg-type]
            model.eval()
            if self.max_context is None:
                self.max_context = int(getattr(model.config, "max_position_embeddings", 2048))
            self._tokenizer = tokenizer
            self._model = model

    @property
    def model(self) -> Any:
        """The loaded `PreTrainedModel` (loads it on first access)."""
        self._ensure_loaded()
        return self._model

    @property
    def tokenizer(self) -> Any:
        """The loaded tokenizer (loads the model on first access)."""
        self._ensure_loaded()
        return self._tokenizer

    # -- LLMBackend ----------------------------------------------------------------------
    def count_tokens(self, messages: list[Message]) -> int:
        """Tokens of `messages` rendered with the chat template (with the generation prompt)."""
        return len(prompt_ids(self.tokenizer, messages))

    def generate(
        self,
        messages: list[Message],
        *,
        stop: list[str] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> Generation:
        """Greedy when `temperature == 0`, else sampling seeded by `seed`; cut at `stop`."""
        return self.generate_batch(
            [messages], stop=stop, max_tokens=max_tokens, temperature=temperature, seed=seed
        )[0]

    def generate_batch(
        self,
        conversations: list[list[Message]],
        *,
        stop: list[str] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> list[Generation]:
        """One assistant message per conversation, computed as ONE left-padded batch.

        A small model on a CPU (or any model on a GPU) computes a batch of n in much less than
        n times the time of one: the weights are read once per step for all of them. Each
        sequence stops on its own (end of sequence or a stop string). Greedy results can
        differ from unbatched ones in a last digit of a logit (padding changes the shapes of
        the sums), so a caller that needs reproducible output keeps its batches fixed."""
        import torch

        self._ensure_loaded()
        assert self.max_context is not None
        prompts = [prompt_ids(self._tokenizer, m) for m in conversations]
        longest = max(len(p) for p in prompts)
        if longest >= self.max_context:
            raise BackendError(
                f"prompt of {longest} tokens does not fit the context of {self.max_context}"
            )
        max_new = max(1, min(max_tokens, self.max_context - longest))
        kwargs: dict[str, Any] = {"max_new_tokens": max_new, "do_sample": temperature > 0}
        if temperature > 0:
            kwargs.update(temperature=temperature, top_p=1.0, top_k=0)
        if stop:
            kwargs.update(stop_strings=list(stop), tokenizer=self._tokenizer)
        pad = self._tokenizer.pad_token_id
        if pad is None:
            pad = self._tokenizer.eos_token_id
        ids = [[pad] * (longest - len(p)) + p for p in prompts]
        mask = [[0] * (longest - len(p)) + [1] * len(p) for p in prompts]
        with self._lock:
            if seed is not None:
                torch.manual_seed(seed)
            input_ids = torch.tensor(ids, device=self.device)
            try:
                with torch.no_grad():
                    out = self._model.generate(
                        input_ids=input_ids,
                        attention_mask=torch.tensor(mask, device=self.device),
                        pad_token_id=pad,
                        **kwargs,
                    )
            except (RuntimeError, ValueError) as e:  # OOM, bad generation arguments
                raise BackendError(f"{self.name} generation failed: {e}") from e
        return [
            self._generation(out[i, longest:].tolist(), len(p), max_new, stop)
            for i, p in enumerate(prompts)
        ]

    def _generation(
        self, new_ids: list[int], prompt_tokens: int, max_new: int, stop: list[str] | None
    ) -> Generation:
        """One sequence of a batch: its ids up to its end of sequence, decoded and cut."""
        eos = self._tokenizer.eos_token_id
        hit_eos = eos in new_ids
        if hit_eos:
            new_ids = new_ids[: new_ids.index(eos) + 1]  # a batch pads finished sequences
        else:
            pad = self._tokenizer.pad_token_id
            while pad is not None and len(new_ids) > 1 and new_ids[-1] == pad:
                new_ids = new_ids[:-1]
        text = self._tokenizer.decode(new_ids, skip_special_tokens=True)
        text, hit_stop = cut_at_stop(text, stop)
        finish = "stop" if (hit_eos or hit_stop or len(new_ids) < max_new) else "length"
        return Generation(
            text=text,
            prompt_tokens=prompt_tokens,
            completion_tokens=len(new_ids),
            finish_reason=finish,
        )
