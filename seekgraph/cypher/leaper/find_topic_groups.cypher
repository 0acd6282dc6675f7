// Topic groups of the Union stage with their trees, largest first (for audits and benches).
MATCH (g:TopicGroup)
RETURN g.group_id AS group_id, g.trees AS trees, g.threshold AS threshold, g.status AS status,
       g.n_bicliques AS n_bicliques
ORDER BY size(g.trees) DESC, g.group_id
