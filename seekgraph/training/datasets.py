"""The `dataset` stage: trajectories from the graph → TRL conversational data, with provenance.

Selection is a pure function over rollout metadata (`select`), so it is tested without a
server; the graph only supplies candidates and stores the result:

1. filters: split, policy, source (task kind), variant, termination, the ISR/ISE verdict
   (`kept`), accuracy ("correct"), F1, ISR and ISE thresholds;
2. the mix: ``filtered`` (optionally only pruned / only unpruned), ``eff`` (pruned only, as
   WebClipper's efficiency-oriented training), ``hybrid`` (pruned plus unpruned *hard*
   trajectories — at least `hybrid_min_rounds` rounds — of OTHER tasks, at most `hybrid_ratio`
   per pruned one), ``auto`` (hybrid when pruned trajectories exist, else filtered);
3. per-task cap, variant ratios (Basic / Union / Reverse-Union / KP), a total limit.

Every choice is made in a seeded hash order of rollout ids, so the same spec on the same graph
selects the same rollouts in the same order. The dataset id hashes the spec and the selection;
the JSONL is written byte-for-byte the same, so its sha256 is the same too. A `Dataset` node
`INCLUDES` every rollout used.

This module is the stage (read candidates, select, build, store); the selection is
`dataset_selection`, the folder and the `Dataset` node are `dataset_files`.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.agent.config import PRIVILEGED_POLICIES, policy_label
from seekgraph.agent.store import read_trajectories
from seekgraph.common.wire import WireFormatError, check_complete
from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id
from seekgraph.graphdb.stages import StageReport
from seekgraph.training import exports
from seekgraph.training.config import DatasetSpec
from seekgraph.training.dataset_files import BuiltDataset, link_dataset, write_exports, write_folder
from seekgraph.training.dataset_selection import Candidate, select
from seekgraph.training.errors import DatasetError

PAGE = 5000


def load_candidates(
    driver: neo4j.Driver, database: str | None, *, page: int = PAGE
) -> list[Candidate]:
    """Every finished rollout's metadata, read in pages of `page` (keyset on rollout_id)."""
    out: list[Candidate] = []
    after = ""
    while True:
        rows = cypher.read(
            driver, "training/find_candidate_rollouts", database=database, after=after, page=page
        )
        for r in rows:
            out.append(
                Candidate(
                    rollout_id=r["rollout_id"],
                    task_id=r["task_id"],
                    kind=r["kind"] or "",
                    variant=r["variant"] or "",
                    split=r["split"] or "train",
                    policy=r["policy"] or "",
                    model=r["model"] or "",
                    pruned=bool(r["pruned"]),
                    original_id=r["original_id"],
                    termination=r["termination"] or "",
                    kept=bool(r["kept"]),
                    accuracy=float(r["accuracy"] or 0.0),
                    f1=float(r["f1"] or 0.0),
                    isr=float(r["isr"] or 0.0),
                    ise=float(r["ise"] or 0.0),
                    rounds=int(r["rounds"] or 0),
                    thoughts=r["thoughts"] or "original",
                )
            )
        if len(rows) < page:
            return out
        after = rows[-1]["rollout_id"]


