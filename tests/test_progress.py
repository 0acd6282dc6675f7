"""Progress of long stages: a line every few seconds in a log even while one item takes
minutes, a bar on a terminal, no repeated last line; prune reports each trajectory."""

from __future__ import annotations

import io
import os
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
    deadline = time.monotonic() + 30
    while log.getvalue().count("\n") < 3:  # one item that takes long, no update
        assert time.monotonic() < deadline, log.getvalue()
        time.sleep(0.01)
    bar.update()
    bar.close()
    lines = log.getvalue().splitlines()
    assert len(lines) >= 3, lines
    assert all(line.startswith("prune (trajectories): ") for line in lines)
    assert lines[0].startswith("prune (trajectories): 0/3 (0%)")
    assert "\r" not in log.getvalue()  # a log gets lines, never carriage returns


def test_a_log_says_what_one_slow_item_is_doing() -> None:
    """A stage stuck on one item (thought rewriting: minutes per trajectory) says what it is
    doing instead of repeating "1/156 (1%)"; the next item clears it."""
    log = io.StringIO()
    bar = Progress("prune (trajectories)", 156, log, every=0.05)
    bar.update()
    bar.doing("rewriting the thoughts of rollout r-7 (step 3 of 5)")
    deadline = time.monotonic() + 10
    while "rollout r-7" not in log.getvalue():  # the heartbeat writes it on its own
        assert time.monotonic() < deadline, log.getvalue()
        time.sleep(0.01)
    bar.doing("")
    bar.update()
    while "2/156" not in log.getvalue():  # the next line has the new count and no r-7
        assert time.monotonic() < deadline, log.getvalue()
        time.sleep(0.01)
    bar.close()
    lines = log.getvalue().splitlines()
    said = [line for line in lines if "rollout r-7" in line]
    assert said[0].startswith("prune (trajectories): 1/156 (1%)")
    assert said[0].endswith(" - rewriting the thoughts of rollout r-7 (step 3 of 5)")
    assert all("r-7" not in line for line in lines if "2/156" in line)


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
    deadline = time.monotonic() + 30
    while tty.getvalue().count("\r") < 2:  # redrawn in place while it waits
        assert time.monotonic() < deadline, tty.getvalue()
        time.sleep(0.01)
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


def test_library_progress_bars_write_nothing_to_a_log() -> None:
    """transformers de-quantises the GGUF model under a tqdm bar of its own; in a log file
    that bar is one long line of carriage returns. Through the CLI's switch it writes nothing
    when stderr is not a terminal."""
    script = (
        "from seekgraph.common.offline import quiet_progress_bars\n"
        "quiet_progress_bars()\n"
        "from tqdm.auto import tqdm\n"
        "for _ in tqdm(range(3), desc='Converting and de-quantizing GGUF tensors...'): pass\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TQDM_DISABLE"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    assert done.stderr == ""
