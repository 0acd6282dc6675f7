"""`load_backend(spec)`: the one place a spec string becomes an `LLMBackend`.

Specs (see `seekgraph/common/llm/base.py`):

- ``transformers`` (packaged SmolLM2) or ``transformers:PATH`` (a local checkpoint folder),
  optionally ``?device=cuda&dtype=bfloat16`` (default CPU, float32);
- ``openai:URL[,URL...]#MODEL[?timeout=SECONDS&attempts=N]`` — e.g.
  ``openai:http://127.0.0.1:8000/v1,http://h2:8000/v1#qwen3?timeout=600`` (a request's timeout,
  default 120 s: one shorter than the servers' queueing delay makes retries pile up; `attempts`:
  requests per message over the URLs before a transient failure is given up, default 6);
  the API key, if the server wants one, comes from ``$OPENAI_API_KEY``;
- ``vllm:MODEL`` — a model name or path for vLLM in-process.

Nothing is loaded or contacted here; backends load their model on first use.
"""

from __future__ import annotations

import os

from seekgraph.common.llm.base import LLMBackend
from seekgraph.common.llm.errors import BackendConfigError

KINDS = ("transformers", "openai", "vllm")


def _options(spec: str, query: str, allowed: set[str], example: str) -> dict[str, str]:
    """``a=1&b=2`` → {a: 1, b: 2}; an unknown name is a `BackendConfigError`."""
    options = dict(part.partition("=")[::2] for part in query.split("&") if part)
    unknown = set(options) - allowed
    if unknown:
        raise BackendConfigError(
            f"bad spec {spec!r}: unknown option(s) {sorted(unknown)}; expected {example}"
        )
    return options


def load_backend(spec: str) -> LLMBackend:
    """Build the backend a spec names; `BackendConfigError` says what a bad spec should look like."""
    spec = spec.strip()
    head, _, query = spec.partition("?")  # options come last: SPEC?name=value&...
    kind, _, rest = head.partition(":")
    kind = kind.lower()
    if kind == "transformers":
        from seekgraph.common.llm.transformers_backend import TransformersBackend

        options = _options(
            spec, query, {"device", "dtype"}, "transformers:PATH?device=cuda&dtype=bfloat16"
        )
        return TransformersBackend(
            rest or None,
            device=options.get("device", "cpu"),
            dtype=options.get("dtype", "float32"),
        )
    if kind == "openai":
        from seekgraph.common.llm.openai_backend import OpenAIBackend

        urls, sep, model = rest.rpartition("#")
        if not sep or not urls or not model:
            raise BackendConfigError(
                f"bad openai spec {spec!r}: expected openai:URL[,URL...]#MODEL"
            )
        options = _options(
            spec, query, {"timeout", "attempts"}, "openai:URL#MODEL?timeout=600&attempts=6"
        )
        try:
            timeout = float(options.get("timeout", 120))
            attempts = int(options.get("attempts", 6))
        except ValueError as e:
            raise BackendConfigError(
                f"bad openai spec {spec!r}: timeout must be seconds, attempts a count"
            ) from e
        return OpenAIBackend(
            [u for u in urls.split(",") if u.strip()],
            model,
            api_key=os.environ.get("OPENAI_API_KEY"),
            timeout=timeout,
            max_attempts=attempts,
        )
    if kind == "vllm":
        from seekgraph.common.llm.vllm_backend import VLLMBackend

        if not rest:
            raise BackendConfigError(f"bad vllm spec {spec!r}: expected vllm:MODEL_OR_PATH")
        return VLLMBackend(rest)
    raise BackendConfigError(f"unknown backend {kind!r} in spec {spec!r}; kinds are {KINDS}")
