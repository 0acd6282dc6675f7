// Every kept task with its sources, which decide its held-out split (`seekgraph.synth.split`):
// the tables of its trees (through a Biclique, or the Union task a Reverse-Union task is built
// from), the tables its KP triples name (`relation@table_id`), and a KP task's pages (`urls`).
MATCH (t:Task {status: 'kept'})
OPTIONAL MATCH (t)-[:BUILT_FROM|HAS_MEMBER*1..4]->(:Tree)-[:FROM_TABLE]->(tab:Table)
WITH t, collect(DISTINCT tab.table_id) AS tree_tables
OPTIONAL MATCH (t)-[:HAS_TRIPLE]->(tr:Triple)
  WHERE tr.relation CONTAINS '@'
WITH t, tree_tables, collect(DISTINCT split(tr.relation, '@')[1]) AS triple_tables
RETURN t.task_id AS task_id, t.kind AS kind, t.variant AS variant, t.split AS split,
       tree_tables + [x IN triple_tables WHERE NOT x IN tree_tables] AS tables,
       coalesce(t.urls, []) AS pages
ORDER BY task_id
