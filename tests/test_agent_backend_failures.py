"""An LLM endpoint that is down or answers garbage, and rollout ids that name the checkpoint.

The `rollout-llm` stage runs against real HTTP endpoints started here (a stdlib server that
answers garbage, one that answers garbage once and then well, and a port nobody listens on):
every failed rollout is re-run with backoff, then stored with its error and counted, with one
line each; the stage never fails. Rollout ids carry the checkpoint behind an endpoint.
"""

from __future__ import annotations

import http.server
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import neo4j
import pytest

from seekgraph.agent.config import RolloutConfig
from seekgraph.agent.policies import checkpoint_id, make_policy
from seekgraph.agent.stages import ROLLOUT_LLM, SCORE
from seekgraph.cli.pipeline import run_stage
from seekgraph.common.config import ConfigFile
from seekgraph.common.llm.errors import BackendError
from seekgraph.common.llm.openai_backend import OpenAIBackend
from seekgraph.graphdb.server import free_port
from seekgraph.graphdb.stages import StageContext, StageReport
from tests.agent_fixture import load_fixture

GARBAGE = [
    b"<html>502 from a proxy, with status 200</html>",
    b'{"choices": []}',
    b'{"choices": [{"message": {"content": 5}}]}',
    b'{"choices": "none", "usage": "lots"}',
]
ANSWER = json.dumps(
    {
        "choices": [{"message": {"content": "<answer>William Golding</answer>"}}],
        "usage": {"prompt_tokens": "many", "completion_tokens": -3},
    }
).encode()


class _Handler(http.server.BaseHTTPRequestHandler):
    bodies: ClassVar[list[bytes]] = []  # answered in turn; the last one again and again
    requests: ClassVar[int] = 0

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        cls = type(self)
        body = cls.bodies[min(cls.requests, len(cls.bodies) - 1)]
        cls.requests += 1
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def endpoint() -> Iterator[tuple[str, type[_Handler]]]:
    handler = type("Handler", (_Handler,), {"bodies": GARBAGE, "requests": 0})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def web(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    load_fixture(clean_db, database)
    return clean_db


def roll_out(
    driver: neo4j.Driver, database: str | None, backend: str
) -> tuple[StageReport, list[str]]:
    """The rollout-llm stage on the fixture's two tasks, as the CLI runs it; (report, lines)."""
    lines: list[str] = []
    ctx = StageContext(driver, database, Path("out"), echo=lines.append, progress_stream=None)
    flags = {"backend": backend, "backend_retries": 1, "backend_backoff": 0.01}
    report = run_stage(ctx, ROLLOUT_LLM, ConfigFile(), flags)
    return report, [line for line in lines if line.startswith("rollout ")]


def stored(driver: neo4j.Driver, database: str | None) -> list[dict[str, object]]:
    records, _, _ = driver.execute_query(
        "MATCH (r:Rollout {policy: 'llm'}) RETURN r.termination AS termination, "
        "r.error AS error, r.f1 AS f1, r.accuracy AS accuracy ORDER BY r.rollout_id",
        database_=database,
    )
    return [dict(r) for r in records]


def test_garbage_answers_are_retried_recorded_and_counted(
    web: neo4j.Driver, database: str | None, endpoint: tuple[str, type[_Handler]]
) -> None:
    url, handler = endpoint
    report, lines = roll_out(web, database, f"openai:{url}#served")
    assert (report.kept, report.rejected) == (0, 2)
    assert report.reasons == {"backend_error": 2}
    assert report.notes["backend_reruns"] == 2
    assert handler.requests == 4  # two rollouts, each tried twice (garbage is not retried inside)
    assert len(lines) == 2 and all("after 2 attempts" in line for line in lines)
    assert all("\n" not in line for line in lines)
    run_stage(
        StageContext(web, database, Path("out"), echo=lambda _: None, progress_stream=None),
        SCORE,
        ConfigFile(),
    )
    rows = stored(web, database)
    assert [r["termination"] for r in rows] == ["backend_error", "backend_error"]
    assert all("after 2 attempts" in str(r["error"]) for r in rows)
    assert all((r["f1"], r["accuracy"]) == (0.0, 0.0) for r in rows)  # counted as 0


def test_a_rollout_that_failed_once_is_run_again(
    web: neo4j.Driver, database: str | None, endpoint: tuple[str, type[_Handler]]
) -> None:
    url, handler = endpoint
    handler.bodies = [GARBAGE[0], ANSWER]
    report, lines = roll_out(web, database, f"openai:{url}#served")
    assert (report.kept, report.rejected, lines) == (2, 0, [])
    assert report.notes["backend_reruns"] == 1
    assert [r["termination"] for r in stored(web, database)] == ["answer", "answer"]


def test_an_endpoint_that_is_down_fails_each_rollout_not_the_stage(
    web: neo4j.Driver, database: str | None
) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    report, lines = roll_out(web, database, f"openai:{dead}#served?attempts=1")
    assert report.reasons == {"backend_error": 2}
    assert len(lines) == 2 and all("ConnectionError" in line for line in lines)


def test_garbage_usage_counts_are_ignored_and_non_text_content_is_an_error(
    endpoint: tuple[str, type[_Handler]],
) -> None:
    url, handler = endpoint
    handler.bodies = [ANSWER, GARBAGE[2]]
    backend = OpenAIBackend([url], "served", sleep=lambda s: None)
    message = [{"role": "user", "content": "Who won the Booker Prize in 1980?"}]
    generation = backend.generate(message)
    assert generation.text == "<answer>William Golding</answer>"
    assert generation.prompt_tokens == backend.count_tokens(message)
    assert generation.completion_tokens == 0
    with pytest.raises(BackendError, match="content is not text"):
        backend.generate(message)


def test_rollout_ids_name_the_checkpoint_behind_an_endpoint(
    web: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    """Two arms evaluated through one endpoint spec get different rollout ids; the same
    checkpoint the same ones, also moved to another folder; a checkpoint trained again in its
    folder new ones."""
    first, second = tmp_path / "arm-a", tmp_path / "arm-b"
    first.mkdir()
    (first / "config.json").write_text('{"model_type": "llama"}')
    (first / "model.safetensors").write_bytes(b"weights of arm a")
    shutil.copytree(first, second)
    (second / "model.safetensors").write_bytes(b"weights of arm b")
    settings = RolloutConfig(policy="llm", backend="openai:http://127.0.0.1:9#served")
    models = [make_policy(web, database, settings, checkpoint=p).model for p in (first, second)]
    assert models[0] != models[1] and all(m.startswith("openai:served@ckpt-") for m in models)
    assert make_policy(web, database, settings, checkpoint=first).model == models[0]
    assert "@ckpt-" not in make_policy(web, database, settings).model  # none given
    # weights loaded from their folder: the name carries the checkpoint, not where it lies
    local = RolloutConfig(policy="llm", backend=f"transformers:{first}")
    named = make_policy(web, database, local, checkpoint=first).model
    (tmp_path / "elsewhere").mkdir()
    moved = shutil.move(first, tmp_path / "elsewhere" / "arm-a")
    moved_local = RolloutConfig(policy="llm", backend=f"transformers:{moved}")
    assert make_policy(web, database, moved_local, checkpoint=Path(moved)).model == named
    assert str(tmp_path).replace("/", "_") not in named
    first = Path(moved)
    before = checkpoint_id(first)
    (first / "model.safetensors").write_bytes(b"weights of arm a, trained again")
    assert checkpoint_id(first) != before