def _card(
    name: str,
    dataset_id: str,
    spec: DatasetSpec,
    mix: str,
    chosen: Sequence[Candidate],
    rejected: Sequence[tuple[str, str, str]],
    sha: str,
    n_candidates: int,
) -> str:
    def counts(values: Iterable[str]) -> str:
        return ", ".join(f"{k}: {v}" for k, v in sorted(Counter(values).items())) or "-"

    rounds = [c.rounds for c in chosen]
    lines = [
        f"# Dataset `{name}` ({dataset_id})",
        "",
        "Trajectories of web-research agents from the seekgraph graph, in TRL's conversational",
        "format (`messages`; tool calls inside assistant turns, tool responses inside user turns,",
        "the Tongyi-DeepResearch wire format). Built by `seekgraph dataset`.",
        "",
        "## Counts",
        f"- examples: {len(chosen)} (of {n_candidates} candidate rollouts)",
        f"- tasks: {len({c.task_id for c in chosen})}",
        f"- pruned: {sum(c.pruned for c in chosen)}, unpruned: {sum(not c.pruned for c in chosen)}",
        f"- variants: {counts(c.variant for c in chosen)}",
        f"- sources: {counts(c.kind for c in chosen)}",
        f"- policies: {counts(policy_label(c.policy) for c in chosen)}",
        *(
            [
                f"- PRIVILEGED: {n} examples come from policies that read the gold plan and "
                "answers from the graph (gold-walker); no agent can act so, train on them only "
                "for ablations"
            ]
            if (n := sum(c.policy in PRIVILEGED_POLICIES for c in chosen))
            else []
        ),
        f"- thoughts: {counts(c.thoughts for c in chosen)} (pruned trajectories whose thoughts "
        "were not rewritten may cite steps that were pruned)",
        f"- rounds: mean {sum(rounds) / len(rounds):.2f}, max {max(rounds)}"
        if rounds
        else "- rounds: -",
        f"- rejected: {counts(r[1] for r in rejected)}",
        "",
        "## Mix and filters",
        f"- mix: `{mix}` (asked: `{spec.mix}`)",
        "```json",
        json.dumps(spec.canonical(), indent=2, sort_keys=True),
        "```",
        "",
        "## Hashes",
        f"- train.jsonl sha256: `{sha}`",
        f"- dataset id: `{dataset_id}` (spec + selected rollout ids)",
    ]
    return "\n".join(lines) + "\n"


def build_dataset(
    driver: neo4j.Driver,
    database: str | None,
    spec: DatasetSpec,
    out_dir: Path,
    *,
    echo: Callable[[str], None] | None = None,
) -> BuiltDataset:
    """Select, write `<out_dir>/<name>-<id>/{train.jsonl, hf/, README.md, spec.json}`, link it.

    Idempotent: when the Dataset node and a folder with the same JSONL hash exist, nothing is
    rewritten (reported as skipped). Files are written into a temporary folder and renamed.
    """
    report = StageReport("dataset")
    candidates = _without_split_leaks(driver, database, load_candidates(driver, database), report)
    selection = select(candidates, spec)
    for rid, reason, detail in selection.rejected:
        report.reject(rid, reason, detail)
    if not selection.chosen:
        raise DatasetError(
            f"no trajectory passes the spec {spec.name!r} ({len(candidates)} candidates; "
            f"rejected: {dict(Counter(r[1] for r in selection.rejected))})"
        )
    chosen, records = example_records(driver, database, selection.chosen, report)
    system = records[0]["messages"][0]["content"]
    train_tasks = exports.task_records(
        driver, database, system, "train", sorted({c.task_id for c in chosen})
    )
    answers = {t["task_id"]: {k: t[k] for k in exports.ANSWER_KEYS} for t in train_tasks}
    for record in records:
        record.update(answers.get(record["task_id"]) or exports.answer_columns(None))
        record["split"] = "train"
    body = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    sha = hashlib.sha256(body.encode("utf-8")).hexdigest()
    dataset_id = stable_id("dataset", spec.canonical(), [c.rollout_id for c in chosen])
    folder = Path(out_dir) / f"{spec.name}-{dataset_id.split(':')[1][:10]}"
    built = BuiltDataset(dataset_id, folder, len(chosen), sha, selection.mix, report)
    if _already_built(driver, database, built):
        report.skip(len(chosen))
        report.notes["dataset"] = f"{dataset_id} already built at {folder}"
        return built
    test = exports.task_records(driver, database, system, "heldout")
    card = exports.card_header(spec.name, len(records), len(test)) + _card(
        spec.name, dataset_id, spec, selection.mix, chosen, selection.rejected, sha, len(candidates)
    )
    card += f"- test.jsonl: {len(test)} held-out tasks (prompt and gold answers)\n"
    card += (
        "- split: by source tables (no table is a source of a held-out and a train task); "
        f"held-out answer entities that are train answers too: "
        f"{report.notes['answer entities on both sides']}\n\n"
    )
    card += exports.LICENSE_TEXT
    write_folder(built, spec, body, records, card)
    write_exports(built.path, spec.name, records, train_tasks, test)
    link_dataset(driver, database, built, spec, card, chosen)
    report.keep(len(chosen))
    report.notes["dataset"] = f"{dataset_id} ({selection.mix}) at {folder}"
    if echo:
        echo(f"dataset {dataset_id}: {len(chosen)} examples → {folder}")
    return built


