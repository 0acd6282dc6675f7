"""The key-column score against hand labels, and on the default data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seekgraph.synth.ingest.clean import table_context
from seekgraph.synth.ingest.readers import read_ottqa, read_tables
from seekgraph.synth.ingest.records import Cell, RawTable
from seekgraph.synth.key_headers import header_signal
from seekgraph.synth.key_score import column_stats
from seekgraph.synth.keycolumn import choose_key_column
from tests.conftest import DEFAULT_DATA

LABELS = Path(__file__).parent / "data" / "key_columns.jsonl"
# Measured 102/114 = 0.895 when the labels were written, 104/114 = 0.912 once the section
# names what a table lists (issue 32 item 3). 17 held-out tables whose key was wrong in an audit
# (drafts keyed by team or college, schools by suburb, medallists by event) were added: 104/131
# before the affiliation and "List of" rules, 126/131 = 0.962 after; 0.90 allows about 8 misses
# more before a change to the score counts as a regression. Session 55 added the three medal
# tables whose rows are medals won by the named (Medal | Name | Sport | Event), keyed by event
# before.
MIN_ACCURACY = 0.90


def _labels() -> dict[str, dict[str, object]]:
    rows = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines()]
    return {str(r["table_id"]): r for r in rows}


@pytest.mark.shared_data
def test_score_accuracy_on_hand_labels(shared_data: Path) -> None:
    labels = _labels()
    assert len(labels) >= 100
    hits, misses = 0, []
    for table in read_ottqa(shared_data / "ottqa" / "tables.train.jsonl.gz"):
        if not isinstance(table, RawTable) or table.table_id not in labels:
            continue
        label = labels[table.table_id]
        assert table.header == label["header"], table.table_id
        best = choose_key_column(table.header, table.rows, context=table_context(table))
        if best is not None and best.index == label["key_column"]:
            hits += 1
        else:
            misses.append(table.table_id)
    accuracy = hits / len(labels)
    print(f"key-column accuracy {hits}/{len(labels)} = {accuracy:.3f}")
    assert hits + len(misses) == len(labels)
    assert accuracy >= MIN_ACCURACY, misses


def test_labels_point_inside_their_header() -> None:
    for label in _labels().values():
        header = label["header"]
        assert isinstance(header, list)
        assert 0 <= int(str(label["key_column"])) < len(header)


def test_default_tables_anchor_on_the_entity_column() -> None:
    chosen = {}
    for name in ("tables.jsonl", "extra/prizes.csv", "extra/article.html"):
        for table in read_tables(DEFAULT_DATA / name):
            assert isinstance(table, RawTable)
            best = choose_key_column(table.header, table.rows)
            assert best is not None
            chosen[table.table_id.split("@")[0]] = table.header[best.index]
    assert chosen["List_of_Nobel_laureates_in_Literature_1"] == "Laureate"
    assert chosen["List_of_sovereign_states_1"] == "Country"
    assert chosen["csv:prizes.csv"] == "Author"  # no links at all: uniqueness and header decide
    assert chosen["html:article.html#0"] == "Author"


def test_unusable_columns_give_no_key() -> None:
    rows = [[Cell(str(1990 + i)), Cell(str(i * 3))] for i in range(6)]
    assert choose_key_column(["Year", "Points"], rows) is None
    assert header_signal("Year") == -1.0 and header_signal("Player") == 1.0


def test_llm_hook_uses_only_a_valid_answer() -> None:
    from seekgraph.common.llm.base import Generation
    from seekgraph.synth.key_score import column_stats
    from seekgraph.synth.keycolumn import llm_key_column

    class Fixed:
        name = "fixed"

        def __init__(self, text: str) -> None:
            self.text = text

        def generate(
            self,
            messages: list[dict[str, str]],
            *,
            stop: list[str] | None = None,
            max_tokens: int = 512,
            temperature: float = 0.0,
            seed: int | None = None,
        ) -> Generation:
            assert "Key column number" in messages[-1]["content"]
            return Generation(self.text, 10, 1, "stop")

        def count_tokens(self, messages: list[dict[str, str]]) -> int:
            return 10

    header = ["Year", "Laureate", "Country"]
    rows = [[Cell("1982"), Cell("G", ("/wiki/G",)), Cell("Colombia", ("/wiki/Colombia",))]]
    stats = column_stats(header, rows)
    assert llm_key_column(Fixed("2"), "Nobel", header, rows, stats[1:]) == 2
    assert llm_key_column(Fixed("0"), "Nobel", header, rows, stats[1:]) is None
    assert llm_key_column(Fixed("no idea"), "Nobel", header, rows, stats[1:]) is None


def _row(*cells: str) -> list[Cell]:
    """Cells from texts; a trailing "@" marks a linked cell."""
    return [
        Cell(c.rstrip("@"), (f"/wiki/{c.rstrip('@')}",) if c.endswith("@") else ()) for c in cells
    ]


def test_affiliations_lose_to_the_people_and_things_of_the_rows() -> None:
    # 2003_MLS_SuperDraft_4 (rows 1-4): the drafted players, not their better-linked teams
    draft = [
        _row("41", "D.C. United@", "John Swann", "D", "Indiana University@"),
        _row("42", "MetroStars@", "Jacob LeBlanc@", "M", "University of Virginia@"),
        _row("43", "Kansas City Wizards@", "Jack Jewsbury@", "M", "St. Louis University@"),
        _row("44", "Chicago Fire@", "Chad Dombrowski@", "D", "University of Wisconsin@"),
        _row("45", "D.C. United@", "Alex Yi", "D", "UCLA@"),
    ]
    header = ["Pick #", "MLS team", "Player", "Position", "Affiliation"]
    best = choose_key_column(header, draft, context="Player selection -- Round Five")
    assert best is not None and best.index == 2
    # List_of_schools_in_Greater_Western_Sydney_2: schools by their unlinked names, not suburb
    schools = [
        _row("Ajuga School", "Glenfield@", "Campbelltown@", "1992"),
        _row("Bankstown Hospital School", "Bankstown@", "Bankstown@", "1966"),
        _row("Beverley Park School", "Campbelltown@", "Campbelltown@", "1941"),
        _row("Broderick Gillawarna School", "Revesby@", "Bankstown@", "1954"),
    ]
    best = choose_key_column(["Name", "Suburb", "LGA", "Opened"], schools, context="Special")
    assert best is not None and best.index == 0
    # the section names the clubs: the club column stays the key over its head coaches
    clubs = [_row(f"Club {i}@", f"Coach {i}@", f"City {i}@") for i in range(5)]
    best = choose_key_column(["Club", "Head Coach", "City"], clubs, context="Clubs")
    assert best is not None and best.index == 0


def test_a_list_title_says_what_the_table_lists() -> None:
    table = RawTable("t", "ottqa", "List of airports in Alberta", "Defunct airports", "", [], [])
    assert table_context(table) == "Defunct airports -- airports"
    untitled = RawTable("t", "ottqa", "List of songs in SingStar games", "", "", [], [])
    assert table_context(untitled) == "songs"
    assert table_context(RawTable("t", "ottqa", "2012 in music", "Deaths", "", [], [])) == "Deaths"


def test_a_column_of_year_spans_is_no_key() -> None:
    """List_of_NBA_franchise_post-season_streaks_4 (sample 2045, rows 0-9): the streaks' year
    spans link the first year's Finals; the teams, some listed twice, are what it lists."""
    header = ["Streak", "Team", "NBA Finals appearance streak", "NBA championships won"]
    teams = [
        ("Boston Celtics", "1957 - 1966"),
        ("Golden State Warriors", "2015 - 2019"),
        ("Los Angeles Lakers", "1982 - 1985"),
        ("Boston Celtics", "1984 - 1987"),
        ("Miami Heat", "2011 - 2014"),
        ("Cleveland Cavaliers", "2015 - 2018"),
        ("New York Knicks", "1951 - 1953"),
        ("Minneapolis Lakers", "1952 - 1954"),
        ("Los Angeles Lakers", "1968 - 1970"),
        ("Los Angeles Lakers", "1987 - 1989"),
    ]
    rows = [_row("3 seasons", f"{team}@", f"{span}@", "-") for team, span in teams]
    context = table_context(
        RawTable(
            "t",
            "ottqa",
            "List of NBA franchise post-season streaks",
            "All-time streaks -- NBA Finals appearance streaks",
            "",
            [],
            [],
        )
    )
    key = choose_key_column(header, rows, context=context)
    assert key is not None and key.header == "Team"


