// Trees with their table, root, key header and anchors (id and name).
UNWIND $tree_ids AS tid
MATCH (tree:Tree {tree_id: tid})-[:FROM_TABLE]->(t:Table)
OPTIONAL MATCH (tree)-[:HAS_ANCHOR]->(a:Entity)
WITH tree, t, a ORDER BY a.entity_id
RETURN tree.tree_id AS tree_id, t.table_id AS table_id, tree.root AS root,
       tree.key_header AS key_header, tree.relations AS relations,
       collect({id: a.entity_id, name: coalesce(a.name, a.entity_id)}) AS anchors
