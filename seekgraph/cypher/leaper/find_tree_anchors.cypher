// Trees with their table, root, kind, key header, anchors (id and name), the table's own
// header text for each relation (questions name attributes as the table does) and all its
// column headers in order and the key of its first row, by its entity's name when the cell holds
// it ("Otto Ruge" of "Ruge, Otto Major General Otto Ruge"), else by the cell's text (a table
// without a section is named by them).
UNWIND $tree_ids AS tid
MATCH (tree:Tree {tree_id: tid})-[:FROM_TABLE]->(t:Table)
CALL (t) {
  OPTIONAL MATCH (t)-[:HAS_COLUMN]->(c:Column)
  WHERE c.relation IS NOT NULL AND c.header IS NOT NULL
  WITH c ORDER BY c.index
  RETURN collect(CASE WHEN c IS NULL THEN null ELSE {relation: c.relation, header: c.header} END) AS headers
}
CALL (t) {
  OPTIONAL MATCH (t)-[:HAS_COLUMN]->(c:Column)
  WITH c ORDER BY c.index
  RETURN collect(c.header) AS columns
}
CALL (t) {
  OPTIONAL MATCH (t)-[:HAS_ROW]->(r:Row)-[:ANCHOR]->(e:Entity)<-[h:HAS_CELL]-(r)
  WITH r, h, e ORDER BY r.index, h.column
  RETURN head(collect(CASE WHEN e.name IS NOT NULL AND toLower(h.text) CONTAINS toLower(e.name) THEN e.name ELSE h.text END)) AS first_row
}
OPTIONAL MATCH (tree)-[:HAS_ANCHOR]->(a:Entity)
WITH tree, t, headers, columns, first_row, a ORDER BY a.entity_id
RETURN tree.tree_id AS tree_id, t.table_id AS table_id, tree.root AS root,
       t.title AS title, t.section_title AS section_title,
       tree.key_header AS key_header, tree.kind AS kind, tree.kind_plural AS kind_plural,
       tree.kind_source AS kind_source, tree.selection AS selection,
       tree.first_rows AS first_rows,
       tree.relations AS relations, headers, columns, first_row,
       collect({id: a.entity_id, name: coalesce(a.name, a.entity_id)}) AS anchors
ORDER BY tree_id
