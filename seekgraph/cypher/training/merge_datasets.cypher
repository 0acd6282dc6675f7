UNWIND $rows AS row
MERGE (d:Dataset {dataset_id: row.dataset_id})
SET d.name = row.name, d.mix = row.mix, d.spec_json = row.spec_json, d.path = row.path,
    d.n_examples = row.n_examples, d.card = row.card, d.jsonl_sha256 = row.jsonl_sha256,
    d.built_at = coalesce(d.built_at, datetime())
