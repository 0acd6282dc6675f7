"""OpenAI-compatible chat completions over a LIST of servers (`vllm serve`, `transformers serve`).

Requests are spread round robin over the base URLs. Only classified transient failures are
retried — connection errors, timeouts, HTTP 429/502/503/504 — each retry moving on to the next
URL, with exponential backoff once every URL has failed in a row, up to `max_attempts`. Any
other failure (HTTP 4xx, a body that is not a chat completion) raises `BackendError` at once.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import requests

from seekgraph.common.llm.base import Generation, Message
from seekgraph.common.llm.errors import BackendConfigError, BackendError, TransientBackendError
from seekgraph.common.llm.transformers_backend import cut_at_stop

TRANSIENT_STATUS = frozenset({429, 502, 503, 504})


def _count(value: Any) -> int:
    """A token count from a server's `usage` (0 when missing or not a count)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def normalize_base_url(url: str) -> str:
    """``http://h:p`` → ``http://h:p/v1``; a URL already ending in ``/v1`` is kept."""
    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BackendConfigError(f"not an http(s) base URL: {url!r}")
    return url if parts.path.endswith("/v1") else url + "/v1"


class OpenAIBackend:
    """Chat completions against one or more OpenAI-compatible base URLs."""

    def __init__(
        self,
        base_urls: list[str],
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 120.0,
        max_attempts: int = 6,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not base_urls:
            raise BackendConfigError("openai backend needs at least one base URL")
        if not model:
            raise BackendConfigError("openai backend needs a model name (spec `openai:URL#MODEL`)")
        self.base_urls = [normalize_base_url(u) for u in base_urls]
        self.model = model
        self.name = f"openai:{model}"
        self.timeout = timeout
        self.max_attempts = max(1, max_attempts)
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._sleep = sleep
        self._api_key = api_key
        self._next = itertools.count()
        self._lock = threading.Lock()
        self._session: requests.Session | None = None
        self.attempts_log: list[tuple[str, str]] = []  # (url, outcome), for tests and debugging

    def _http(self) -> requests.Session:
        if self._session is None:
            session = requests.Session()
            session.headers["Content-Type"] = "application/json"
            if self._api_key:
                session.headers["Authorization"] = f"Bearer {self._api_key}"
            self._session = session
        return self._session

    def _pick(self) -> str:
        with self._lock:
            return self.base_urls[next(self._next) % len(self.base_urls)]

    def _post_once(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        """One request; raises TransientBackendError or BackendError, classified by type/status."""
        try:
            response = self._http().post(f"{url}/chat/completions", json=body, timeout=self.timeout)
        except (requests.ConnectionError, requests.Timeout) as e:
            raise TransientBackendError(f"{url}: {type(e).__name__}: {e}") from e
        except requests.RequestException as e:
            raise BackendError(f"{url}: request failed: {e}") from e
        if response.status_code in TRANSIENT_STATUS:
            raise TransientBackendError(
                f"{url}: HTTP {response.status_code}: {response.text[:300]}"
            )
        if response.status_code >= 400:
            raise BackendError(f"{url}: HTTP {response.status_code}: {response.text[:500]}")
        try:
            data = response.json()
        except ValueError as e:
            raise BackendError(f"{url}: response is not JSON: {response.text[:300]!r}") from e
        if not isinstance(data, dict) or not data.get("choices"):
            raise BackendError(f"{url}: response has no choices: {str(data)[:300]}")
        return data

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        last: TransientBackendError | None = None
        for attempt in range(self.max_attempts):
            url = self._pick()
            try:
                data = self._post_once(url, body)
            except TransientBackendError as e:
                self.attempts_log.append((url, "transient"))
                last = e
                # Fail over to the next URL at once; back off after a full round of failures.
                if (attempt + 1) % len(self.base_urls) == 0 and attempt + 1 < self.max_attempts:
                    rounds = (attempt + 1) // len(self.base_urls)
                    self._sleep(min(self.max_backoff, self.backoff * 2 ** (rounds - 1)))
                continue
            except BackendError:
                self.attempts_log.append((url, "error"))
                raise
            self.attempts_log.append((url, "ok"))
            return data
        assert last is not None
        raise TransientBackendError(
            f"gave up after {self.max_attempts} attempts over {len(self.base_urls)} URL(s): {last}"
        ) from last

    def generate(
        self,
        messages: list[Message],
        *,
        stop: list[str] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> Generation:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": temperature,
        }
        if stop:
            body["stop"] = list(stop)
        if seed is not None:
            body["seed"] = seed
        data = self._post(body)
        try:
            choice = data["choices"][0]
            text = choice["message"]["content"] or ""
            finish = str(choice.get("finish_reason") or "stop")
        except (KeyError, IndexError, TypeError, AttributeError) as e:
            raise BackendError(f"malformed chat completion: {str(data)[:300]}") from e
        if not isinstance(text, str):
            raise BackendError(f"malformed chat completion (content is not text): {text!r:.300}")
        # Some servers (transformers serve) include the matched stop string; OpenAI does not.
        text, _ = cut_at_stop(text, stop)
        raw = data.get("usage")
        usage = raw if isinstance(raw, dict) else {}
        prompt_tokens = _count(usage.get("prompt_tokens")) or self.count_tokens(messages)
        completion_tokens = _count(usage.get("completion_tokens"))
        return Generation(
            text=text,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            finish_reason=finish,
        )

    def count_tokens(self, messages: list[Message]) -> int:
        """An estimate (≈4 characters per token plus 4 per message): the server's tokenizer is
        not available here; `Generation.prompt_tokens` carries the server's exact count."""
        return sum(4 + (len(m.get("content", "")) + 3) // 4 for m in messages) + 2

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None