def test_a_grid_of_parallel_columns_has_no_key() -> None:
    # Football_League_play-offs_0 (rows 0-3): each year's winner of each division
    grid = [
        _row("1987", "Charlton Athletic@", "Swindon Town@", "Aldershot@"),
        _row("1988", "Middlesbrough@", "Walsall@", "Swansea City@"),
        _row("1989", "Crystal Palace@", "Port Vale@", "Leyton Orient@"),
        _row("1990", "Swindon Town@", "Notts County@", "Cambridge United@"),
    ]
    header = ["Year", "Division Two", "Division Three", "Division Four"]
    assert choose_key_column(header, grid, context="Past winners") is None


def _cells(*texts: str, link: bool = True) -> list[Cell]:
    return [Cell(t, (f"/wiki/{t.replace(' ', '_')}",) if link else ()) for t in texts]


def link(text: str) -> Cell:
    """A cell linking the page its text names."""
    return _cells(text)[0]


def test_tables_of_events_at_places_or_editions_have_no_key() -> None:
    # k6 audit (session 39): car bombings keyed by their city, statues by their location,
    # medals by the edition of the championship, car-free places by their description
    bombings = [
        [*_cells("Dec. 6", link=False), *_cells("Colombia", "Bogotá"), *_cells("52", link=False)],
        [*_cells("Nov. 22", link=False), *_cells("Lebanon", "Beirut"), *_cells("24", link=False)],
        [*_cells("May 22", link=False), *_cells("Lebanon", "Beirut"), *_cells("55", link=False)],
        [*_cells("April 14", link=False), *_cells("Sri Lanka", "Trincomalee"), Cell("38")],
    ]
    assert choose_key_column(["Date", "Country", "City", "Deaths"], bombings) is None
    statues = [
        [*_cells(place), Cell(year), *_cells(who)]
        for place, year, who in [
            ("Adelaide", "1889", "Charles Bell Birch"),
            ("Ballarat", "1897", "Bertram Mackennal"),
            ("Bendigo", "1903", "James White"),
        ]
    ]
    assert choose_key_column(["Location", "Date", "Sculptor"], statues) is None
    medals = [
        [Cell("Gold"), *_cells(name), Cell("Individual 3 km"), *_cells(edition)]
        for name, edition in [
            ("Sonja Stolić", "1997 Oeiras"),
            ("Amela Terzić", "2012 Szentendre"),
            ("Sonja Stolić", "1998 Ferrara"),
            ("Snežana Kostić", "2001 Thun"),
        ]
    ]
    key = choose_key_column(["Medal", "Name", "Event", "Championship"], medals)
    assert key is not None and key.header == "Name"  # the medalists, when they are distinct
    editions = [row[:1] + row[2:] for row in medals]
    assert choose_key_column(["Medal", "Event", "Championship"], editions) is None
    described = [
        [*_cells("Arizona"), *_cells(text, link=False)]
        for text in [
            "Small car-free district at the center",
            "Car-free shopping district, with further expansion planned",
            "car free area of university campus, to be expanded",
            "Old Town Square commercial district",
        ]
    ]
    assert choose_key_column(["State", "Character"], described) is None
    # a list of countries keyed by its country column still has its key
    countries = [[*_cells(c), Cell(n)] for c, n in [("Iraq", "3,000"), ("Syria", "1,500")]]
    key = choose_key_column(["Country", "Population"], countries)
    assert key is not None and key.index == 0


