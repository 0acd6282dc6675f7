// The tables a task's facts come from, with how a question names them and whether the offline
// web serves the table as a page (a hop a reader cannot open is not a hop).
UNWIND $table_ids AS tid
OPTIONAL MATCH (t:Table {table_id: tid})
OPTIONAL MATCH (p:Page {page_id: 'table:' + tid})
RETURN tid AS table_id, t.title AS title, t.section_title AS section, p IS NOT NULL AS served
