// Entity cells: the row points to the (shared) entity of each link the cell names. A linked
// entity's name comes from its id (the same whatever table mentions it); an unlinked one keeps
// the text it was first seen with. A single-link cell's differing text becomes an alias.
UNWIND $rows AS row
MATCH (r:Row {row_id: row.row_id})
MERGE (e:Entity {entity_id: row.entity_id})
ON CREATE SET e.name = row.name, e.linked = row.linked
SET e.name = CASE WHEN row.linked THEN row.name ELSE coalesce(e.name, row.name) END,
    e.linked = coalesce(e.linked, row.linked),
    e.aliases = CASE
      WHEN row.alias IS NULL OR row.alias IN coalesce(e.aliases, [])
        OR size(coalesce(e.aliases, [])) >= 10 THEN e.aliases
      ELSE coalesce(e.aliases, []) + row.alias END
MERGE (r)-[h:HAS_CELL {column: row.column}]->(e)
SET h.text = row.text
