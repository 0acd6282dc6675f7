MATCH (t:Task {task_id: $task_id})-[:BUILT_FROM]->(src)
OPTIONAL MATCH (src)-[:HAS_MEMBER]->(member:Tree)
WITH t, CASE WHEN src:Tree THEN [src] ELSE collect(member) END AS trees
UNWIND trees AS tree
MATCH (tree)-[:FROM_TABLE]->(tab:Table)
OPTIONAL MATCH (page:Page)-[:RENDERS]->(tab)
RETURN DISTINCT tree.tree_id AS tree_id, coalesce(tree.root, tab.title) AS root,
       coalesce(tree.relations, []) AS relations, tab.table_id AS table_id,
       coalesce(tab.title, '') AS table_title, coalesce(tab.section_title, '') AS section_title,
       coalesce(page.url, page.page_id, 'table:' + tab.table_id) AS table_url
ORDER BY tree_id
