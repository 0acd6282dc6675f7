MATCH (t:Task {task_id: $task_id})-[:BUILT_FROM]->(src)
CALL (src) {
  MATCH (src:Tree) RETURN src AS tree
  UNION
  MATCH (src:Biclique)-[:HAS_MEMBER]->(tree:Tree) RETURN tree
}
MATCH (tree)-[:FROM_TABLE]->(tab:Table)
OPTIONAL MATCH (page:Page)-[:RENDERS]->(tab)
RETURN DISTINCT tree.tree_id AS tree_id, coalesce(tree.root, tab.title) AS root,
       coalesce(tree.relations, []) AS relations, tab.table_id AS table_id,
       coalesce(tab.title, '') AS table_title, coalesce(tab.section_title, '') AS section_title,
       coalesce(page.page_id, 'table:' + tab.table_id) AS table_url
ORDER BY tree_id
