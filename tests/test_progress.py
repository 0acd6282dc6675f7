"""Progress of long stages: a line every few seconds in a log even while one item takes
minutes, a bar on a terminal, no repeated last line; prune reports each trajectory."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

import neo4j
import pytest

from seekgraph.graphdb.stages import Progress
from seekgraph.training.stategraph.prune import prune_rollouts
from tests.conftest import REPO_ROOT
from tests.test_clipper_prune import NO_REWRITE, load_fixture


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_log_gets_a_line_every_few_seconds_while_nothing_reports() -> None:
    """`shaper-expand` (108 s) and `prune` (157 s) printed nothing until done: one slow item
    never called `update`. The bar now writes on its own clock."""
    log = io.StringIO()
    bar = Progress("prune (trajectories)", 3, log, every=0.3)
    time.sleep(1.5)  # one item that takes long, no update
    bar.update()
    bar.close()
    lines = log.getvalue().splitlines()
    assert len(lines) >= 3, lines
    assert all(line.startswith("prune (trajectories): ") for line in lines)
    assert lines[0].startswith("prune (trajectories): 0/3 (0%)")
    assert "\r" not in log.getvalue()  # a log gets lines, never carriage returns


def test_the_last_line_is_not_repeated() -> None:
    log = io.StringIO()
    bar = Progress("pages", 2, log, every=0.0)
    bar._started -= 5  # a run long enough to report its end
    bar.update(2)  # drawn now: "pages: 2/2 (100%) 5s"
    bar.close()
    assert log.getvalue().count("pages: 2/2 (100%)") == 1, log.getvalue()


def test_a_terminal_gets_one_redrawn_bar() -> None:
    tty = Terminal()
    bar = Progress("rollouts", 4, tty)
    time.sleep(1.3)
    bar.update(4)
    bar.close()
    out = tty.getvalue()
    assert out.count("\n") == 1 and out.endswith("\n")
    assert out.count("\r") >= 2  # redrawn in place while it waited
    assert out.rstrip().split("\r")[-1].startswith("rollouts: 4/4 (100%)")


def test_no_stream_no_thread() -> None:
    bar = Progress("quiet", None, None)
    bar.update()
    bar.close()
    assert bar._thread is None and bar.done == 1


@pytest.mark.neo4j
def test_prune_reports_each_trajectory_not_each_chunk(clean_db: neo4j.Driver) -> None:
    for k in range(3):
        load_fixture(clean_db, rollout_id=f"task:1/teacher/teacher-d0.3/{k}")
    calls: list[int] = []
    prune_rollouts(clean_db, None, NO_REWRITE, on_progress=calls.append)
    # one chunk of 50 holds all three: still one call per trajectory as it is decided
    assert calls[:3] == [1, 1, 1] and sum(calls) == 3, calls


LOAD_MODELS = """
import sys
from seekgraph.common.embeddings import Embedder
from seekgraph.common.llm.transformers_backend import TransformersBackend

TransformersBackend(sys.argv[1])._ensure_loaded()
Embedder().embed(["a sentence"])
print("loaded")
"""


@pytest.mark.slow
def test_loading_the_models_writes_no_bar_into_a_log(smollm2_checkpoint: Path) -> None:
    """transformers draws "Loading weights: 100%|...|" with carriage returns even when its
    output is a file; loaded the project's way, a log gets no bar at all."""
    done = subprocess.run(
        [sys.executable, "-c", LOAD_MODELS, str(smollm2_checkpoint)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO_ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    output = done.stdout + done.stderr
    assert "loaded" in done.stdout
    assert "\r" not in output and "it/s]" not in output, output[-2000:]