def test_a_column_of_opponents_is_no_key() -> None:
    # s51 audit 2047: List_of_NHL_playoff_series_11 (section "Edmonton Oilers"), rows 0-2: the
    # Oilers' record against each opponent, asked as "their record" of the opponents
    series = [
        [*_cells(team), Cell(s), Cell(o), Cell(gp), Cell(rec)]
        for team, s, o, gp, rec in [
            ("Calgary Flames", "5", "1983, 1984, 1986, 1988, 1991", "30", "4-1"),
            ("Chicago Blackhawks", "4", "1983, 1985, 1990, 1992", "22", "3-1"),
            ("Los Angeles Kings", "7", "1982, 1985, 1987, 1989, 1990, 1991, 1992", "38", "5-2"),
        ]
    ]
    header = ["Opponent", "S", "Occurrences", "GP", "Rec"]
    assert choose_key_column(header, series, context="Edmonton Oilers") is None
    # a section that names the column lists them ("Rivals")
    assert choose_key_column(["Rival", "S"], [r[:2] for r in series], context="Rivals") is not None


def test_a_column_of_teams_gives_way_to_the_country_whose_team_it_is() -> None:
    # k7n audit (session 39): the runners of a half-marathon team were the anchors, each given
    # the team's rank and time; the row is the team, named by its country
    def team(names: list[str]) -> Cell:
        return Cell(" ".join(names), tuple(f"/wiki/{n.replace(' ', '_')}" for n in names))

    teams = [
        [Cell("1"), *_cells("Kenya"), team(["Shem Kororia", "Moses Tanui"]), Cell("2:59:54")],
        [Cell("2"), *_cells("South Africa"), team(["Hendrick Ramaala", "Gert Thys"]), Cell("3:03")],
        [Cell("3"), *_cells("Ethiopia"), team(["Abraham Assefa", "Tesfaye Tola"]), Cell("3:04")],
        [Cell("4"), *_cells("Japan"), Cell("Osamu Nara Noriaki Igarashi"), Cell("3:05:35")],
    ]
    key = choose_key_column(["Rank", "Country", "Team", "Time"], teams)
    assert key is not None and key.header == "Country"
    # a medal a team won is each member's: with no country beside them, the names stay the key
    medals = [[Cell("Gold"), row[2], Cell(f"Event {i}")] for i, row in enumerate(teams[:3])]
    key = choose_key_column(["Medal", "Name", "Event"], medals)
    assert key is not None and key.header == "Name"


