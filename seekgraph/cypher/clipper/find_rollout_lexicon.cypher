// The entities, values and pages a rollout can mention: its task's targets, pivots and clues,
// their facts, the pages its steps saw and what those pages describe or mention. Ordered: the
// lexicon keeps the first of two same-named keys, so the order decides the state graph: the
// reader sorts each rollout's entries by kind and key. One row per rollout: a record per entry
// cost the reader more than the query.
UNWIND $rollout_ids AS rid
MATCH (r:Rollout {rollout_id: rid})
CALL (r) {
  MATCH (r)-[:FOR_TASK]->(:Task)-[:TARGET|PIVOT|CLUE]->(x)
  RETURN x
  UNION
  MATCH (r)-[:FOR_TASK]->(:Task)-[:TARGET|PIVOT|CLUE]->(:Entity)-[:FACT]-(x)
  RETURN x
  UNION
  MATCH (r)-[:HAS_STEP]->(:Step)-[:SAW]->(x:Page)
  RETURN x
  UNION
  MATCH (r)-[:HAS_STEP]->(:Step)-[:SAW]->(:Page)-[:ABOUT|MENTIONS]->(x)
  RETURN x
}
WITH rid, x WHERE x:Entity OR x:Value OR x:Page
WITH rid, coalesce(x.entity_id, x.value_id, x.page_id) AS key,
     [n IN [x.name, x.text, x.title, x.url] + coalesce(x.aliases, [])
      WHERE n IS NOT NULL AND size(n) <= 200] AS names,
     CASE WHEN x:Entity THEN 'entity' WHEN x:Value THEN 'value' ELSE 'page' END AS kind
RETURN rid AS rollout_id, collect({key: key, names: names, kind: kind}) AS entries
ORDER BY rollout_id
