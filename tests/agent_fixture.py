"""A tiny offline web and two tasks in the shape of docs/schema.md §1–3, for the agent tests.

Pages, entities and the table page look like what `seekgraph ingest` writes (a table page is
``table:<id>`` with the title, section and ``a | b | c`` rows); the WebLeaper task hangs off a
Tree built from the table, the WebShaper KP task off triples and constants.
"""

from __future__ import annotations

import json

import neo4j

LEAPER_TASK = "fixture:booker-basic"
SHAPER_TASK = "fixture:kp-golding"

PAGES = [
    (
        "/wiki/William_Golding",
        "William Golding",
        1911,
        "William Golding (1911–1993) was a British novelist from the United Kingdom. He wrote "
        "Lord of the Flies, a novel about a group of British boys stranded on an uninhabited "
        "island. Golding won the Booker Prize in 1980 for Rites of Passage.",
    ),
    (
        "/wiki/Salman_Rushdie",
        "Salman Rushdie",
        1947,
        "Salman Rushdie is a novelist born in Bombay. His nationality is United Kingdom. He won "
        "the Booker Prize in 1981 for Midnight's Children.",
    ),
    (
        "/wiki/J._M._Coetzee",
        "J. M. Coetzee",
        1940,
        "J. M. Coetzee is a novelist from South Africa. He won the Booker Prize in 1983 for Life "
        "& Times of Michael K and again in 1999.",
    ),
    (
        "/wiki/Nadine_Gordimer",
        "Nadine Gordimer",
        1923,
        "Nadine Gordimer was a writer from South Africa who won the Booker Prize in 1974.",
    ),
    (
        "/wiki/Booker_Prize",
        "Booker Prize",
        1969,
        "The Booker Prize is a literary prize awarded each year for the best novel written in "
        "English and published in the United Kingdom or Ireland.",
    ),
    (
        "/wiki/Lord_of_the_Flies",
        "Lord of the Flies",
        1954,
        "Lord of the Flies is a 1954 novel by William Golding about boys on an island.",
    ),
    (
        "/wiki/United_Kingdom",
        "United Kingdom",
        None,
        "The United Kingdom is a country in Europe. Its capital is London.",
    ),
    (
        "/wiki/South_Africa",
        "South Africa",
        None,
        "South Africa is a country at the southern tip of Africa.",
    ),
    (
        "/wiki/Photosynthesis",
        "Photosynthesis",
        None,
        "Photosynthesis is the process by which green plants turn light into chemical energy.",
    ),
]
LINKS = [
    ("/wiki/William_Golding", "/wiki/United_Kingdom"),
    ("/wiki/William_Golding", "/wiki/Booker_Prize"),
    ("/wiki/William_Golding", "/wiki/Lord_of_the_Flies"),
    ("/wiki/Salman_Rushdie", "/wiki/United_Kingdom"),
    ("/wiki/J._M._Coetzee", "/wiki/South_Africa"),
    ("/wiki/Nadine_Gordimer", "/wiki/South_Africa"),
    ("/wiki/Booker_Prize", "/wiki/United_Kingdom"),
    ("/wiki/Lord_of_the_Flies", "/wiki/William_Golding"),
    ("/wiki/South_Africa", "/wiki/Photosynthesis"),
]
TABLE_ID = "Booker_Prize_1"
TABLE_TEXT = (
    "Booker Prize\nWinners (selection)\nYear | Author | Title | Nationality\n"
    "1980 | William Golding | Rites of Passage | United Kingdom\n"
    "1981 | Salman Rushdie | Midnight's Children | United Kingdom\n"
    "1983 | J. M. Coetzee | Life & Times of Michael K | South Africa"
)
LEAPER_TARGETS = [
    ("/wiki/William_Golding", "answer"),
    ("/wiki/Salman_Rushdie", "answer"),
    ("/wiki/J._M._Coetzee", "answer"),
    ("/wiki/United_Kingdom", "attribute"),
    ("/wiki/South_Africa", "attribute"),
]
LEAPER_ANSWER = ["William Golding", "Salman Rushdie", "J. M. Coetzee"]


