"""Page embeddings on CPU: torch (the reference) against ONNX Runtime fp32 and int8.

Embeds the same OTT-QA pages (as the web index embeds them: `page_text_for_embedding`) with
each runtime in one process, interleaved chunk by chunk so that load from other processes
falls on all of them alike; reports pages/s and the ratio to torch, the time to make the ONNX
files (into a fresh folder, so the export is timed), how close each runtime's vectors are to
torch's, and whether they find the same pages: recall@10 of the page a query was made from
among all sampled pages (brute-force dot products), with the queries of bench_web
(`query_sets`: six consecutive words of the page, its first sentence without the title's
words, its title), each runtime's queries against its own pages.

Needs ../shared/data (no Neo4j):

    .venv/bin/python -m bench.bench_embed --pages 2000 --threads 2
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.bench_web import query_sets
from bench.common import Measurement, table, write_markdown
from seekgraph.agent.web.index import page_text_for_embedding
from seekgraph.common.embeddings import Embedder, packaged_model_folder
from seekgraph.common.onnx_minilm import OnnxMiniLM, ensure_onnx

PASSAGES = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "ottqa" / "passages.train.jsonl.gz"
)
REFERENCE = "torch fp32 (reference)"
SHORT = 128
SHORT_CASE = f"onnx int8 {SHORT}"


def sample_pages(path: Path, n: int, seed: int) -> list[dict[str, Any]]:
    """`n` passages drawn with a seeded generator, as {page_id, title, text}."""
    with gzip.open(path, "rt") as f:
        rows = [json.loads(line) for line in f]
    picked = random.Random(seed).sample(rows, n)
    return [{"page_id": r["id"], "title": r["title"], "text": r["text"]} for r in picked]


def recall_at(pages: np.ndarray, queries: np.ndarray, sources: list[int], k: int) -> float:
    """Share of queries whose source page is among the `k` pages of highest dot product."""
    top = np.argsort(-(queries @ pages.T), axis=1)[:, :k]
    return float(np.mean([src in row for src, row in zip(sources, top, strict=True)]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=2000, help="pages embedded (and the pool)")
    parser.add_argument("--queries", type=int, default=300, help="pages queries are made from")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads of each runtime")
    parser.add_argument("--rounds", type=int, default=2, help="times every page is embedded")
    parser.add_argument("--chunk", type=int, default=250, help="pages per interleaved turn")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--batch-sizes", action="store_true", help="also torch at 16 and int8 at 4 and 16"
    )
    parser.add_argument(
        "--short",
        action="store_true",
        help=f"also int8 reading {SHORT} word pieces per page (the length MiniLM was trained on)",
    )
    args = parser.parse_args()

    pages = sample_pages(PASSAGES, args.pages, args.seed)
    texts = [page_text_for_embedding(p["title"], p["text"]) for p in pages]
    folder = packaged_model_folder()
    notes = [
        f"{len(texts):,} OTT-QA pages (seed {args.seed}), torch on {args.threads} threads, "
        f"ONNX Runtime {args.threads} pages at a time on one thread each; "
        f"load average at the start {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)"
    ]

    with tempfile.TemporaryDirectory() as tmp:
        made: dict[str, float] = {}
        for variant in ("fp32", "int8"):  # int8 includes its own export: each timed alone
            start = time.perf_counter()
            ensure_onnx(folder, variant, Path(tmp) / variant)
            made[variant] = time.perf_counter() - start
        notes.append(
            f"making the ONNX files (export; export + quantisation), once per machine: "
            f"fp32 {made['fp32']:.1f} s, int8 {made['int8']:.1f} s"
        )
        fp32 = OnnxMiniLM.load(folder, "fp32", args.threads, Path(tmp) / "fp32")
        int8 = OnnxMiniLM.load(folder, "int8", args.threads, Path(tmp) / "int8")

    def on_torch(batch: int) -> Callable[[list[str]], np.ndarray]:
        embedder = Embedder(batch_size=batch, threads=args.threads, backend="torch")
        return lambda chunk: np.asarray(embedder.embed_array(chunk))

    def on_onnx(
        model: OnnxMiniLM, batch: int, tokens: int = 256
    ) -> Callable[[list[str]], np.ndarray]:
        return lambda chunk: np.asarray(model.encode(chunk, batch, tokens))

    # each runtime at its Embedder default batch size (torch 64, ONNX Runtime 1)
    cases = {
        REFERENCE: on_torch(64),
        "onnx fp32": on_onnx(fp32, 1),
        "onnx int8": on_onnx(int8, 1),
    }
    if args.batch_sizes:
        cases |= {
            "torch fp32, batches of 16": on_torch(16),
            "onnx int8, batches of 4": on_onnx(int8, 4),
            "onnx int8, batches of 16": on_onnx(int8, 16),
        }
    if args.short:
        cases[SHORT_CASE] = on_onnx(int8, 1, SHORT)
    for encode in cases.values():
        encode(texts[:16])  # warm-up: first-call allocations are not part of the rate
    rows = {case: Measurement(case, items=len(texts)) for case in cases}
    vectors: dict[str, np.ndarray] = {}
    chunks = [texts[i : i + args.chunk] for i in range(0, len(texts), args.chunk)]
    cpu = dict.fromkeys(cases, 0.0)  # CPU seconds of the process (all threads), every round
    for r in range(args.rounds):
        spent = dict.fromkeys(cases, 0.0)
        parts: dict[str, list[np.ndarray]] = {case: [] for case in cases}
        for c, chunk in enumerate(chunks):
            names = list(cases)
            shift = (r + c) % len(names)  # each case goes first as often as the others
            for case in names[shift:] + names[:shift]:
                start, start_cpu = time.perf_counter(), time.process_time()
                parts[case].append(cases[case](chunk))
                spent[case] += time.perf_counter() - start
                cpu[case] += time.process_time() - start_cpu
        for case in cases:
            rows[case].seconds.append(spent[case])
            vectors[case] = np.concatenate(parts[case])
        print(f"round {r + 1}: " + ", ".join(f"{c} {s:.1f} s" for c, s in spent.items()))

    lines = table(list(rows.values()), REFERENCE, unit="pages")
    # CPU time is what a busy machine changes least (the wall clock also counts other work)
    lines += ["", f"{'case':<40} {'pages per CPU s':>16} {'vs torch':>9}"]
    for case in cases:
        per_cpu = args.rounds * len(texts) / cpu[case]
        ratio = cpu[REFERENCE] / cpu[case]
        lines.append(f"{case:<40} {per_cpu:>16.1f} {ratio:>8.2f}x")
    ref = vectors[REFERENCE]
    lines += ["", f"{'vectors vs torch':<40} {'mean cos':>9} {'min cos':>9}"]
    for case in cases:
        if case != REFERENCE:
            cos = np.sum(vectors[case] * ref, axis=1)
            lines.append(f"{case:<40} {cos.mean():>9.4f} {cos.min():>9.4f}")

    rng = random.Random(args.seed + 1)
    asked = rng.sample(range(len(pages)), min(args.queries, len(pages)))
    sets = query_sets([pages[i] for i in asked], rng)
    runtimes = {
        "torch": (vectors[REFERENCE], on_torch(64)),
        "onnx int8": (vectors["onnx int8"], on_onnx(int8, 1)),
    }
    if args.short:
        runtimes[SHORT_CASE] = (vectors[SHORT_CASE], on_onnx(int8, 1, SHORT))
    queries = {
        name: {kind: encode(qs) for kind, qs in sets.items()}
        for name, (_, encode) in runtimes.items()
    }
    lines += ["", f"recall@10 of the source page among {len(pages):,} pages"]
    lines.append(f"{'pages / queries':<40}" + "".join(f"{kind:>13}" for kind in sets))
    pairs = [("torch", "torch"), ("onnx int8", "onnx int8"), ("torch", "onnx int8")]
    if args.short:
        pairs.append((SHORT_CASE, SHORT_CASE))
    for page_rt, query_rt in pairs:
        found = [
            recall_at(runtimes[page_rt][0], queries[query_rt][kind], asked, 10) for kind in sets
        ]
        label = f"{page_rt} / {query_rt}" + (" (mixed)" if page_rt != query_rt else "")
        lines.append(f"{label:<40}" + "".join(f"{f:>13.1%}" for f in found))
    overlap = [
        np.mean(
            [
                len(set(a) & set(b)) / 10
                for a, b in zip(
                    np.argsort(-(queries["torch"][kind] @ ref.T), axis=1)[:, :10],
                    np.argsort(-(queries["onnx int8"][kind] @ vectors["onnx int8"].T), axis=1)[
                        :, :10
                    ],
                    strict=True,
                )
            ]
        )
        for kind in sets
    ]
    lines.append(f"{'top-10 shared, torch vs int8':<40}" + "".join(f"{o:>13.1%}" for o in overlap))
    for line in [*notes, "", *lines]:
        print(line)
    write_markdown(
        Path("docs/benchmarks.md"),
        "Page embeddings: torch vs ONNX Runtime fp32 and int8 (issue 33)",
        lines,
        note="\n".join(f"- {n}" for n in notes)
        + f"\n- {args.rounds} rounds, the runtimes interleaved {args.chunk} pages at a time; "
        f"load average at the end {os.getloadavg()[0]:.1f}; "
        f"{len(asked)} pages asked for three ways each (bench_web's `query_sets`); "
        "2-core machine shared with other work.",
    )


if __name__ == "__main__":
    main()
