// The topic grouping recorded for inputs with this digest (trees, roots, anchors, settings):
// a re-run of the Union stage over unchanged trees reads it instead of embedding every root.
MATCH (g:TopicGrouping {digest: $digest})
RETURN g.groups_json AS groups_json, g.too_large_json AS too_large_json
