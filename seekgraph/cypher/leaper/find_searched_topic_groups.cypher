// Topic groups whose biclique search already finished (a resumed Union stage skips them).
UNWIND $group_ids AS gid
MATCH (g:TopicGroup {group_id: gid})
WHERE g.status IN ['searched', 'too_many_bicliques']
RETURN g.group_id AS group_id, g.status AS status, g.n_bicliques AS n_bicliques
