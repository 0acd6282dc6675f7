// A task's answers (table view): question, gold records and the source rows proving each one
// A WebLeaper answer is proven by the rows of the task's own tables whose key cell is the
// entity; a KP answer by the rows of the tables its relations name (`relation@table_id`) with
// a cell holding the entity. Each cell comes with its column header.
MATCH (t:Task {task_id: $task_id})
OPTIONAL MATCH (t)-[:BUILT_FROM*1..3]->(:Tree)-[:FROM_TABLE]->(own:Table)
OPTIONAL MATCH (t)-[:HAS_TRIPLE]->(triple:Triple) WHERE triple.relation CONTAINS '@'
OPTIONAL MATCH (named:Table {table_id: split(triple.relation, '@')[1]})
WITH t, [x IN collect(DISTINCT own) + collect(DISTINCT named) WHERE x IS NOT NULL] AS tables
OPTIONAL MATCH (t)-[:TARGET {role: 'answer'}]->(answer)
WITH t, tables, [x IN collect(DISTINCT answer)
                 | {id: coalesce(x.entity_id, x.value_id), name: coalesce(x.name, x.text, '')}]
                 AS executed
CALL (t, tables) {
  UNWIND tables AS tab
  MATCH (tab)-[:HAS_ROW]->(row:Row)-[link:ANCHOR|HAS_CELL]->(e:Entity)
  WHERE (t.kind = 'shaper') = (type(link) = 'HAS_CELL')
  MATCH (row)-[c:HAS_CELL]->()
  OPTIONAL MATCH (col:Column {column_id: tab.table_id + '#' + toString(c.column)})
  WITH tab, row, e, c, col ORDER BY c.column
  WITH tab, row, e, collect(DISTINCT {column: c.column, header: coalesce(col.header, ''),
                                      text: c.text}) AS cells
  RETURN collect({entity_id: e.entity_id, table_id: tab.table_id, title: tab.title,
                  section: tab.section_title, row: row.index, cells: cells}) AS rows
}
RETURN t.task_id AS task_id, t.kind AS kind, t.variant AS variant, t.question AS question,
       t.answer_json AS answer_json, t.status AS status, executed, rows
