// Record the topic grouping of the Union stage's inputs (keyed by their digest). Groupings of
// earlier inputs are removed: only the current trees' grouping can be reused.
MATCH (old:TopicGrouping) WHERE old.digest <> $digest
DETACH DELETE old
WITH count(*) AS removed
MERGE (g:TopicGrouping {digest: $digest})
SET g.groups_json = $groups_json, g.too_large_json = $too_large_json
