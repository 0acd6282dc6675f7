// One page of rollouts for `browse --list` (policy, how it ended, filter verdict, pruned copy)
MATCH (r:Rollout)
WITH r ORDER BY coalesce(r.pruned, false), r.rollout_id
WITH collect(r) AS rollouts
UNWIND rollouts[$skip..$skip + $limit] AS r
RETURN size(rollouts) AS total, r.rollout_id AS rollout_id, r.termination AS termination,
       r.kept AS kept, coalesce(r.pruned, false) AS pruned, r.rounds AS rounds
