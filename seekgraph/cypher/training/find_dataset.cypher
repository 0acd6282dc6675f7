// A dataset by id or by name (the most recently built one of that name).
MATCH (d:Dataset)
WHERE d.dataset_id = $key OR d.name = $key
RETURN d.dataset_id AS dataset_id, d.name AS name, d.path AS path, d.n_examples AS n_examples,
       d.jsonl_sha256 AS jsonl_sha256, d.mix AS mix
ORDER BY d.built_at DESC
LIMIT 1