def test_a_named_column_listing_several_gives_way_to_the_one_left_of_it() -> None:
    # sample 2066: "Wards and civil parishes" of the Borough of Bedford names its parish column,
    # whose cells list a ward's parishes ("Cotton End Shortstown"); the row is the ward, and its
    # population the ward's, not each parish's (a ward named for two parishes is one name)
    def parishes(names: list[str]) -> Cell:
        return Cell(" ".join(names), tuple(f"/wiki/{n.replace(' ', '_')}" for n in names))

    rows = [
        [parishes(["Biddenham", "Bromham"]), parishes(["Biddenham", "Bromham"]), Cell("7,460")],
        [*_cells("Clapham"), parishes(["Clapham"]), Cell("4,670")],
        [*_cells("Eastcotts"), parishes(["Cotton End", "Shortstown"]), Cell("3,330")],
        [*_cells("Elstow"), parishes(["Elstow", "Stewartby"]), Cell("4,500")],
        [*_cells("Oakley"), parishes(["Oakley", "Pavenham", "Stevington"]), Cell("3,790")],
        [*_cells("Riseley"), parishes(["Bletsoe", "Pertenhall", "Riseley"]), Cell("3,440")],
    ]
    header = ["Ward name", "Civil Parishes", "Population"]
    key = choose_key_column(header, rows, context="Wards and civil parishes")
    assert key is not None and key.header == "Ward name"


def test_quantities_with_units_are_no_key() -> None:
    # whole-corpus audit (session 40): "Which frequencies are listed ...": a multiplex table
    # keyed by its "474.166 MHz" column; the multiplexes are its operators' services
    rows = [
        [Cell(f), Cell(ch), *_cells(op)]
        for f, ch, op in [("474.166 MHz", "21+", "SDN"), ("482.166 MHz", "22+", "BBC B"),
                          ("498.000 MHz", "24", "Arqiva A"), ("506.000 MHz", "25", "Digital 3&4")]
    ]  # fmt: skip
    key = choose_key_column(["Frequency", "UHF", "Operator"], rows)
    assert key is not None and key.header == "Operator"


def test_counts_of_appearances_are_no_key() -> None:
    # audit 2058 (session 53): "Which previous appearances are listed ...", answered "3 0", "10":
    # the count column links every edition it counts, better than the teams are linked
    def editions(text: str, years: list[int]) -> Cell:
        links = tuple(f"/wiki/{y}_African_Women's_Championship" for y in years)
        return Cell(f"{text} ( {' , '.join(map(str, years))} )", links)

    def team(country: str) -> Cell:
        return Cell(country, (f"/wiki/{country.replace(' ', '_')}_women's_national_football_team",))

    rows = [
        [team("Algeria"), team("Tunisia"), editions("3 0", [2004, 2006, 2010])],
        [team("Cameroon"), team("Senegal"), editions("10", [1991, 1995, 1998, 2000, 2002])],
        [team("Ghana"), team("Ethiopia"), editions("9 0", [1991, 1995, 1998])],
        [team("Ivory Coast"), team("Equatorial Guinea"), editions("1 0", [2012])],
        [team("Namibia"), Cell("Hosts"), Cell("0")],
    ]
    header = ["Country", "Qualified as", "Previous appearances in tournament"]
    key = choose_key_column(header, rows)
    assert key is not None and key.header == "Country"