def load_fixture(driver: neo4j.Driver, database: str | None = None) -> None:
    """Write the fixture (MERGE, so loading twice changes nothing)."""

    def run(query: str, **params: object) -> None:
        driver.execute_query(query, params, database_=database)

    run(
        "UNWIND $rows AS row MERGE (p:Page {page_id: row.id}) "
        "SET p.title = row.title, p.text = row.text, p.year = row.year, p.url = '', "
        "p.source = 'default' "
        "MERGE (e:Entity {entity_id: row.id}) SET e.name = row.title "
        "MERGE (p)-[:ABOUT]->(e)",
        rows=[{"id": i, "title": t, "year": y, "text": x} for i, t, y, x in PAGES],
    )
    run(
        "UNWIND $rows AS row MATCH (a:Page {page_id: row[0]}), (b:Page {page_id: row[1]}) "
        "MERGE (a)-[:LINKS_TO]->(b)",
        rows=[list(pair) for pair in LINKS],
    )
    run("MATCH (e:Entity {entity_id: '/wiki/United_Kingdom'}) SET e.aliases = ['UK', 'Britain']")
    run(
        "MERGE (t:Table {table_id: $tid}) SET t.title = 'Booker Prize', "
        "t.section_title = 'Winners (selection)', t.status = 'kept' "
        "MERGE (p:Page {page_id: 'table:' + $tid}) SET p.title = 'Booker Prize', "
        "p.text = $text, p.source = 'table', p.url = 'https://en.wikipedia.org/wiki/Booker_Prize' "
        "MERGE (p)-[:RENDERS]->(t) "
        "MERGE (tr:Tree {tree_id: 'tree:' + $tid}) SET tr.root = 'Booker Prize winners', "
        "tr.relations = ['nationality'] MERGE (tr)-[:FROM_TABLE]->(t)",
        tid=TABLE_ID,
        text=TABLE_TEXT,
    )
    run(
        "MERGE (t:Task {task_id: $id}) SET t.kind = 'leaper', t.variant = 'basic', "
        "t.question = $q, t.answer_json = $a, t.status = 'kept', t.n_targets = 5, "
        "t.split = 'train' WITH t MATCH (tr:Tree {tree_id: 'tree:' + $tid}) "
        "MERGE (t)-[:BUILT_FROM]->(tr)",
        id=LEAPER_TASK,
        tid=TABLE_ID,
        a=json.dumps(LEAPER_ANSWER),
        q="Which authors won the Booker Prize in 1980, 1981 and 1983, and what is the "
        "nationality of each?",
    )
    run(
        "UNWIND $rows AS row MATCH (t:Task {task_id: $id}), (e:Entity {entity_id: row[0]}) "
        "MERGE (t)-[:TARGET {role: row[1]}]->(e)",
        id=LEAPER_TASK,
        rows=[list(r) for r in LEAPER_TARGETS],
    )
    run(
        "MERGE (t:Task {task_id: $id}) SET t.kind = 'shaper', t.variant = 'kp', "
        "t.question = $q, t.answer_json = $a, t.status = 'kept', t.n_targets = 1, "
        "t.split = 'train' "
        "WITH t MATCH (g:Entity {entity_id: '/wiki/William_Golding'}) "
        "MERGE (t)-[:TARGET {role: 'answer'}]->(g) "
        "MERGE (v:Variable {variable_id: $id + '/?'}) SET v.name = '?', v.is_target = true, "
        "v.layer = 0 MERGE (t)-[:HAS_VARIABLE]->(v) "
        "WITH t, v UNWIND $triples AS tr "
        "MERGE (x:Triple {triple_id: $id + '/' + tr.i}) SET x.relation = tr.r, "
        "x.index = tr.i, x.layer = 1 "
        "MERGE (t)-[:HAS_TRIPLE]->(x) MERGE (x)-[:SUBJECT]->(v) "
        "MERGE (c:Constant {constant_id: $id + '/' + tr.c}) SET c.text = tr.c, c.kind = 'entity' "
        "MERGE (x)-[:OBJECT]->(c) "
        "WITH c, tr MATCH (e:Entity {entity_id: tr.e}) MERGE (c)-[:DENOTES]->(e)",
        id=SHAPER_TASK,
        a=json.dumps(["William Golding"]),
        q="Which novelist won the Booker Prize in 1980 and wrote Lord of the Flies?",
        triples=[
            {"i": 0, "r": "award_won", "c": "Booker Prize", "e": "/wiki/Booker_Prize"},
            {"i": 1, "r": "notable_work", "c": "Lord of the Flies", "e": "/wiki/Lord_of_the_Flies"},
        ],
    )
