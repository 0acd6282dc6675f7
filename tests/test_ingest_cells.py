"""Reading one cell right (synth.ingest.cells, cell_links, cell_lists, key_cells) on cells the
way other table corpora write them: flag icons, several entities per cell, summary and
placeholder rows, disambiguated titles."""

from __future__ import annotations

import pytest

from seekgraph.synth.ingest.cell_links import named_links
from seekgraph.synth.ingest.cell_lists import listed_links
from seekgraph.synth.ingest.cells import display_name, is_placeholder
from seekgraph.synth.ingest.key_cells import key_links, key_rejection, key_text
from seekgraph.synth.ingest.records import Cell, RawTable
from seekgraph.synth.ingest.table_parts import RowWriter


@pytest.mark.parametrize(
    ("text", "links", "named"),
    [
        # a flag icon before the player: the country is not what the cell names
        ("Pelé", ("/wiki/Brazil", "/wiki/Pelé"), ("/wiki/Pelé",)),
        (
            "  Zinedine Zidane",
            ("/wiki/France", "/wiki/Zinedine_Zidane"),
            ("/wiki/Zinedine_Zidane",),
        ),
        # initials name their link
        ("UK", ("/wiki/United_Kingdom",), ("/wiki/United_Kingdom",)),
        # one unnamed link stays (a nickname)
        ("the Reds", ("/wiki/Liverpool_F.C.",), ("/wiki/Liverpool_F.C.",)),
        # several entities in one cell, in order; accents folded
        (
            "James May, Richard Hammond and Jérémy Clarkson",
            ("/wiki/James_May", "/wiki/Richard_Hammond", "/wiki/Jeremy_Clarkson"),
            ("/wiki/James_May", "/wiki/Richard_Hammond", "/wiki/Jeremy_Clarkson"),
        ),
    ],
)
def test_named_links(text: str, links: tuple[str, ...], named: tuple[str, ...]) -> None:
    assert named_links(Cell(text, links)) == named


def test_a_key_cell_lists_what_it_names_outside_parentheses() -> None:
    song = Cell(
        "Against All Odds (Take a Look at Me Now) (with Mariah Carey)",
        ("/wiki/Mariah_Carey", "/wiki/Against_All_Odds_(Take_a_Look_at_Me_Now)"),
    )
    assert key_links(song) == ("/wiki/Against_All_Odds_(Take_a_Look_at_Me_Now)",)
    guests = Cell("Jay Leno, David Letterman", ("/wiki/Jay_Leno", "/wiki/David_Letterman"))
    assert key_links(guests) == ("/wiki/Jay_Leno", "/wiki/David_Letterman")
    only_inside = Cell("(with Lulu)", ("/wiki/Lulu_(singer)",))
    assert key_links(only_inside) == ("/wiki/Lulu_(singer)",)


@pytest.mark.parametrize(
    ("text", "links", "reason"),
    [
        ("Total", (), "summary_row"),
        ("Totals:", (), "summary_row"),
        ("Grand total", (), "summary_row"),
        ("Average", (), "summary_row"),
        ("Others", (), "summary_row"),
        ("-", (), "blank_key"),
        ("—", (), "blank_key"),
        ("N/A", (), "blank_key"),
        ("TBA", (), "blank_key"),
        ("", (), "blank_key"),
        ("Total Eclipse of the Heart", ("/wiki/Total_Eclipse_of_the_Heart",), None),
        ("Average White Band", ("/wiki/Average_White_Band",), None),
        ("48 kg", (), None),
        # the total of a city's boroughs, linking the city (whole-corpus audit, session 40)
        ("Total Berlin", ("/wiki/Berlin",), "summary_row"),
        ("not arranged", (), "blank_key"),  # no winner that season
        ("Various works", (), "blank_key"),  # a censored author's books: no one book (2059)
        ("Pass", (), "blank_key"),  # a pick a club passed on in a draft (2059)
        ("No World Cup arranged this season", (), "blank_key"),  # audit 2063
        ("No Doubt", (), None),  # a band
    ],
)
def test_summary_and_blank_rows(text: str, links: tuple[str, ...], reason: str | None) -> None:
    assert key_rejection(Cell(text, links)) == reason


