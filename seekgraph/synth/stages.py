"""The synthesis stages, as `seekgraph.graphdb.stages.Stage` objects the CLI and the pipeline both run.

ingest → relations → leaper-trees → leaper-basic → leaper-union → leaper-reverse →
shaper-seeds → shaper-expand → quality (and, on request, shaper-import of published WebShaper
rows).
Each work function adapts its config to the library call and shows progress.
"""

from __future__ import annotations

from seekgraph.common.llm.base import LLMBackend
from seekgraph.graphdb.stages import Stage, StageContext, StageReport
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.stage import run_ingest
from seekgraph.synth.leaper.common import LeaperConfig
from seekgraph.synth.quality import QualityConfig
from seekgraph.synth.relations import RelationsConfig
from seekgraph.synth.shaper.config import ShaperConfig


def _backend(spec: str) -> LLMBackend | None:
    if not spec:
        return None
    from seekgraph.common.llm.registry import load_backend

    return load_backend(spec)


def run_relations(ctx: StageContext, config: RelationsConfig) -> StageReport:
    """Human mappings first (never overwritten), then rules + MiniLM for every other header."""
    from seekgraph.synth.relations import normalise_relations, set_human_mapping

    for assignment in config.set:
        mapping = set_human_mapping(ctx.driver, assignment, ctx.database)
        ctx.echo(f"set {mapping.key!r} -> {mapping.relation} (human)")
    return normalise_relations(
        ctx.driver, ctx.database, threshold=config.threshold, use_embeddings=config.embeddings
    )


def run_leaper_trees(ctx: StageContext, config: LeaperConfig) -> StageReport:
    from seekgraph.graphdb import cypher
    from seekgraph.synth.leaper.trees import build_trees

    total = len(cypher.read(ctx.driver, "leaper/find_tree_sources", database=ctx.database))
    with ctx.progress("leaper trees", total) as bar:
        return build_trees(ctx.driver, ctx.database, config, bar.update)


def _n_trees(ctx: StageContext) -> int:
    from seekgraph.graphdb import cypher

    return len(cypher.read(ctx.driver, "leaper/find_trees", database=ctx.database))


def run_leaper_basic(ctx: StageContext, config: LeaperConfig) -> StageReport:
    from seekgraph.synth.leaper.tasks_basic import build_basic_tasks

    backend = _backend(config.paraphrase_with)
    with ctx.progress("basic tasks (trees)", _n_trees(ctx)) as bar:
        return build_basic_tasks(ctx.driver, ctx.database, config, backend, bar.update)


def run_leaper_union(ctx: StageContext, config: LeaperConfig) -> StageReport:
    from seekgraph.synth.leaper.tasks_union import build_union_tasks

    backend = _backend(config.paraphrase_with)
    with ctx.progress("union tasks (trees)", _n_trees(ctx)) as bar:
        return build_union_tasks(ctx.driver, ctx.database, config, backend, bar.update)


def run_leaper_reverse(ctx: StageContext, config: LeaperConfig) -> StageReport:
    """Reverse-Union tasks, then every kept WebLeaper task exported to `<out>/leaper_tasks.jsonl`."""
    from seekgraph.graphdb import cypher
    from seekgraph.synth.leaper.export import export_tasks
    from seekgraph.synth.leaper.tasks_reverse import build_reverse_tasks

    backend = _backend(config.paraphrase_with)
    unions = cypher.read(
        ctx.driver, "leaper/find_leaper_tasks", database=ctx.database, variants=["union"]
    )
    with ctx.progress("reverse-union tasks (unions)", len(unions)) as bar:
        report = build_reverse_tasks(ctx.driver, ctx.database, config, backend, bar.update)
    path = ctx.out_dir / "leaper_tasks.jsonl"
    report.notes["exported"] = f"{export_tasks(ctx.driver, ctx.database, path)} tasks to {path}"
    return report


def run_shaper_import(ctx: StageContext, config: ShaperConfig) -> StageReport:
    from seekgraph.graphdb.errors import StageError
    from seekgraph.synth.shaper.stages import import_published

    if config.published is None or not config.published.is_file():
        raise StageError(
            f"shaper-import needs a published WebShaper JSONL file, got {config.published}",
            hint="set --published FILE or [shaper] published",
        )
    return import_published(ctx.driver, ctx.database, config.published)


def run_shaper_seeds(ctx: StageContext, config: ShaperConfig) -> StageReport:
    from seekgraph.synth.shaper.seeds import make_seeds

    with ctx.progress("shaper seeds (walks)", config.n_seeds) as bar:
        return make_seeds(ctx.driver, ctx.database, config, on_progress=bar.update)