def test_offices_give_way_to_their_holders() -> None:
    # audit 2060 (session 53): "Which participants are listed in ... 1216 papal election? ...
    # give their elector": the cardinals' titles, better linked, were the key
    rows = [
        [link("Nicola de Romanis"), link("Bishop of Frascati"), Cell("December 18, 1204")],
        [Cell("Guido Papareschi"), link("Bishop of Palestrina"), Cell("September 22, 1190")],
        [link("Pelagio Galvani"), link("Bishop of Albano"), Cell("ca. 1206/1207")],
        [link("Cinzio Cenci"), link("Priest of S. Lorenzo in Lucina"), Cell("September 22, 1190")],
        [Cell("Cencio"), link("Priest of SS. Giovanni e Paolo"), Cell("February 20, 1193")],
    ]
    key = choose_key_column(["Elector", "Title", "Elevated"], rows)
    assert key is not None and key.header == "Elector"
    # a list of the titles themselves keeps them: no column of holders beside them
    peerage = [[link(r[1].text), Cell("created 1700")] for r in rows]
    key = choose_key_column(["Title", "Notes"], peerage)
    assert key is not None and key.header == "Title"


def test_a_column_of_makers_gives_way_to_the_titles_of_their_works() -> None:
    # audit 2062 (session 53): "Which directors are listed in ... List of World War II films
    # (1941)? ... give their main title": the films, less linked than their directors, are
    # what the rows are; a prize's "Winning author" stays the honoree
    films = [
        [Cell("Nazi Germany"), link("Above All in the World"), link("Karl Ritter")],
        [Cell("United States"), Cell("All Through the Night"), link("Vincent Sherman")],
        [Cell("Nazi Germany"), link("Annelie"), link("Josef von Báky")],
        [Cell("United States"), link("Buck Privates"), link("Arthur Lubin")],
        [Cell("United Kingdom"), link("Freedom Radio"), link("Anthony Asquith")],
    ]
    key = choose_key_column(["Country", "Main title ( Alternative titles )", "Director"], films)
    assert key is not None and key.header.startswith("Main title")
    prize = [[Cell(str(1990 + i)), row[2], row[1]] for i, row in enumerate(films)]
    key = choose_key_column(["Year", "Winning author", "Title"], prize)
    assert key is not None and key.header == "Winning author"


def test_a_list_of_clubs_by_home_town_is_keyed_by_the_clubs() -> None:
    # audit 2064 (session 53): "Which places are listed in ... football clubs in the Republic of
    # Ireland? ... give their team": the unlinked teams, left of their linked towns, are the rows
    rows = [
        [Cell("Ballyfermot United"), link("Ballyfermot"), Cell("Cold Cut")],
        [Cell("Celbridge Town"), link("Celbridge"), Cell("Celbridge")],
        [Cell("Confey"), link("Leixlip"), Cell("Confey Park")],
        [Cell("Greenhills/Greenpark"), link("Walkinstown"), Cell("Greenhills Park")],
        [Cell("Inchicore Athletic"), link("Inchicore"), Cell("Pearse Park")],
    ]
    key = choose_key_column(["Team", "Home town/suburb", "Home ground"], rows)
    assert key is not None and key.header == "Team"


def test_the_things_made_are_the_key_not_their_maker() -> None:
    """Six Flags' former coasters without their section (sample 2076): "Coaster" left of
    "Manufacturer ( Model )" is what the rows are; the maker is each coaster's attribute."""
    header = ("Coaster", "Year Opened", "Manufacturer ( Model )")
    rows = [
        (Cell("Gulf Coaster", ("/wiki/Gulf_Coaster",)), Cell("1976"), _maker("Allan_Herschell")),
        (Cell("Shock Wave", ("/wiki/Shock_Wave",)), Cell("1988"), _maker("Arrow_Dynamics")),
        (Cell("Iron Wolf", ("/wiki/Iron_Wolf",)), Cell("1990"), _maker("Bolliger_&_Mabillard")),
        (Cell("Déjà Vu", ("/wiki/Deja_Vu",)), Cell("2001"), _maker("Vekoma")),
    ]
    best = choose_key_column(header, rows, context="List of former Six Flags attractions")
    assert best is not None and best.header == "Coaster"
    # the rule is what decides: its maker column alone scores higher than the coasters
    scores = {s.header: s.score for s in column_stats(header, rows, "")}
    assert scores["Manufacturer ( Model )"] > scores["Coaster"]


def _maker(page: str) -> Cell:
    return Cell(page.replace("_", " "), (f"/wiki/{page}",))
