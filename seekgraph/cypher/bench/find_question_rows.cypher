// Tables for the search benchmark's questions: each table's page, title and section, its key
// column, its column headers, and every row's cells (text, and the page of a linked entity).
UNWIND $table_ids AS tid
MATCH (page:Page)-[:RENDERS]->(t:Table {table_id: tid})
CALL (t) {
  MATCH (t)-[:HAS_COLUMN]->(c:Column)
  WITH c ORDER BY c.index
  RETURN collect(coalesce(c.header, '')) AS headers
}
CALL (t) {
  MATCH (t)-[:HAS_ROW]->(r:Row)
  CALL (r) {
    MATCH (r)-[h:HAS_CELL]->(x)
    OPTIONAL MATCH (p:Page)-[:ABOUT]->(x)
    WITH h, p ORDER BY h.column, p.page_id
    RETURN collect({column: h.column, text: h.text, page: p.page_id}) AS cells
  }
  WITH r, cells ORDER BY r.index
  RETURN collect(cells) AS rows
}
RETURN tid AS table_id, page.page_id AS table_page, t.title AS title,
       coalesce(t.section_title, '') AS section, t.key_column AS key_column, headers, rows
ORDER BY table_id
