// Kept tasks with a target entity that is a table's summary or placeholder row ("Total",
// "Average", "-", "None selected"): unlinked entities whose name is a placeholder, starts with
// a placeholder word, or is a short phrase starting with a summary word.
MATCH (t:Task {status: 'kept'})-[:TARGET]->(e:Entity)
WHERE coalesce(e.linked, true) = false
WITH t, e, [w IN split(toLower(trim(coalesce(e.name, ''))), ' ') WHERE w <> ''] AS words
WHERE size(words) = 0 OR (size(words) = 1 AND words[0] IN $blank)
   OR words[0] IN $placeholder_starts
   OR (replace(words[0], ':', '') IN $summary AND size(words) <= 3)
   OR (words[0] = 'grand' AND size(words) > 1 AND replace(words[1], ':', '') IN ['total', 'totals'])
RETURN t.task_id AS task_id, min(e.entity_id) AS detail
ORDER BY task_id
