// Reasoning trees (docs/schema.md section 2): root text, provenance, anchors and relations.
UNWIND $rows AS row
MATCH (t:Table {table_id: row.table_id})
MERGE (tree:Tree {tree_id: row.tree_id})
SET tree.root = row.root, tree.relations = row.relations, tree.n_anchors = size(row.anchors),
    tree.key_header = row.key_header, tree.table_id = row.table_id, tree.kind = row.kind,
    tree.kind_plural = row.kind_plural, tree.kind_source = row.kind_source,
    tree.selection = row.selection, tree.first_rows = row.first_rows, tree.stale_reason = null
MERGE (tree)-[:FROM_TABLE]->(t)
WITH tree, row
CALL (tree) {
  MATCH (tree)-[old:HAS_ANCHOR|HAS_RELATION]->()
  DELETE old
}
CALL (tree, row) {
  UNWIND row.anchors AS aid
  MATCH (a:Entity {entity_id: aid})
  MERGE (tree)-[:HAS_ANCHOR]->(a)
}
CALL (tree, row) {
  UNWIND row.relations AS name
  MERGE (r:Relation {name: name})
  MERGE (tree)-[:HAS_RELATION]->(r)
}
