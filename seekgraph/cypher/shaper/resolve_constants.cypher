// Published constants → nodes of our graph: an entity by page id or exact name, else a value by
// its normalised text. One row per text that resolves (the first match by preference).
UNWIND $texts AS text
CALL (text) {
  MATCH (e:Entity {entity_id: '/wiki/' + replace(text, ' ', '_')})
  RETURN e.entity_id AS ref, 'Entity' AS label, 0 AS preference
  UNION
  MATCH (e:Entity {name: text})
  RETURN e.entity_id AS ref, 'Entity' AS label, 1 AS preference
  UNION
  MATCH (v:Value)
  WHERE v.kind IN ['year', 'date', 'number', 'text'] AND v.normalized = toLower(text)
  RETURN v.value_id AS ref, 'Value' AS label, 2 AS preference
}
WITH text, ref, label ORDER BY preference, ref
RETURN text, head(collect(ref)) AS ref, head(collect(label)) AS label