def run_shaper_expand(ctx: StageContext, config: ShaperConfig) -> StageReport:
    """Layer-wise expansion (optionally paraphrased); then all KP tasks exported as JSONL."""
    from seekgraph.synth.shaper.expand import expand_tasks
    from seekgraph.synth.shaper.stages import export_tasks, paraphrase_tasks

    with ctx.progress("shaper expand (tasks)") as bar:
        report = expand_tasks(ctx.driver, ctx.database, config, on_progress=bar.update)
    backend = _backend(config.paraphrase_with)
    if backend is not None:
        paraphrased = paraphrase_tasks(ctx.driver, ctx.database, backend)
        report.notes["paraphrased"] = f"{paraphrased.kept} kept, {paraphrased.rejected} failed"
    path = ctx.out_dir / "shaper_tasks.jsonl"
    n = export_tasks(ctx.driver, ctx.database, path)
    report.notes["exported"] = f"{n} tasks -> {path}"
    return report


def run_quality(ctx: StageContext, config: QualityConfig) -> StageReport:
    """The gate, then the kept tasks of both kinds exported again (the gate may reject some)."""
    from seekgraph.synth.leaper.export import export_tasks
    from seekgraph.synth.quality import run_quality as gate
    from seekgraph.synth.shaper.stages import export_tasks as export_kp

    with ctx.progress("quality checks", 6) as bar:
        report = gate(ctx.driver, ctx.database, config, bar.update)
    leaper = ctx.out_dir / "leaper_tasks.jsonl"
    shaper = ctx.out_dir / "shaper_tasks.jsonl"
    n_leaper = export_tasks(ctx.driver, ctx.database, leaper)
    n_shaper = export_kp(ctx.driver, ctx.database, shaper)
    report.notes["exported"] = f"{n_leaper} tasks to {leaper}, {n_shaper} to {shaper}"
    return report


INGEST = Stage(
    "ingest",
    "tables (JSONL, CSV, HTML) and pages of a data folder into the graph",
    IngestConfig,
    "ingest",
    run_ingest,
    locks_graph=True,
)
RELATIONS = Stage(
    "relations",
    "header -> canonical relation names (human mappings, rules, MiniLM); FACT edges renamed",
    RelationsConfig,
    "relations",
    run_relations,
    locks_graph=True,
)
LEAPER_TREES = Stage(
    "leaper-trees",
    "WebLeaper reasoning trees: root, anchors, relations per kept table",
    LeaperConfig,
    "leaper",
    run_leaper_trees,
    locks_graph=True,
)
LEAPER_BASIC = Stage(
    "leaper-basic",
    "Basic tasks (one tree), target sets proven from the source rows",
    LeaperConfig,
    "leaper",
    run_leaper_basic,
)
LEAPER_UNION = Stage(
    "leaper-union",
    "maximal bicliques of trees x relations (Cypher-driven), Union tasks proven",
    LeaperConfig,
    "leaper",
    run_leaper_union,
)
LEAPER_REVERSE = Stage(
    "leaper-reverse",
    "Reverse-Union tasks: unique clues, pivot, proven answers; export JSONL",
    LeaperConfig,
    "leaper",
    run_leaper_reverse,
)
SHAPER_IMPORT = Stage(
    "shaper-import",
    "published WebShaper rows {id, question, answer, formalization, urls}, executed",
    ShaperConfig,
    "shaper",
    run_shaper_import,
    optional=True,
)
SHAPER_SEEDS = Stage(
    "shaper-seeds",
    "WebShaper seed tasks: random walks over page links and facts, answers executed",
    ShaperConfig,
    "shaper",
    run_shaper_seeds,
)
SHAPER_EXPAND = Stage(
    "shaper-expand",
    "WebShaper layer-wise expansion validated by queries (consistency, shortcut, redundancy)",
    ShaperConfig,
    "shaper",
    run_shaper_expand,
)
QUALITY = Stage(
    "quality",
    "the quality gate: summary-row answers, invented ids, duplicate questions, absent "
    "attributes, circular, single-lookup and further-expanded KP tasks, KP chains through a "
    "page link or a column of kinds, KP answers read off the clue's own row, KP chains within "
    "one article, more than two KP tasks over one set of tables, selections asked as full "
    "lists, kinds the answers are not, header debris, keys that are records, split cells, "
    "values of other pages, merged rows, names run together, tables a question cannot tell "
    "apart, tasks over held-out and train tables (split_leak) rejected; the held-out split set "
    "by source tables; kept tasks exported",
    QualityConfig,
    "quality",
    run_quality,
)
