"""A built dataset on disk and in the graph: its folder (JSONL, card, the Hugging Face copy, the
exports), the `Dataset` node linked to every rollout it includes, and reading a dataset back by
id or folder for training."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport
from seekgraph.training import exports
from seekgraph.training.config import DatasetSpec
from seekgraph.training.dataset_selection import Candidate
from seekgraph.training.errors import DatasetError


@dataclass
class BuiltDataset:
    dataset_id: str
    path: Path
    n_examples: int
    jsonl_sha256: str
    mix: str
    report: StageReport


def write_folder(
    built: BuiltDataset, spec: DatasetSpec, body: str, records: list[dict[str, Any]], card: str
) -> None:
    """Write the files into a temporary sibling folder, then rename it into place."""
    folder = built.path
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        (tmp / "train.jsonl").write_text(body, encoding="utf-8")
        (tmp / "README.md").write_text(card, encoding="utf-8")
        spec_doc = {
            "dataset_id": built.dataset_id,
            "mix": built.mix,
            "spec": spec.canonical(),
            "jsonl_sha256": built.jsonl_sha256,
            "n_examples": built.n_examples,
        }
        (tmp / "spec.json").write_text(json.dumps(spec_doc, indent=2, sort_keys=True) + "\n")
        if spec.hf_folder:
            write_hf(tmp / "hf", records, card)
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(tmp, folder)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def write_exports(
    folder: Path,
    name: str,
    records: list[dict[str, Any]],
    train_tasks: list[dict[str, Any]],
    test: list[dict[str, Any]],
) -> None:
    """The held-out split and the LLaMA-Factory and verl formats (see `seekgraph.training.exports`)."""
    body = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in test)
    (folder / "test.jsonl").write_text(body, encoding="utf-8")
    exports.write_llamafactory(folder / "llamafactory", name, records)
    exports.write_verl(folder / "verl", train_tasks, test)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)  # shared output, not a private temp dir


def link_dataset(
    driver: neo4j.Driver,
    database: str | None,
    built: BuiltDataset,
    spec: DatasetSpec,
    card: str,
    chosen: list[Candidate],
) -> None:
    """The Dataset node and an INCLUDES edge (with its position) to every rollout used."""
    row = {
        "dataset_id": built.dataset_id,
        "name": spec.name,
        "mix": built.mix,
        "spec_json": json.dumps(spec.canonical(), sort_keys=True),
        "path": str(built.path.resolve()),
        "n_examples": built.n_examples,
        "card": card,
        "jsonl_sha256": built.jsonl_sha256,
    }
    cypher.run_batches(driver, "training/merge_datasets", [row], database=database)
    cypher.run_batches(
        driver,
        "training/merge_dataset_includes",
        [{"rollout_id": c.rollout_id, "position": i} for i, c in enumerate(chosen)],
        database=database,
        params={"dataset_id": built.dataset_id},
        batch_size=5000,
    )


def write_hf(path: Path, records: list[dict[str, Any]], card: str) -> None:
    """A Hugging Face `datasets` folder (`load_from_disk`) with the card as its description."""
    from datasets import Dataset, DatasetInfo, disable_progress_bars

    disable_progress_bars()  # a bar per save fills logs with \r-joined lines
    ds = Dataset.from_list(records, info=DatasetInfo(description=card))
    ds.save_to_disk(str(path))


def resolve_dataset(
    driver: neo4j.Driver | None, database: str | None, key: str
) -> tuple[str, Path]:
    """(dataset_id, folder) from a folder path or a Dataset id/name in the graph."""
    path = Path(key)
    if (path / "train.jsonl").is_file():
        spec_file = path / "spec.json"
        dataset_id = ""
        if spec_file.is_file():
            dataset_id = str(json.loads(spec_file.read_text()).get("dataset_id", ""))
        return dataset_id, path
    if driver is None:
        raise DatasetError(f"{key!r} is not a dataset folder (no train.jsonl) and no graph is open")
    rows = cypher.read(driver, "training/find_dataset", database=database, key=key)
    if not rows:
        raise DatasetError(f"no dataset folder or Dataset node named {key!r}")
    folder = Path(rows[0]["path"])
    if not (folder / "train.jsonl").is_file():
        raise DatasetError(f"dataset {key!r} points at {folder}, which has no train.jsonl")
    return rows[0]["dataset_id"], folder


def read_examples(folder: Path) -> list[dict[str, Any]]:
    """The records of a dataset folder's train.jsonl."""
    with (folder / "train.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
