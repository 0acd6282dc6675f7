"""The OpenAI-compatible backend against REAL servers started here.

`transformers serve` serves the converted SmolLM2 folder on 127.0.0.1 and a free port (a real
process, stopped in a finalizer). A dead port (nothing listening) shows classified failover; a
tiny stdlib HTTP server that answers 503/400 shows which statuses are retried and which are not.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from seekgraph.common.llm import load_backend
from seekgraph.common.llm.errors import BackendError, TransientBackendError
from seekgraph.common.llm.openai_backend import OpenAIBackend
from seekgraph.graphdb.server import free_port
from tests.scaffolding.serve import transformers_serve

pytestmark = pytest.mark.slow

QUESTION = [{"role": "user", "content": "What is the capital of France?"}]


@pytest.fixture(scope="module")
def served_model(
    smollm2_checkpoint: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    """(base URL, model name) of a `transformers serve` process pinned to SmolLM2."""
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with transformers_serve(smollm2_checkpoint, log) as url:
        yield url, str(smollm2_checkpoint)


class _StatusHandler(http.server.BaseHTTPRequestHandler):
    status = 503

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"error": "busy"}')

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def status_server() -> Iterator[tuple[str, type[_StatusHandler]]]:
    """A real HTTP server that answers every request with `handler.status`."""
    handler = type("Handler", (_StatusHandler,), {"status": 503})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    finally:
        server.shutdown()
        server.server_close()


def test_generates_through_a_real_server(served_model: tuple[str, str]) -> None:
    url, model = served_model
    backend = load_backend(f"openai:{url}#{model}")
    gen = backend.generate(QUESTION, max_tokens=24)
    assert "Paris" in gen.text
    assert gen.prompt_tokens > 5 and 0 < gen.completion_tokens <= 24
    cut = backend.generate(QUESTION, max_tokens=24, stop=["Paris"])
    assert "Paris" not in cut.text and cut.finish_reason == "stop"


def test_requests_are_spread_over_the_urls(served_model: tuple[str, str]) -> None:
    url, model = served_model
    other = url.replace("127.0.0.1", "localhost")  # the same server under a second base URL
    backend = OpenAIBackend([url, other], model)
    for _ in range(4):
        backend.generate(QUESTION, max_tokens=2)
    assert [u for u, outcome in backend.attempts_log] == [url, other, url, other]
    assert all(outcome == "ok" for _, outcome in backend.attempts_log)


def test_dead_url_fails_over_to_the_live_one(served_model: tuple[str, str]) -> None:
    url, model = served_model
    dead = f"http://127.0.0.1:{free_port()}/v1"
    sleeps: list[float] = []
    backend = OpenAIBackend([dead, url, url], model, sleep=sleeps.append)
    gen = backend.generate(QUESTION, max_tokens=4)
    assert gen.text
    assert backend.attempts_log == [(dead, "transient"), (url, "ok")]
    assert sleeps == []  # failing over to the next URL needs no backoff


def test_only_dead_urls_back_off_then_give_up() -> None:
    dead = [f"http://127.0.0.1:{free_port()}/v1", f"http://127.0.0.1:{free_port()}/v1"]
    sleeps: list[float] = []
    backend = OpenAIBackend(dead, "m", max_attempts=6, backoff=0.25, sleep=sleeps.append)
    with pytest.raises(TransientBackendError, match="gave up after 6 attempts"):
        backend.generate(QUESTION)
    assert [outcome for _, outcome in backend.attempts_log] == ["transient"] * 6
    assert sleeps == [0.25, 0.5]  # one backoff after each full round but the last


def test_503_is_retried_and_fails_over(
    served_model: tuple[str, str], status_server: tuple[str, type[_StatusHandler]]
) -> None:
    url, model = served_model
    busy, _ = status_server
    backend = OpenAIBackend([busy, url], model, sleep=lambda s: None)
    assert backend.generate(QUESTION, max_tokens=3).text
    assert backend.attempts_log == [(busy, "transient"), (url, "ok")]


def test_client_errors_are_not_retried(
    served_model: tuple[str, str], status_server: tuple[str, type[_StatusHandler]]
) -> None:
    url, _ = served_model
    backend = OpenAIBackend([url, url], "a-model-the-server-does-not-have", sleep=lambda s: None)
    with pytest.raises(BackendError, match="HTTP 400") as info:
        backend.generate(QUESTION, max_tokens=3)
    assert not isinstance(info.value, TransientBackendError)
    assert backend.attempts_log == [(url, "error")]
    busy, handler = status_server
    handler.status = 404
    backend = OpenAIBackend([busy], "m", sleep=lambda s: None)
    with pytest.raises(BackendError, match="HTTP 404"):
        backend.generate(QUESTION)
    assert len(backend.attempts_log) == 1
