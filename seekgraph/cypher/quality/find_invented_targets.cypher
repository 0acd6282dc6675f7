// Kept tasks with a target entity whose id is neither a Wikipedia page (/wiki/...) nor an
// explicitly unlinked mention (unlinked:...), or a /wiki/ id the ingest never saw linked.
MATCH (t:Task {status: 'kept'})-[:TARGET]->(e:Entity)
WHERE NOT (e.entity_id STARTS WITH '/wiki/' OR e.entity_id STARTS WITH 'unlinked:')
   OR (e.entity_id STARTS WITH '/wiki/' AND e.linked = false)
RETURN t.task_id AS task_id, min(e.entity_id) AS detail
ORDER BY task_id
