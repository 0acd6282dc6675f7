"""The smallest slice of the default data that still exercises every stage kind.

The determinism and fault tests build a graph from empty several times; the whole default
data makes each build take a minute. This slice keeps what each stage kind needs:
- the four prize tables (JSONL), whose shared winners make Union families and Reverse-Union
  tasks, plus the CSV and the HTML table (every reader);
- the pages the kept tables link to (the offline web the rollouts search and visit; links to
  pages left out stay dangling, as in real corpora).
Stage settings shrink the same way (`SMALL_SETTINGS`): fewer WebShaper walks, two rollouts
per task.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import DEFAULT_DATA

TABLES = (
    "List_of_Nobel_laureates_in_Literature_1",
    "Booker_Prize_1",
    "Pulitzer_Prize_for_Fiction_1",
    "International_Booker_Prize_1",
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
