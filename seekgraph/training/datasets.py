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
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
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
from seekgraph.training.errors import DatasetError

PAGE = 5000


@dataclass(frozen=True)
class Candidate:
    """A finished rollout's metadata (no messages)."""

    rollout_id: str
    task_id: str
    kind: str = ""
    variant: str = ""
    split: str = "train"
    policy: str = ""
    model: str = ""
    pruned: bool = False
    original_id: str | None = None
    termination: str = "answer"
    kept: bool = True
    accuracy: float = 0.0
    f1: float = 0.0
    isr: float = 0.0
    ise: float = 0.0
    rounds: int = 0
    # original (unpruned) | not_needed | rewritten | rewrite_failed | not_rewritten: whether a
    # pruned trajectory's thoughts were rewritten where their context lost steps
    thoughts: str = "original"


STALE_THOUGHTS = frozenset({"not_rewritten", "rewrite_failed"})


@dataclass
class Selection:
    chosen: list[Candidate]
    rejected: list[tuple[str, str, str]]  # (rollout_id, reason, detail)
    mix: str  # the mix actually used (auto resolved)


def order_key(seed: int, rollout_id: str) -> str:
    """A seeded, stable pseudo-random order of rollouts."""
    return hashlib.sha1(f"{seed}:{rollout_id}".encode()).hexdigest()


def _filter_reason(c: Candidate, spec: DatasetSpec) -> tuple[str, str] | None:
    checks: list[tuple[bool, str, str]] = [
        (bool(spec.splits) and c.split not in spec.splits, "split", c.split),
        (bool(spec.policies) and c.policy not in spec.policies, "policy", c.policy),
        (bool(spec.models) and c.model not in spec.models, "model", c.model),
        (bool(spec.kinds) and c.kind not in spec.kinds, "source", c.kind),
        (bool(spec.variants) and c.variant not in spec.variants, "variant", c.variant),
        (
            bool(spec.terminations) and c.termination not in spec.terminations,
            "termination",
            c.termination,
        ),
        (spec.kept_only and not c.kept, "not_kept", "rejected by the ISR/ISE filter"),
        (c.accuracy < spec.min_accuracy, "not_correct", f"accuracy {c.accuracy:.3f}"),
        (c.f1 < spec.min_f1, "low_f1", f"f1 {c.f1:.3f}"),
        (c.isr < spec.min_isr, "low_isr", f"isr {c.isr:.3f}"),
        (c.ise < spec.min_ise, "low_ise", f"ise {c.ise:.3f}"),
        (
            spec.drop_stale_thoughts and c.thoughts in STALE_THOUGHTS,
            "stale_thoughts",
            f"thoughts {c.thoughts}: they may cite pruned steps",
        ),
    ]
    for failed, reason, detail in checks:
        if failed:
            return reason, str(detail)
    return None


def variant_counts(
    available: dict[str, int], ratios: dict[str, float], limit: int
) -> dict[str, int]:
    """How many of each variant to take so the counts follow `ratios` as closely as possible.

    Takes the largest total N (at most `limit` when set) with ``floor(N·share_v) <= available_v``
    for every variant with a positive ratio, and returns ``floor(N·share_v)``; e.g. available
    {basic: 10, union: 2} with ratios 1:1 → {basic: 2, union: 2}. O(#variants) plus a short
    correction of floating-point error around the closed form.
    """
    weights = {v: r for v, r in ratios.items() if r > 0}
    total = sum(weights.values())
    if not weights or total <= 0:
        return {}
    shares = {v: r / total for v, r in weights.items()}

    def take(n: int) -> dict[str, int]:
        return {v: math.floor(n * s + 1e-9) for v, s in shares.items()}

    def fits(n: int) -> bool:
        return (not limit or n <= limit) and all(
            c <= available.get(v, 0) for v, c in take(n).items()
        )

    n = max(0, min(math.ceil((available.get(v, 0) + 1) / s) - 1 for v, s in shares.items()))
    if limit:
        n = min(n, limit)
    while n > 0 and not fits(n):
        n -= 1
    while fits(n + 1):
        n += 1
    return take(n)


def _hard(c: Candidate, spec: DatasetSpec) -> bool:
    return not c.pruned and c.rounds >= spec.hybrid_min_rounds


def _hybrid_possible(passing: Sequence[Candidate], spec: DatasetSpec) -> bool:
    """Pruned trajectories and hard unpruned ones exist, of at least two tasks in all."""
    pruned = {c.task_id for c in passing if c.pruned}
    hard = {c.task_id for c in passing if _hard(c, spec)}
    return bool(pruned and hard and len(pruned | hard) >= 2)


