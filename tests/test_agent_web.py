"""The offline web: search and visit in the Tongyi format, embeddings, the tool cache."""

from __future__ import annotations

from collections.abc import Sequence

import neo4j
import pytest

from seekgraph.agent.config import ToolSettings
from seekgraph.agent.errors import AgentError
from seekgraph.agent.policies import make_tools
from seekgraph.agent.web.index import build_embeddings, embedding_counts, page_embedders
from seekgraph.agent.web.search_query import fulltext_query, lucene_query
from seekgraph.agent.web.tools import RANKING_VERSION, WebTools, extract_evidence, page_key
from seekgraph.agent.web.wrappers import CachedTools
from seekgraph.common.embeddings import EMBEDDER_NAME, Embedder, EmbedderError, embedder_name
from seekgraph.graphdb import cypher
from tests.agent_fixture import PAGES, load_fixture


@pytest.fixture
def web(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    load_fixture(clean_db, database)
    return clean_db


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def test_search_ranks_the_matching_page_first_in_tongyi_format(web, database) -> None:
    tools = WebTools(web, database, top_k=3)
    obs = tools.call("search", {"query": "Lord of the Flies novel"})
    assert obs.error is None
    assert obs.text.startswith("A Google search for 'Lord of the Flies novel' found")
    assert "## Web Results\n1. [Lord of the Flies](/wiki/Lord_of_the_Flies)" in obs.text
    assert obs.pages[0] == "/wiki/Lord_of_the_Flies"
    assert len(obs.pages) <= 3


def test_search_takes_a_list_of_queries_and_filter_year(web, database) -> None:
    tools = WebTools(web, database, top_k=5)
    obs = tools.call("search", {"query": ["Booker Prize novelist", "photosynthesis"]})
    assert obs.text.count("A Google search for") == 2
    assert "\n=======\n" in obs.text
    assert "/wiki/Photosynthesis" in obs.pages
    by_year = tools.call("search", {"query": "Booker Prize novelist", "filter_year": 1947})
    assert by_year.pages == ("/wiki/Salman_Rushdie",)
    as_text = tools.call("search", {"query": "Booker Prize", "filter_year": "1947"})
    assert as_text.pages == ("/wiki/Salman_Rushdie",)


def test_the_page_holding_the_query_as_a_phrase_ranks_first(web, database) -> None:
    # the decoy repeats every word of the query in its short title, so by the bag of words
    # alone it outranks the page that holds the words in order
    web.execute_query(
        "UNWIND $rows AS row MERGE (p:Page {page_id: row[0]}) "
        "SET p.title = row[1], p.text = row[2], p.source = 'default', p.url = ''",
        rows=[
            ["/wiki/Harbour_notes", "Harbour notes", "The old harbour was closed in winter 1901."],
            ["/wiki/Decoy", "Winter harbour closed old", "Old, closed, winter: the harbour."],
        ],
        database_=database,
    )
    query = "old harbour was closed in winter"
    bag = cypher.read(
        web,
        "agent/search_pages_fulltext",
        database=database,
        query=lucene_query(query),
        fetch=2,
        year=None,
        k=2,
    )
    assert [r["page_id"] for r in bag] == ["/wiki/Decoy", "/wiki/Harbour_notes"]
    assert WebTools(web, database).call("search", {"query": query}).pages[:2] == (
        "/wiki/Harbour_notes",
        "/wiki/Decoy",
    )


def test_expected_failures_are_observations(web, database) -> None:
    tools = WebTools(web, database)
    empty = tools.call("search", {"query": "zzqxv"})
    assert empty.error == "no_results"
    assert "No results found for 'zzqxv'" in empty.text
    lucene = tools.call("search", {"query": 'AND ( "unbalanced ] OR *'})
    assert lucene.error in (None, "no_results")
    bads: list[dict[str, object]] = [
        {"query": ""},
        {"query": 3},
        {"query": []},
        {"query": "x", "filter_year": "y"},
    ]
    for bad in bads:
        assert tools.call("search", bad).error == "malformed_arguments"
    assert tools.call("search", "not a dict").error == "malformed_arguments"
    assert tools.call("visit", {"url": "/wiki/Booker_Prize"}).error == "malformed_arguments"
    assert tools.call("browse", {}).error == "unknown_tool"
    missing = tools.call("visit", {"url": "/wiki/Nowhere", "goal": "x"})
    assert missing.error == "not_found"
    assert "could not be accessed" in missing.text


def test_visit_returns_goal_relevant_evidence(web, database) -> None:
    tools = WebTools(web, database, evidence_chars=120)
    obs = tools.call(
        "visit",
        {
            "url": ["https://en.wikipedia.org/wiki/William_Golding", "/wiki/Nowhere"],
            "goal": "Booker Prize 1980 Golding",
        },
    )
    assert obs.pages == ("/wiki/William_Golding",)
    assert obs.text.startswith("The useful information in /wiki/William_Golding for user goal")
    assert "Golding won the Booker Prize in 1980 for Rites of Passage." in obs.text
    assert "Evidence in page:" in obs.text and "Summary:" in obs.text
    assert "could not be accessed" in obs.text.split("=======")[1]
    table = WebTools(web, database).call(
        "visit", {"url": "table:Booker_Prize_1", "goal": "winners"}
    )
    assert "1983 | J. M. Coetzee | Life & Times of Michael K | South Africa" in table.text


def test_helpers() -> None:
    assert lucene_query('a AND (b) "c"') == 'a and \\(b\\) \\"c\\"'
    # question words leave the bag, the title counts 0.3 beside the text, the phrase stays whole
    assert fulltext_query('Lord of the "Flies"') == (
        'text:(Lord \\"Flies\\") title:(Lord \\"Flies\\")^0.3 "lord of the flies"^2'
    )
    assert fulltext_query("Which novels has Coetzee written?", phrase=0) == (
        "text:(novels Coetzee written\\?) title:(novels Coetzee written\\?)^0.3"
    )
    assert fulltext_query("The Who", phrase=0) == "text:(The Who) title:(The Who)^0.3"  # all stop
    assert fulltext_query("Coetzee", title=1) == "Coetzee"  # every field alike
    assert fulltext_query("Coetzee", title=0) == "text:(Coetzee)"
    assert fulltext_query("") == ""
    assert page_key("https://en.wikipedia.org/wiki/J._M._Coetzee#Life") == "/wiki/J._M._Coetzee"
    assert page_key("table:X") == "table:X"
    chosen, top = extract_evidence("Alpha one. Beta two.\nGamma three.", "gamma", 1000)
    assert chosen == ["Alpha one.", "Beta two.", "Gamma three."] and top == "Gamma three."
    chosen, _ = extract_evidence("Alpha one. Beta two.\nGamma three.", "gamma beta", 25)
    assert chosen == ["Beta two.", "Gamma three."]


def test_tool_cache_answers_repeats_from_toolcall_nodes(web, database) -> None:
    cached = CachedTools(WebTools(web, database))
    first = cached.call("search", {"query": ["Booker Prize"]})
    again = cached.call("search", {"query": ["Booker Prize"]})
    other = CachedTools(WebTools(web, database)).call("search", {"query": ["Booker Prize"]})
    assert first == again == other
    assert (cached.misses, cached.hits) == (1, 1)
    records, _, _ = web.execute_query("MATCH (c:ToolCall) RETURN count(c) AS n", database_=database)
    assert records[0]["n"] == 1
    # another ranking is another cache key: its results are never served from this one's
    other_ranking = CachedTools(WebTools(web, database, top_k=2))
    other_ranking.call("search", {"query": ["Booker Prize"]})
    assert (other_ranking.misses, other_ranking.hits) == (1, 0)
    salts = {
        WebTools(web, database, embedder=embedder, vector_weight=w).cache_salt
        for embedder, w in [(None, 0.1), (_Zero(), 0.0), (_Zero(), 0.1), (_Zero(), 1.0)]
    }
    assert len(salts) == 3  # no embedder and weight 0 both rank by full-text alone
    assert all(salt.startswith(RANKING_VERSION + "/") for salt in salts)


class _Zero:
    """A query embedder that never runs (only the cache key is asked for)."""

    name = EMBEDDER_NAME

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise AssertionError("not called")


class _Int8(_Zero):
    name = embedder_name("onnx-int8")


def test_the_cache_key_names_a_backend_other_than_torch(web, database) -> None:
    torch_salt = WebTools(web, database, embedder=_Zero()).cache_salt
    int8_salt = WebTools(web, database, embedder=_Int8()).cache_salt
    assert torch_salt.endswith("+vector0.1/k5/extractive/3000")  # the keys made before backends
    assert int8_salt == torch_salt.replace("+vector0.1", "+vector0.1@" + _Int8.name)


@pytest.mark.slow
def test_embeddings_are_resumable_and_enable_hybrid_search(web, database, embedder) -> None:
    n_pages = len(PAGES) + 1
    first = build_embeddings(web, database, embedder, batch_size=4, max_pages=4)
    assert first.kept == 4
    assert embedding_counts(web, database) == (n_pages, 4)
    rest = build_embeddings(web, database, embedder, batch_size=4)
    assert (rest.kept, rest.skipped) == (n_pages - 4, 4)
    again = build_embeddings(web, database, embedder)
    assert (again.kept, again.skipped) == (0, n_pages)
    records, _, _ = web.execute_query(
        "MATCH (p:Page {page_id: '/wiki/Photosynthesis'}) RETURN size(p.embedding) AS d",
        database_=database,
    )
    assert records[0]["d"] == 384
    hybrid = WebTools(web, database, top_k=2, embedder=embedder)
    # no word of the query is on the page: only the vector ranking can find it
    obs = hybrid.call("search", {"query": "vegetation converting sunshine"})
    assert "/wiki/Photosynthesis" in obs.pages
    assert (
        WebTools(web, database).call("search", {"query": "vegetation converting sunshine"}).error
        == "no_results"
    )


@pytest.mark.slow
def test_pages_record_their_embedder_and_only_its_queries_search_them(
    web, database, embedder
) -> None:
    build_embeddings(web, database, embedder)
    assert page_embedders(web, database) == [EMBEDDER_NAME]
    # the tools embed queries with the pages' backend
    tools = make_tools(web, database, ToolSettings(), cached=False)
    assert isinstance(tools, WebTools) and isinstance(tools.embedder, Embedder)
    assert tools.embedder.name == EMBEDDER_NAME
    # another backend neither resumes the build (before any model load) nor searches the pages
    with pytest.raises(AgentError, match="embedded by all-MiniLM-L6-v2, this embedder is"):
        build_embeddings(web, database, Embedder(backend="onnx-int8"))
    with pytest.raises(AgentError, match="do not compare"):
        WebTools(web, database, embedder=_Int8()).call("search", {"query": "photosynthesis"})
    # pages embedded before the name was recorded carry torch's vectors
    web.execute_query("MATCH (p:Page) REMOVE p.embedder", database_=database)
    assert page_embedders(web, database) == [EMBEDDER_NAME]


@pytest.mark.slow
def test_max_tokens_truncates_what_is_embedded() -> None:
    short = Embedder(max_tokens=16)
    start = "William Golding wrote Lord of the Flies, a novel about boys stranded on an island"
    a, b = short.embed([start, start + " and then a long tail that only the full model reads"])
    assert a == pytest.approx(b, abs=1e-6)  # both cut at 16 word pieces
    full_a, full_b = Embedder().embed([start, start + " and then a long tail"])
    assert full_a != pytest.approx(full_b, abs=1e-3)
    with pytest.raises(EmbedderError, match="at least 8"):
        Embedder(max_tokens=4).embed(["x"])


@pytest.mark.slow
def test_a_query_embedder_on_one_thread_gives_the_same_vectors() -> None:
    """Search queries are embedded on one CPU thread (`Embedder.threads`): the same vectors,
    and torch's thread count is as it was afterwards."""
    import numpy as np
    import torch

    texts = ["Kazuo Ishiguro Booker Prize 1989", "novels set in Nagasaki"]
    before = torch.get_num_threads()
    default = Embedder().embed_array(texts)
    one = Embedder(threads=1).embed_array(texts)
    assert np.allclose(default, one, atol=1e-5)
    assert torch.get_num_threads() == before