def test_placeholders_are_no_value() -> None:
    assert all(is_placeholder(t) for t in ["", " - ", "–", "n/a", "TBD", "?"])
    assert not any(is_placeholder(t) for t in ["0", "No", "1954", "A"])


def test_names_come_from_ids_without_disambiguators() -> None:
    assert display_name("/wiki/Disgrace_(novel)") == "Disgrace"
    assert display_name("/wiki/São_Paulo_FC") == "São Paulo FC"
    assert display_name("/wiki/(I_Can't_Get_No)_Satisfaction") == "(I Can't Get No) Satisfaction"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("None selected", "blank_key"),
        ("N/A (this is BBC One HD)", "blank_key"),
        ("Vacant", "blank_key"),
        ("Na Si-yoon", None),  # a Korean name, not "n/a"
    ],
)
def test_placeholder_phrases_in_key_cells(text: str, reason: str | None) -> None:
    assert key_rejection(Cell(text, ())) == reason


def test_a_phrase_that_mentions_entities_is_a_value() -> None:
    from seekgraph.synth.ingest.cell_links import mentions_only

    assert mentions_only(Cell("Scrapped at Jiangyin in 2009 after a fire", ("/wiki/Jiangyin",)))
    assert mentions_only(
        Cell("1886 Detroit, 1887 Detroit, 1894 Baltimore", ("/wiki/Detroit_Wolverines",))
    )
    assert not mentions_only(Cell("HWM - Alta", ("/wiki/Alta_Car_and_Engineering_Company",)))
    assert not mentions_only(
        Cell("Green Line Orange Line", ("/wiki/Green_Line_(CTA)", "/wiki/Orange_Line_(CTA)"))
    )


def test_key_cells_that_name_no_linked_entity() -> None:
    from seekgraph.synth.ingest.cells import unlinked_name

    # the theme song is the entry; its singer is only credited in parentheses
    assert key_links(Cell("Sharpshooters (Cass Phang)", ("/wiki/Cass_Phang",))) == ()
    assert unlinked_name("Sharpshooters (Cass Phang)") == "Sharpshooters"
    assert unlinked_name("10- Hung Hing Ying Building") == "Hung Hing Ying Building"
    assert unlinked_name("1984") == "1984"
    track_list = "Horowitz in London Traditional: God Save the Queen Scarlatti: Six sonatas " * 2
    assert key_rejection(Cell(track_list, ("/wiki/God_Save_the_Queen",))) == "prose_key"


def test_an_unlinked_name_is_judged_without_its_script_and_its_fate() -> None:
    """Sample 2037: a historic site written in English, Japanese and its reading is one name of
    seven words, not prose; "-demolished" after a house says what became of it."""
    from seekgraph.synth.ingest.cells import unlinked_name

    site = (
        "Ōsumi Kokubun-ji and Miyatagaoka Tile Kiln Sites 大隅国分寺 跡附宮田ヶ岡瓦窯跡 "
        "Ōsumi Kokubunji ato tsuketari Miyatagaoka kawara kama ato"
    )
    assert key_rejection(Cell(site, ())) is None
    # linked too (sample 2043: one of Ishikawa's Places of Scenic Beauty was dropped as prose)
    landscape = (
        "Landscape of Oku no Hosomichi - Nata-dera Precinct おくのほそ道の風景地 那谷寺 境内 "
        "Oku no Hosomichi no fūkei-chi Nata-dera keidai"
    )
    assert key_rejection(Cell(landscape, ("/wiki/Oku_no_Hosomichi",))) is None
    assert unlinked_name(site) == "Ōsumi Kokubun-ji and Miyatagaoka Tile Kiln Sites"
    assert unlinked_name("Andrew C. Maxwell House -demolished") == "Andrew C. Maxwell House"
    assert unlinked_name("Old Mill (destroyed 1950)") == "Old Mill"
    assert unlinked_name("Closed") == "Closed"  # a name that is only the word stays


