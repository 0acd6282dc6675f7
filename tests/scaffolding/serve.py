"""Real `transformers serve` processes for tests: an OpenAI-compatible server per call."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

from seekgraph.graphdb.server import free_port


class ServeError(RuntimeError):
    """The server exited or did not answer in time (the message holds its log's tail)."""


@contextmanager
def transformers_serve(checkpoint: Path, log: Path, *, access_log: bool = False) -> Iterator[str]:
    """Serve `checkpoint` on 127.0.0.1 and a free port; yields the base URL (``.../v1``).

    With `access_log`, the log records every request (to count what each server answered)."""
    port = free_port()
    cli = Path(sys.executable).with_name("transformers")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    level = "info" if access_log else "warning"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                str(cli),
                "serve",
                str(checkpoint),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--device",
                "cpu",
                "--log-level",
                level,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                raise ServeError(f"transformers serve exited: {log.read_text()[-2000:]}")
            try:
                if requests.get(f"http://127.0.0.1:{port}/health", timeout=2).ok:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise ServeError(f"transformers serve did not come up: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
