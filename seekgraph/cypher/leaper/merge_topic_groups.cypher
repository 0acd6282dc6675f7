// Topic groups of the Union stage: trees whose roots are related, the unit of the biclique
// search. `status` is 'searching' while its bicliques and tasks are written, then 'searched'
// (or 'too_many_bicliques'); a resumed run skips finished groups.
UNWIND $rows AS row
MERGE (g:TopicGroup {group_id: row.group_id})
SET g.trees = row.trees, g.size = size(row.trees), g.threshold = row.threshold,
    g.status = row.status, g.n_bicliques = row.n_bicliques, g.updated_at = datetime()
WITH g, row
CALL (g, row) {
  UNWIND row.trees AS tid
  MATCH (t:Tree {tree_id: tid})
  MERGE (g)-[:HAS_MEMBER]->(t)
}
