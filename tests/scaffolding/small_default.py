"""The smallest slice of the default data that still exercises every stage kind, and its build.

The determinism and fault tests build a graph from empty several times; the whole default
data makes each build take a minute. This slice keeps what each stage kind needs:
- the four prize tables (JSONL) and the two lists of literary prize winners and awards, whose
  shared winners make Union families and Reverse-Union tasks (without the two lists the prize
  tables fall into two topic groups with no shared anchor, and the Union stage finds nothing),
  plus the CSV and the HTML table (every reader);
- the pages the kept tables link to (the offline web the rollouts search and visit; links to
  pages left out stay dangling, as in real corpora).
Stage settings shrink the same way (`SMALL_SETTINGS`): fewer WebShaper walks, two rollouts
per task. `pipeline_command` is the build: every default stage up to pruning.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from seekgraph.cli.pipeline import STAGES as PIPELINE
from seekgraph.graphdb.settings import ConnectionSettings
from tests.conftest import DEFAULT_DATA, cli_login

TABLES = (
    "List_of_Nobel_laureates_in_Literature_1",
    "Booker_Prize_1",
    "Pulitzer_Prize_for_Fiction_1",
    "International_Booker_Prize_1",
    "List_of_literary_prize_winners_1",
    "List_of_literary_awards_1",
)

# stage settings of the small builds, by config section
SMALL_SETTINGS: dict[str, dict[str, int]] = {"shaper": {"n_seeds": 12}, "rollout": {"n": 2}}


def write_small_default(folder: Path) -> Path:
    """Write the slice into `folder` (same file names as the default data); returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    kept: list[str] = []
    links: set[str] = set()
    for line in (DEFAULT_DATA / "tables.jsonl").read_text(encoding="utf-8").splitlines():
        table = json.loads(line)
        if table["table_id"] in TABLES:
            kept.append(line)
            links.update(link for row in table["data"] for _, cell in row for link in cell)
    assert len(kept) == len(TABLES), "the default data lost a table this slice names"
    (folder / "tables.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
    pages = [
        line
        for line in (DEFAULT_DATA / "pages.jsonl").read_text(encoding="utf-8").splitlines()
        if json.loads(line)["id"] in links
    ]
    (folder / "pages.jsonl").write_text("\n".join(pages) + "\n", encoding="utf-8")
    shutil.copytree(DEFAULT_DATA / "extra", folder / "extra", dirs_exist_ok=True)
    return folder


# every default stage up to and including pruning, in pipeline order
_DEFAULT = [stage.name for stage in PIPELINE if not stage.optional]
BUILD_STAGES = _DEFAULT[: _DEFAULT.index("prune") + 1]

# The builds' settings: rewriting thoughts runs a model (its choice is tested apart); the
# rollouts' date is pinned (the builds compared may straddle midnight); a killed Neo4j stops
# the worker after 1 s of retries instead of the driver's 30; the small data's smaller stages.
BUILD_SETTINGS: dict[str, dict[str, object]] = {
    "neo4j": {"retry_seconds": 1},
    "prune": {"rewrite_limit": 0},
    "shaper": dict(SMALL_SETTINGS["shaper"]),
    "rollout": {"date": "2026-01-15", **SMALL_SETTINGS["rollout"]},
}


def pipeline_command(connection: ConnectionSettings, data: Path, out: Path) -> list[str]:
    """`seekgraph pipeline` of `data` through `BUILD_STAGES` with `BUILD_SETTINGS`, into
    `out` (its config file is written there)."""
    config = out / "seekgraph.toml"
    out.mkdir(parents=True, exist_ok=True)
    config.write_text(
        "".join(
            f"[{section}]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items())
            for section, values in BUILD_SETTINGS.items()
        )
    )
    only = [arg for stage in BUILD_STAGES for arg in ("--only", stage)]
    command = [sys.executable, "-m", "seekgraph", "--config", str(config), *cli_login(connection)]
    return [*command, "pipeline", "--data", str(data), "--out", str(out), *only]