def test_grand_is_a_summary_only_before_total() -> None:
    assert key_rejection(Cell("Grand total", ())) == "summary_row"
    assert key_rejection(Cell("Grand Hyatt Manila", ())) is None


def test_wiki_cell_attributes_are_not_text() -> None:
    from seekgraph.synth.ingest.values import clean_text, typed_value

    assert typed_value("align=right| 0") == ("number", "0")
    assert clean_text('style="background:#fff" | Foo') == "Foo"
    assert clean_text("A | B") == "A | B"


def test_a_link_to_part_of_a_name_is_that_names_part() -> None:
    # "Grandchildren of Victoria and Albert" (k6 audit): the prince and his title
    links = ("/wiki/Prince_Leopold,_Duke_of_Albany", "/wiki/Duke_of_Albany")
    cell = Cell("Prince Leopold, Duke of Albany", links)
    assert listed_links(cell, links) == ("/wiki/Prince_Leopold,_Duke_of_Albany",)
    # two people of one name (disambiguated) stay two
    pair = ("/wiki/Yang_Yang_(A)", "/wiki/Yang_Yang_(S)")
    assert listed_links(Cell("Yang Yang (A), Yang Yang (S)", pair), pair) == pair


def test_a_key_cell_led_by_an_unlinked_name() -> None:
    # Tour de Guadeloupe winners (k5 audit): the rider, linked only to his home town
    cell = Cell("Molière Gène (GLP) Anse-Bertrand", ("/wiki/Anse-Bertrand",))
    assert key_links(cell) == () and key_text(cell) == "Molière Gène"
    assert key_links(Cell("Flober Peña (COL)", ("/wiki/Flober_Peña",))) == ("/wiki/Flober_Peña",)


def test_a_key_cell_naming_a_place_of_someone_is_that_place() -> None:
    # Indiana state historical markers (audit 2029): the marker's house, not the man it is of
    marker = Cell(
        "Birthplace and Childhood Home of Col. Harland Sanders", ("/wiki/Colonel_Sanders",)
    )
    assert key_links(marker) == () and key_text(marker) == marker.text
    # a name that holds "of" and is its page's title stays linked
    assert key_links(Cell("House of Commons", ("/wiki/House_of_Commons",))) == (
        "/wiki/House_of_Commons",
    )
    assert key_links(Cell("University of Cambridge", ("/wiki/University_of_Cambridge",))) == (
        "/wiki/University_of_Cambridge",
    )


def test_names_run_together_become_a_list() -> None:
    """A cell running its column's own values together ("France Italy West Germany", session
    55's sample 2077) and an unlinked name run into a linked one of the same head noun
    ("Island line South Island line", 2073) are said as lists; a value its column writes alone
    stays whole."""
    films = [("Bilitis", "France Italy"), ("Die Konsequenz", "West Germany")]
    films += [("Beyond Good and Evil", "France Italy West Germany"), ("Outrageous!", "Canada")]
    films += [("Cambio de sexo", "Italy"), ("Desperate Living", "France")]
    rows = [[Cell(t, (f"/wiki/{t.replace(' ', '_')}",)), Cell(c)] for t, c in films]
    rows[0].append(Cell("Island line South Island line", ("/wiki/South_Island_line",)))
    for row in rows[1:]:
        row.append(Cell("Kwun Tong line", ("/wiki/Kwun_Tong_line",)))
    table = RawTable("t", "ottqa", "Films", "", "", ["Title", "Country", "Line"], rows)
    writer = RowWriter()
    writer.add(table, 0, {}, set())
    said = {(f["row"], f["column"]): f["text"] for f in writer.value_facts}
    assert said[(2, 1)] == "France, Italy, West Germany"
    assert said[(0, 1)] == "France, Italy"  # "France Italy" is no value of its own here
    assert said[(1, 1)] == "West Germany"
    assert said[(0, 2)] == "Island line"
    linked = {(f["row"], f["column"]): f["text"] for f in writer.entity_facts}
    assert linked[(0, 2)] == "South Island line"