def _without_split_leaks(
    driver: neo4j.Driver, database: str | None, candidates: list[Candidate], report: StageReport
) -> list[Candidate]:
    """The candidates whose task shares no source table with a held-out task; the others are
    rejected ``split_leak`` (none after the quality gate, which splits tasks by their tables;
    this proves it on the graph the dataset is built from). The report also says how many
    held-out answer entities are answers of train tasks too (tables differ, entities may not)."""
    from seekgraph.synth.split import crossing_tasks

    crossing = crossing_tasks(cypher.read(driver, "quality/find_task_sources", database=database))
    kept = []
    for c in candidates:
        if c.task_id in crossing:
            report.reject(
                c.rollout_id, "split_leak", f"sources also held out: {crossing[c.task_id][:5]}"
            )
        else:
            kept.append(c)
    report.notes["split_leak"] = len(candidates) - len(kept)
    shared = cypher.read(driver, "quality/count_shared_answers", database=database)
    report.notes["answer entities on both sides"] = (
        f"{shared[0]['shared']} of {shared[0]['heldout_answers']} held-out answers"
        if shared
        else "no held-out answers"
    )
    return kept


def example_records(
    driver: neo4j.Driver, database: str | None, selected: list[Candidate], report: StageReport
) -> tuple[list[Candidate], list[dict[str, Any]]]:
    """The selected rollouts whose trajectories are complete, and their example records
    (TRL conversational `messages` plus provenance); the others are rejected `bad_messages`."""
    stored = read_trajectories(driver, database, [c.rollout_id for c in selected])
    chosen: list[Candidate] = []
    records: list[dict[str, Any]] = []
    for c in selected:
        rollout = stored.get(c.rollout_id)
        try:
            if rollout is None:
                raise WireFormatError("the rollout has no steps")
            check_complete(rollout.trajectory)
        except WireFormatError as e:
            report.reject(c.rollout_id, "bad_messages", str(e))
            continue
        chosen.append(c)
        records.append(
            {
                "messages": rollout.trajectory.messages(),
                "rollout_id": c.rollout_id,
                "task_id": c.task_id,
                "variant": c.variant,
                "kind": c.kind,
                "pruned": c.pruned,
                "rewritten": bool(rollout.rewritten),
                "thoughts": c.thoughts,
                "policy": c.policy,
                "privileged": c.policy in PRIVILEGED_POLICIES,
            }
        )
    if not chosen:
        raise DatasetError("every selected trajectory had malformed messages")
    return chosen, records


def _already_built(driver: neo4j.Driver, database: str | None, built: BuiltDataset) -> bool:
    """The Dataset node exists and the folder holds the same train.jsonl (by hash)."""
    existing = cypher.read(driver, "training/find_dataset", database=database, key=built.dataset_id)
    path = built.path / "train.jsonl"
    return bool(
        existing
        and existing[0]["jsonl_sha256"] == built.jsonl_sha256
        and path.is_file()
        and hashlib.sha256(path.read_bytes()).hexdigest() == built.jsonl_sha256
    )
