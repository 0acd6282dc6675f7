// WebLeaper task: its reasoning tree(s), source tables, anchors and attributes, targets (R), pivot and clues
// (a union or reverse-union task shows only the relations its biclique's trees share)
MATCH (t:Task {task_id: $task_id})
OPTIONAL MATCH (t)-[:BUILT_FROM]->(own:Biclique)
OPTIONAL MATCH (t)-[:BUILT_FROM]->(:Task)-[:BUILT_FROM]->(parent:Biclique)
WITH t, coalesce(head(collect(DISTINCT own)), head(collect(DISTINCT parent))) AS b
OPTIONAL MATCH (b)-[:HAS_MEMBER]->(member:Tree)
OPTIONAL MATCH (t)-[:BUILT_FROM]->(direct:Tree)
WITH t, b,
     [x IN collect(DISTINCT member) + collect(DISTINCT direct) WHERE x IS NOT NULL] AS trees
CALL (t, b, trees) {
  MATCH p = (t)-[:BUILT_FROM]->(:Tree|Biclique|Task)
  RETURN p
  UNION
  MATCH p = (t)-[:BUILT_FROM]->(:Task)-[:BUILT_FROM]->(:Biclique)
  RETURN p
  UNION
  MATCH p = (b)-[:HAS_MEMBER|SHARES]->()
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
    AND fact.relation IN coalesce(b.relations, tree.relations, [fact.relation])
  RETURN p
}
RETURN p
LIMIT 2000