def _hybrid(
    passing: list[Candidate], spec: DatasetSpec, rejected: list[tuple[str, str, str]]
) -> list[Candidate]:
    """WebClipper's Hybrid mix: pruned trajectories of some tasks and unpruned *hard* ones of
    OTHER tasks, never both for one task.

    A task with hard unpruned trajectories but no pruned one gives those; the tasks with both
    are split in seeded order: a share ``ratio / (1 + ratio)`` of them gives its hard unpruned
    trajectories, the rest (and every task without a hard one) its pruned ones. Unpruned ones
    beyond `hybrid_ratio` per pruned one are dropped (``over_hybrid_quota``). E.g. ratio 1 and
    four tasks a-d, each with a pruned and a hard unpruned trajectory: two tasks give their
    unpruned, two their pruned trajectory.
    """
    pruned_tasks = {c.task_id for c in passing if c.pruned}
    hard_tasks = {c.task_id for c in passing if _hard(c, spec)}
    # a task with hard unpruned trajectories only can give nothing else; of the tasks with
    # both, a share goes to the unpruned side, and one stays pruned if no other task is
    both = sorted(hard_tasks & pruned_tasks, key=lambda t: order_key(spec.seed, t))
    n_both = round(spec.hybrid_ratio / (1 + spec.hybrid_ratio) * len(both))
    if not pruned_tasks - hard_tasks:
        n_both = min(n_both, len(both) - 1)
    unpruned_side = (hard_tasks - pruned_tasks) | set(both[:n_both])
    pruned: list[Candidate] = []
    hard: list[Candidate] = []
    for c in passing:
        if c.pruned:
            if c.task_id in unpruned_side:
                rejected.append((c.rollout_id, "task_on_unpruned_side", c.task_id))
            else:
                pruned.append(c)
        elif c.task_id not in unpruned_side:
            why = "not_hard" if not _hard(c, spec) else "task_on_pruned_side"
            rejected.append((c.rollout_id, why, f"{c.rounds} rounds"))
        elif not _hard(c, spec):
            rejected.append((c.rollout_id, "not_hard", f"{c.rounds} rounds"))
        else:
            hard.append(c)
    quota = math.floor(spec.hybrid_ratio * len(pruned) + 1e-9)
    hard.sort(key=lambda c: (-c.rounds, order_key(spec.seed, c.rollout_id)))
    for c in hard[quota:]:
        rejected.append((c.rollout_id, "over_hybrid_quota", f"quota {quota}"))
    chosen = pruned + hard[:quota]
    chosen.sort(key=lambda c: order_key(spec.seed, c.rollout_id))
    if not any(c.pruned for c in chosen) or all(c.pruned for c in chosen):
        raise DatasetError(
            f"the hybrid mix needs pruned and hard unpruned trajectories of different tasks; "
            f"got {sum(c.pruned for c in chosen)} pruned and "
            f"{sum(not c.pruned for c in chosen)} unpruned (hybrid_min_rounds "
            f"{spec.hybrid_min_rounds}, hybrid_ratio {spec.hybrid_ratio:g}); use mix=eff or "
            "mix=filtered"
        )
    return chosen


def select(candidates: Iterable[Candidate], spec: DatasetSpec) -> Selection:
    """Apply the spec's filters and mix to candidates; returns chosen (in order) and rejected."""
    rejected: list[tuple[str, str, str]] = []
    passing: list[Candidate] = []
    for c in candidates:
        why = _filter_reason(c, spec)
        if why:
            rejected.append((c.rollout_id, *why))
        else:
            passing.append(c)
    passing.sort(key=lambda c: order_key(spec.seed, c.rollout_id))
    mix = spec.mix
    if mix == "auto":
        mix = "hybrid" if _hybrid_possible(passing, spec) else "filtered"
    chosen: list[Candidate] = []
    if mix == "filtered":
        for c in passing:
            if spec.pruned is not None and c.pruned != spec.pruned:
                rejected.append((c.rollout_id, "pruned" if c.pruned else "not_pruned", ""))
            else:
                chosen.append(c)
    elif mix == "eff":
        for c in passing:
            (chosen.append(c) if c.pruned else rejected.append((c.rollout_id, "not_pruned", "")))
    elif mix == "hybrid":
        chosen = _hybrid(passing, spec, rejected)
    else:
        raise DatasetError(f"unknown mix {spec.mix!r}")
    if spec.max_per_task:
        per_task: Counter[str] = Counter()
        capped = []
        for c in chosen:
            per_task[c.task_id] += 1
            if per_task[c.task_id] > spec.max_per_task:
                rejected.append((c.rollout_id, "over_task_cap", c.task_id))
            else:
                capped.append(c)
        chosen = capped
    if spec.variant_ratios:
        want = variant_counts(Counter(c.variant for c in chosen), spec.variant_ratios, spec.limit)
        taken: Counter[str] = Counter()
        mixed = []
        for c in chosen:
            if c.variant not in want:
                rejected.append((c.rollout_id, "variant_not_in_mix", c.variant))
            elif taken[c.variant] >= want[c.variant]:
                rejected.append((c.rollout_id, "over_variant_ratio", c.variant))
            else:
                taken[c.variant] += 1
                mixed.append(c)
        chosen = mixed
    if spec.limit and len(chosen) > spec.limit:
        rejected += [(c.rollout_id, "over_limit", str(spec.limit)) for c in chosen[spec.limit :]]
        chosen = chosen[: spec.limit]
    return Selection(chosen, rejected, mix)


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


@dataclass
class BuiltDataset:
    dataset_id: str
    path: Path
    n_examples: int
    jsonl_sha256: str
    mix: str
    report: StageReport


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
    candidates = load_candidates(driver, database)
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
    card += f"- test.jsonl: {len(test)} held-out tasks (prompt and gold answers)\n\n"
    card += exports.LICENSE_TEXT
    _write_folder(built, spec, body, records, card)
    _write_exports(built.path, spec.name, records, train_tasks, test)
    _link(driver, database, built, spec, card, chosen)
    report.keep(len(chosen))
    report.notes["dataset"] = f"{dataset_id} ({selection.mix}) at {folder}"
    if echo:
        echo(f"dataset {dataset_id}: {len(chosen)} examples → {folder}")
    return built


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


def _write_folder(
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
            _write_hf(tmp / "hf", records, card)
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(tmp, folder)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _write_exports(
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


def _link(
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


def _write_hf(path: Path, records: list[dict[str, Any]], card: str) -> None:
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
