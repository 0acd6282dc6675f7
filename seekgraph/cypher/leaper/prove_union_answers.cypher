// Recompute a Union task from the source rows: the entities anchoring a row in every table of
// the biclique (an unlinked name only within one article or one series of articles,
// `one_series`: two articles' "St Wilfrid's Church" are two churches; and never when two of
// the tables give it different places, $places: two lakes "Fish Lake" in two regions), whether
// every table really states every shared relation, and the answers' values, from those
// tables, of the shared relations the question asks for (`asked`).
UNWIND $tasks AS task
CALL (task) {
  MATCH (t:Table) WHERE t.table_id IN task.table_ids
  WITH count(DISTINCT t.title) AS titles
  RETURN titles = 1 OR coalesce(task.one_series, false) AS one_article
}
CALL (task, one_article) {
  UNWIND task.table_ids AS tid
  MATCH (:Table {table_id: tid})-[:HAS_ROW]->(:Row)-[:ANCHOR]->(a:Entity)
  WITH a, count(DISTINCT tid) AS n
  WHERE n = size(task.table_ids) AND (coalesce(a.linked, true) OR one_article)
  AND (coalesce(a.linked, true) OR NOT EXISTS {
    MATCH (a)-[f1:FACT]->(v1)
    WHERE f1.relation IN $places AND f1.relation IN task.relations
      AND f1.table_id IN task.table_ids
    MATCH (a)-[f2:FACT {relation: f1.relation}]->()
    WHERE f2.table_id IN task.table_ids AND f2.table_id > f1.table_id
    AND NOT EXISTS {
      MATCH (a)-[f3:FACT {relation: f1.relation, table_id: f2.table_id}]->(v1)
    }
  })
  RETURN collect(a.entity_id) AS answers
}
CALL (task) {
  UNWIND task.table_ids AS tid
  UNWIND task.relations AS rel
  WITH tid, rel, EXISTS {
    MATCH (:Table {table_id: tid})-[:HAS_ROW]->(:Row)-[:ANCHOR]->(:Entity)-[f:FACT {relation: rel}]->()
    WHERE f.table_id = tid
  } AS stated
  RETURN all(x IN collect(stated) WHERE x) AS shares
}
CALL (task, answers) {
  UNWIND answers AS aid
  MATCH (:Entity {entity_id: aid})-[f:FACT]->(v)
  WHERE f.table_id IN task.table_ids AND f.relation IN task.asked
  RETURN collect(DISTINCT coalesce(v.entity_id, v.value_id)) AS attributes
}
RETURN task.task_id AS task_id, answers, shares, attributes
