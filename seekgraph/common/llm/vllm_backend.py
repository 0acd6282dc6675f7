"""vLLM in-process (GPU machines; the `gpu` extra). The engine is built lazily on first use.

`vllm.LLM` is not safe to call from several threads at once, and rollouts run concurrently, so
generation holds a lock; for throughput over many concurrent rollouts serve the model with
`vllm serve` and use the OpenAI-compatible backend, which batches requests on the server.
"""

from __future__ import annotations

import threading
from typing import Any

from seekgraph.common.llm.base import Generation, Message
from seekgraph.common.llm.errors import BackendConfigError, BackendError
from seekgraph.common.llm.templates import prompt_ids


class VLLMBackend:
    """`vllm.LLM(model).chat(...)` behind `LLMBackend.generate`."""

    def __init__(
        self,
        model: str,
        *,
        max_model_len: int | None = None,
        gpu_memory_utilization: float = 0.85,
        dtype: str = "auto",
        engine_kwargs: dict[str, Any] | None = None,
    ) -> None:
        if not model:
            raise BackendConfigError("vllm backend needs a model (spec `vllm:MODEL_OR_PATH`)")
        self.model = model
        self.name = f"vllm:{model}"
        self.max_model_len = max_model_len
        self.gpu_memory_utilization = gpu_memory_utilization
        self.dtype = dtype
        self.engine_kwargs = dict(engine_kwargs or {})
        self._llm: Any = None
        self._lock = threading.Lock()  # building the engine
        self._generate_lock = threading.Lock()  # one generation at a time

    def _engine(self) -> Any:
        if self._llm is None:
            with self._lock:
                if self._llm is None:
                    try:
                        import vllm
                    except ImportError as e:
                        raise BackendConfigError(
                            "the vllm backend needs vLLM: install the `gpu` extra "
                            "(`uv pip install 'seekgraph[gpu]'`) on a machine with a GPU"
                        ) from e
                    kwargs: dict[str, Any] = {
                        "model": self.model,
                        "dtype": self.dtype,
                        "gpu_memory_utilization": self.gpu_memory_utilization,
                        **self.engine_kwargs,
                    }
                    if self.max_model_len:
                        kwargs["max_model_len"] = self.max_model_len
                    try:
                        self._llm = vllm.LLM(**kwargs)
                    except (RuntimeError, ValueError, OSError) as e:
                        raise BackendConfigError(f"vLLM could not load {self.model}: {e}") from e
        return self._llm

    def generate(
        self,
        messages: list[Message],
        *,
        stop: list[str] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> Generation:
        engine = self._engine()  # raises BackendConfigError when vLLM is missing
        from vllm import SamplingParams

        params = SamplingParams(
            max_tokens=max_tokens,
            temperature=temperature,
            seed=seed,
            stop=list(stop) if stop else None,
        )
        try:
            with self._generate_lock:
                outputs = engine.chat([messages], params, use_tqdm=False)
        except (RuntimeError, ValueError) as e:
            raise BackendError(f"{self.name} generation failed: {e}") from e
        out = outputs[0]
        completion = out.outputs[0]
        return Generation(
            text=completion.text,
            prompt_tokens=len(out.prompt_token_ids or []),
            completion_tokens=len(completion.token_ids),
            finish_reason=str(completion.finish_reason or "stop"),
        )

    def count_tokens(self, messages: list[Message]) -> int:
        """Tokens of `messages` rendered with the model's chat template (generation prompt on)."""
        return len(prompt_ids(self._engine().get_tokenizer(), messages))
