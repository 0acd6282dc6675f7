// A stored state graph as plain edge lists, for the search in training.stategraph.mindag.
UNWIND $graph_ids AS gid
MATCH (g:StateGraph {graph_id: gid})
RETURN gid AS graph_id, g.extractor AS extractor, g.run AS run, g.granularity AS granularity,
       COUNT { (g)-[:HAS_NODE]->(:Action) } AS n_actions,
       COLLECT { MATCH (g)-[:HAS_NODE]->(a:Action)-[:PRODUCES]->(i:Information)
                 RETURN [toString(a.index), i.key] } AS produces,
       COLLECT { MATCH (g)-[:HAS_NODE]->(a:Action)<-[:ENABLES]-(i:Information)
                 RETURN [toString(a.index), i.key] } AS enables
