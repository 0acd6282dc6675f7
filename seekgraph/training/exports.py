"""Trainer formats written beside a dataset's `train.jsonl`, each as its library reads it.

- `test.jsonl`: the held-out tasks (``split=heldout``) as prompts (system + question) with their
  gold answers; the same columns as `train.jsonl` (whose rows carry the gold answers of their
  tasks too), so `datasets.load_dataset("json")` reads both splits as one dataset. An answer is
  a list of records ``{name, entity_id, attributes: [{relation, values}]}`` (a list, not a map,
  so every row has one schema), beside the names and the wire-format text.
- `llamafactory/`: ShareGPT conversations (``human``/``gpt``/``observation``; a tool response is
  an ``observation`` turn) and the `dataset_info.json` that LLaMA-Factory needs to find them.
- `verl/{train,test}.parquet`: one row per task (verl trains RL from prompts): ``data_source``,
  ``prompt`` (chat messages), ``ability``, ``reward_model`` {``style``, ``ground_truth``} and
  ``extra_info``; the ground truth is the answer in the wire format the scorer reads.
- the dataset card's YAML header: licence (CC BY-SA 4.0, as the Wikipedia text it is made
  of), language, task categories and the split files.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.agent.rollouts import TaskInfo, load_tasks
from seekgraph.common.answers import gold_records
from seekgraph.common.wire import Message

TOOL_RESPONSE = "<tool_response>"
ANSWER_KEYS = ("answers", "answer_entities", "answer_text")
LICENSE = "cc-by-sa-4.0"


def answer_columns(answer_json: str | None) -> dict[str, Any]:
    """The gold answer as example columns: records, names and the wire-format text."""
    records = gold_records(answer_json)
    return {
        "answers": [
            {
                "name": r.name,
                "entity_id": r.entity_id,
                "attributes": [{"relation": k, "values": v} for k, v in r.attributes.items()],
            }
            for r in records
        ],
        "answer_entities": [r.name for r in records],
        "answer_text": "\n".join(r.line() for r in records),
    }


def task_record(task: TaskInfo, system: str, split: str) -> dict[str, Any]:
    """A task as an example without a trajectory: the prompt and the gold answer."""
    return {
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": task.question},
        ],
        "rollout_id": "",
        "task_id": task.task_id,
        "variant": task.variant,
        "kind": task.kind,
        "pruned": False,
        "rewritten": False,
        "thoughts": "original",
        "split": split,
        **answer_columns(task.answer_json),
    }


def task_records(
    driver: neo4j.Driver,
    database: str | None,
    system: str,
    split: str,
    task_ids: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """The kept tasks of `split` (or just `task_ids`), in task-id order."""
    if task_ids is not None and not task_ids:
        return []
    tasks = load_tasks(
        driver, database, split=None if task_ids else split, task_ids=task_ids or None
    )
    return [task_record(t, system, split) for t in tasks]


def sharegpt(messages: list[Message]) -> dict[str, Any]:
    """One conversation in LLaMA-Factory's ShareGPT layout (system prompt apart)."""
    turns = []
    for m in messages[1:]:
        if m["role"] == "assistant":
            role = "gpt"
        elif m["content"].lstrip().startswith(TOOL_RESPONSE):
            role = "observation"
        else:
            role = "human"
        turns.append({"from": role, "value": m["content"]})
    return {"conversations": turns, "system": messages[0]["content"]}


def write_llamafactory(folder: Path, name: str, train: list[dict[str, Any]]) -> None:
    """`train.json` and the `dataset_info.json` entry that names its layout."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = [sharegpt(r["messages"]) for r in train]
    (folder / "train.json").write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
    info = {
        name: {
            "file_name": "train.json",
            "formatting": "sharegpt",
            "columns": {"messages": "conversations", "system": "system"},
            "tags": {
                "role_tag": "from",
                "content_tag": "value",
                "user_tag": "human",
                "assistant_tag": "gpt",
                "observation_tag": "observation",
            },
        }
    }
    (folder / "dataset_info.json").write_text(json.dumps(info, indent=2) + "\n")


def verl_rows(tasks: list[dict[str, Any]], split: str) -> list[dict[str, Any]]:
    """verl's RL rows: the prompt and a rule-based reward's ground truth per task."""
    return [
        {
            "data_source": f"seekgraph/{t['variant'] or t['kind']}",
            "prompt": t["messages"],
            "ability": "web_research",
            "reward_model": {"style": "rule", "ground_truth": t["answer_text"]},
            "extra_info": {
                "split": split,
                "index": i,
                "task_id": t["task_id"],
                "answers_json": json.dumps(t["answers"], ensure_ascii=False, sort_keys=True),
            },
        }
        for i, t in enumerate(tasks)
    ]


def write_verl(folder: Path, train_tasks: list[dict[str, Any]], test: list[dict[str, Any]]) -> None:
    """`train.parquet` (the tasks of the training trajectories) and `test.parquet`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    for split, tasks in (("train", train_tasks), ("test", test)):
        table = pa.Table.from_pylist(verl_rows(tasks, split)) if tasks else _empty_verl_table()
        pq.write_table(table, folder / f"{split}.parquet")


def _empty_verl_table() -> Any:
    import pyarrow as pa

    message = pa.struct([("role", pa.string()), ("content", pa.string())])
    return pa.table(
        {
            "data_source": pa.array([], pa.string()),
            "prompt": pa.array([], pa.list_(message)),
            "ability": pa.array([], pa.string()),
            "reward_model": pa.array(
                [], pa.struct([("style", pa.string()), ("ground_truth", pa.string())])
            ),
            "extra_info": pa.array(
                [],
                pa.struct(
                    [
                        ("split", pa.string()),
                        ("index", pa.int64()),
                        ("task_id", pa.string()),
                        ("answers_json", pa.string()),
                    ]
                ),
            ),
        }
    )


def card_header(pretty_name: str, n_train: int, n_test: int) -> str:
    """The YAML block a dataset card starts with (read by the Hugging Face Hub and tools)."""
    total = n_train + n_test
    size = "n<1K" if total < 1000 else "1K<n<10K" if total < 10_000 else "10K<n<100K"
    return "\n".join(
        [
            "---",
            f"license: {LICENSE}",
            "language:",
            "- en",
            "task_categories:",
            "- question-answering",
            "- text-generation",
            "tags:",
            "- web-research",
            "- agents",
            "- wikipedia",
            "- tool-use",
            f"pretty_name: {json.dumps(pretty_name)}",
            "size_categories:",
            f"- {size}",
            "configs:",
            "- config_name: default",
            "  data_files:",
            "  - split: train",
            "    path: train.jsonl",
            "  - split: test",
            "    path: test.jsonl",
            "---",
            "",
        ]
    )


LICENSE_TEXT = (
    "## Licence\n"
    "The questions, answers and tool responses are made from Wikipedia text and tables, "
    "which are licensed under CC BY-SA 4.0; this dataset is shared under the same licence "
    "(attribution: Wikipedia contributors; the source pages are named in the tool responses).\n"
)
