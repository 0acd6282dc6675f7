// WebLeaper task: its reasoning tree(s), source tables, anchors and attributes, targets (R), pivot and clues
MATCH (t:Task {task_id: $task_id})
OPTIONAL MATCH (t)-[:BUILT_FROM]->(:Biclique)-[:HAS_MEMBER]->(member:Tree)
OPTIONAL MATCH (t)-[:BUILT_FROM]->(direct:Tree)
WITH t, [x IN collect(DISTINCT member) + collect(DISTINCT direct) WHERE x IS NOT NULL] AS trees
CALL (t, trees) {
  MATCH p = (t)-[:BUILT_FROM]->(:Tree|Biclique|Task)
  RETURN p
  UNION
  MATCH p = (t)-[:BUILT_FROM]->(:Biclique)-[:HAS_MEMBER|SHARES]->()
  RETURN p
  UNION
  MATCH p = (t)-[:TARGET|PIVOT|CLUE]->()
  RETURN p
  UNION
  UNWIND trees AS tree
  MATCH p = (tree)-[:FROM_TABLE]->(:Table)
  RETURN p
  UNION
  UNWIND trees AS tree
  MATCH p = (tree)-[:HAS_ANCHOR]->(:Entity)
  RETURN p
  UNION
  UNWIND trees AS tree
  MATCH (tree)-[:FROM_TABLE]->(table:Table)
  MATCH p = (tree)-[:HAS_ANCHOR]->(:Entity)-[fact:FACT]->(:Entity|Value)
  WHERE fact.table_id = table.table_id
    AND (tree.relations IS NULL OR fact.relation IN tree.relations)
  RETURN p
}
RETURN p
LIMIT 2000
