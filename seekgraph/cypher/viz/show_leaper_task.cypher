// A WebLeaper task's picture: the trees its question names and their tables, every anchor of
// those trees, the answers (gold records) with the facts the question asks for in those tables,
// the biclique's shared relations, the pivot and the clues
MATCH (t:Task {task_id: $task_id})
OPTIONAL MATCH (t)-[:BUILT_FROM]->(direct:Tree)
OPTIONAL MATCH (t)-[:BUILT_FROM]->(own:Biclique)
OPTIONAL MATCH (t)-[:BUILT_FROM]->(:Task)-[:BUILT_FROM]->(parent:Biclique)
WITH t, collect(DISTINCT direct) AS direct,
     head(collect(DISTINCT own) + collect(DISTINCT parent)) AS b
OPTIONAL MATCH (b)-[:HAS_MEMBER]->(member:Tree)
WITH t, b, direct, collect(DISTINCT member) AS members
// a task names its own trees; only a task without them falls back on its biclique's members
WITH t, b, CASE WHEN size(direct) > 0 THEN direct ELSE members END AS trees
WITH t, b, trees, [(t)-[:TARGET {role: 'answer'}]->(a) | a] AS answers
// a Basic task's answers are its anchors (it has no 'answer' role)
WITH t, b, trees,
     CASE WHEN size(answers) > 0 THEN answers
          ELSE [(t)-[:TARGET {role: 'anchor'}]->(a) | a] END AS answers
CALL (t, b, trees, answers) {
  MATCH p = (t)
  RETURN p
  UNION
  MATCH p = (t)-[:BUILT_FROM]->(:Biclique|Task)
  RETURN p
  UNION
  UNWIND trees AS tree
  MATCH p = (t)-[:BUILT_FROM]->(tree)-[:FROM_TABLE]->(:Table)
  RETURN p
  UNION
  UNWIND trees AS tree
  MATCH p = (b)-[:HAS_MEMBER]->(tree)
  RETURN p
  UNION
  MATCH p = (b)-[:SHARES]->(:Relation)
  RETURN p
  UNION
  MATCH p = (t)-[:PIVOT|CLUE]->()
  RETURN p
  UNION
  UNWIND answers AS x
  MATCH p = (t)-[:TARGET]->(x)
  RETURN p
  UNION
  UNWIND trees AS tree
  MATCH p = (tree)-[:HAS_ANCHOR]->(:Entity)
  RETURN p
  UNION
  UNWIND trees AS tree
  UNWIND answers AS x
  MATCH p = (tree)-[:HAS_ANCHOR]->(x)-[fact:FACT]->(:Entity|Value)
  WHERE fact.table_id = tree.table_id
    AND fact.relation IN coalesce(b.relations, tree.relations, [fact.relation])
  RETURN p
}
RETURN p
