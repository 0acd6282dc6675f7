// WebLeaper task (focused, at most 40 nodes): the trees its question names, their tables, the first five answers with the facts the question asks for, pivot and clues; show_task_answers lists every answer
// Bounded by construction: 1 task + 3 trees + 3 tables + 5 answers + 5 x 4 facts + 1 pivot
// + at most 3 clues = 36 nodes (seekgraph viz task draws the whole picture).
MATCH (t:Task {task_id: $task_id})
OPTIONAL MATCH (t)-[:BUILT_FROM]->(direct:Tree)
OPTIONAL MATCH (t)-[:BUILT_FROM]->(own:Biclique)
OPTIONAL MATCH (t)-[:BUILT_FROM]->(:Task)-[:BUILT_FROM]->(parent:Biclique)
WITH t, collect(DISTINCT direct) AS direct,
     head(collect(DISTINCT own) + collect(DISTINCT parent)) AS b
OPTIONAL MATCH (b)-[:HAS_MEMBER]->(member:Tree)
WITH t, b, direct, collect(DISTINCT member) AS members
WITH t, b, CASE WHEN size(direct) > 0 THEN direct ELSE members END AS trees
WITH t, b, trees[..3] AS trees
WITH t, b, trees, [(t)-[:TARGET {role: 'answer'}]->(a) | a] AS answers
WITH t, b, trees,
     CASE WHEN size(answers) > 0 THEN answers
          ELSE [(t)-[:TARGET {role: 'anchor'}]->(a) | a] END AS answers
CALL (answers) {
  UNWIND answers AS a
  WITH a ORDER BY coalesce(a.name, a.text), coalesce(a.entity_id, a.value_id)
  RETURN collect(a)[..5] AS first
}
WITH t, b, trees, first AS answers
CALL (t, b, trees, answers) {
  UNWIND trees AS tree
  MATCH p = (t)-[:BUILT_FROM]->(tree)-[:FROM_TABLE]->(:Table)
  RETURN p
  UNION
  MATCH p = (t)-[:PIVOT]->()
  RETURN p
  UNION
  MATCH p = (t)-[:CLUE]->()
  WITH p LIMIT 3
  RETURN p
  UNION
  UNWIND answers AS x
  MATCH p = (t)-[:TARGET]->(x)
  RETURN p
  UNION
  UNWIND answers AS x
  CALL (x, b, trees) {
    UNWIND trees AS tree
    MATCH (tree)-[:HAS_ANCHOR]->(x)-[fact:FACT]->(v:Entity|Value)
    WHERE fact.table_id = tree.table_id
      AND fact.relation IN coalesce(b.relations, tree.relations, [fact.relation])
    WITH tree, x, fact, v ORDER BY fact.relation, coalesce(v.name, v.text)
    LIMIT 4
    MATCH p = (tree)-[:HAS_ANCHOR]->(x)-[fact]->(v)
    RETURN p
  }
  RETURN p
}
RETURN p
