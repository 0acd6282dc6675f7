"""The kind a question names, from its answers' first sentences, key header and table title.

Every sentence below is the opening of a real page linked from a held-out OTT-QA table.
"""

from __future__ import annotations

from seekgraph.synth.head_nouns import page_kind, title_kind
from seekgraph.synth.kinds import NO_KIND, answers_kind, kind_fits
from seekgraph.synth.phrasing.header_kind import entity_kind, key_kind

JSE_T = [
    "Telkom SA SOC Limited is a South African wireline and wireless telecommunications "
    "provider , operating in more than 38 countries across the African continent .",
    "Tiger Brands Limited ( JSE : TBS ) is a South African packaged goods company . In "
    "addition to the company 's South African operations",
    "Tongaat Hulett is an agriculture and agri-processing business , focusing on the "
    "complementary feedstocks of sugarcane and maize .",
    "Truworths is a Cape Town-based , South African clothing retailer , with 728 stores in "
    "South Africa , and 49 elsewhere in Africa .",
]
DICKINSON_BUSINESS = [
    "Andrew Bowen MacPhail ( born April 5 , 1953 ) is an American baseball executive and "
    "currently the President of Baseball Operations for the Philadelphia Phillies .",
    "Leon Rose ( born around 1961 ) is an attorney and sports agent .",
    "David Hirshey is an American book editor and a contributing editor at Esquire .",
    "Judith Judy R. Faulkner ( born August 1943 ) is an American billionaire , and the CEO and "
    "founder of Epic Systems , a healthcare software company .",
    "Merkel Landis ( January 5 , 1875 - September 28 , 1960 ) was an American lawyer and banker .",
]
BETTANY_TELEVISION = [
    "The Bill is a British police procedural television series , first broadcast on ITV .",
    "Manhunt : Unabomber is an American drama miniseries created by Andrew Sodroski .",
    "WandaVision is an upcoming American web television miniseries created for Disney+ .",
    "Coming Home is a 1998 British serial directed by Giles Foster .",
    "Wycliffe is a British television series , based on W. J. Burley 's novels .",
]
INDIA_AGRICULTURE = [
    "Coffee is a brewed drink prepared from roasted coffee beans .",
    "Broccoli is an edible green plant in the cabbage family .",
    "An apple is a sweet , edible fruit produced by an apple tree ( Malus domestica ) .",
    "The cashew tree ( Anacardium occidentale ) is a tropical evergreen tree .",
    "Ginger ( Zingiber officinale ) is a flowering plant whose rhizome is used as a spice .",
]


def kinds(sentences: list[str]) -> list[str | None]:
    return [page_kind(s) for s in sentences]


def test_page_kind_reads_past_coordinated_and_compound_modifiers() -> None:
    assert kinds(JSE_T) == ["provider", "company", "agriculture", "retailer"]
    assert page_kind(BETTANY_TELEVISION[1]) == "miniseries"
    # a coordinated noun keeps the first trade: a composer and musician is a composer
    assert (
        page_kind(
            "Johann Sebastian Bach ( 31 March 1685 - 28 July 1750 ) was a German composer and "
            "musician of the Baroque period ."
        )
        == "composer"
    )


def test_a_participle_in_en_ends_the_noun() -> None:
    """Ryukyuan languages (sample 2043): "a language spoken in" is a language, not a
    "spoken"."""
    yaeyama = (
        "The Yaeyama language ( 八重山物言/ヤイマムニ , Yaimamuni ) is a Southern Ryukyuan "
        "language spoken in the Yaeyama Islands , the southernmost inhabited island group ."
    )
    assert page_kind(yaeyama) == "language"
    assert page_kind("Zhou is a dialect chosen by the court as its standard .") == "dialect"


def test_one_page_in_twenty_does_not_overrule_the_header() -> None:
    """Okinawa's registered cultural properties (whole-corpus Union read): 19 of 20 rows are
    unlinked; the one linked row links its village. The header says "Property"."""
    pages: list[str | None] = ["village"] + [None] * 19
    kind = answers_kind(pages, entity_kind("Property", None))
    assert (kind.plural, kind.source) == ("properties", "header")
    assert kind_fits("properties", pages)  # and the gate agrees
    # enough pages still speak: five in twenty say "footballer" under a "Name" header
    kind = answers_kind(["footballer"] * 5 + [None] * 15, entity_kind("Name", None))
    assert kind.plural == "footballers"


def test_a_capital_is_a_city() -> None:
    """Indonesia's ten largest urban centres (sample 2045): most pages say "the capital of"
    a province; the table lists cities."""
    pages: list[str | None] = ["capital"] * 6 + ["city"] * 4
    kind = answers_kind(pages, entity_kind("City", None))
    assert kind.plural == "cities"
    assert kind_fits("cities", pages) and not kind_fits("capitals", ["city"] * 4)


def test_a_table_of_companies_of_many_fine_kinds_is_asked_for_companies() -> None:
    kind = answers_kind(
        kinds(JSE_T), entity_kind("Company", None), "List of companies traded on the JSE"
    )
    assert (kind.plural, kind.source) == ("companies", "header")
    assert kind_fits("companies", kinds(JSE_T))


def test_a_generic_key_header_takes_the_list_titles_kind() -> None:
    title = "List of Dickinson College alumni"
    kind = answers_kind(kinds(DICKINSON_BUSINESS), entity_kind("Name", None), title)
    assert kind.plural == "alumni"
    # no page says what the answers are: the title is all there is
    schools = answers_kind([None] * 20, entity_kind("Name", None), "List of schools in Far North")
    assert schools.plural == "schools"


def test_the_title_does_not_speak_for_a_key_column_with_a_kind_of_its_own() -> None:
    scorers = [
        "Darko Spalević ( born 24 March 1977 ) is a Serbian professional footballer who plays as "
        "a striker for Zvezdara .",
        "Srđan Baljak ( born 25 November 1978 ) is a Serbian former professional footballer who "
        "played as a striker .",
    ]
    kind = answers_kind(
        kinds(scorers), entity_kind("Top scorer ( s )", None), "List of Serbian football champions"
    )
    assert kind.plural == "top scorers"
    assert title_kind("List of ancient Egyptians") is None  # a name, not a kind


def test_a_header_naming_one_rival_type_gives_way_to_the_class_of_the_answers() -> None:
    kind = answers_kind(kinds(BETTANY_TELEVISION), entity_kind("Film", None))
    assert kind.plural == "shows"
    assert not kind_fits("films", kinds(BETTANY_TELEVISION))


def test_bands_are_artists_not_people() -> None:
    pages = [
        "Maroon 5 is an American pop rock band from Los Angeles , California .",
        "Lifehouse is an American rock band from Los Angeles comprising Jason Wade .",
        "James Blake Litherland ( born 26 September 1988 ) is an English singer , songwriter .",
    ]
    # two bands and a singer: artists (a third of them is no band)
    assert answers_kind(kinds(pages)).plural == "artists"
    assert answers_kind(kinds(pages[:2] * 2 + pages[2:])).plural == "bands"  # four in five
    assert kind_fits("artists", kinds(pages))
    assert not kind_fits("people", kinds(pages))


def test_governments_and_companies_are_organizations() -> None:
    pages = [
        "Enel S.p.A. , or the Enel Group , is an Italian multinational energy company .",
        "Chevron Corporation is an American multinational energy corporation .",
        "Royal Dutch Shell PLC , commonly known as Shell , is a British-Dutch oil and gas company "
        "headquartered in the Netherlands .",
    ]
    kind = answers_kind(kinds(pages), entity_kind("Organization", None))
    assert kind.plural == "organizations"


def test_a_kind_the_pages_do_not_bear_out_stays_several_kinds() -> None:
    kind = answers_kind(
        kinds(INDIA_AGRICULTURE), entity_kind("Field", None), "International rankings of India"
    )
    assert kind == NO_KIND
    assert not kind_fits("fields", kinds(INDIA_AGRICULTURE))


def test_the_gate_takes_a_header_kind_over_pages_of_no_known_class() -> None:
    # "Assigned Aircraft" of a carrier air wing: two pages say aircraft, the others say
    # nothing the classes know ("a twin-engine", "an all-weather"); the class plural of the
    # header ("aircraft") is not a reason to ask for a majority
    pages = ["aircraft", "aircraft", "engine", "engine", "all-weather", None]
    assert kind_fits("assigned aircraft", pages)
    assert answers_kind(pages, entity_kind("Assigned Aircraft", None)).plural == (
        "assigned aircraft"
    )


def test_a_sports_complex_is_a_venue() -> None:
    pages = [None] * 10 + [
        "Centro Olímpico Juan Pablo Duarte ( translation : Juan Pablo Duarte Olympic Center ) is "
        "a multi-venued athletic complex in Santo Domingo , Dominican Republic .",
    ]
    assert answers_kind(kinds(pages), entity_kind("Venue", None)).plural == "venues"


def test_guests_who_include_bands_are_asked_for_as_guests() -> None:
    # "Guests/Segments" of Live with Regis and Kelly (season 19, July 2007)
    pages = [
        "Joshua David Duhamel ( born November 14 , 1972 ) is an American actor and former "
        "fashion model .",
        "Anneliese Louise Van Der Pol ( born 23 September 1984 ) is a Dutch-American actress "
        "and singer .",
        "Maroon 5 is an American pop rock band from Los Angeles , California .",
        "Catherine Zeta-Jones CBE ( born 25 September 1969 ) is a Welsh actress .",
        "Aaron Edward Eckhart ( born March 12 , 1968 ) is an American actor .",
    ]
    kind = answers_kind(kinds(pages), entity_kind("Guests/Segments", None))
    assert kind.plural == "guests"
    assert kind_fits("guests", kinds(pages))
    # without the band, people stay people
    assert answers_kind(
        kinds(pages[:2] + pages[3:]), entity_kind("Guests/Segments", None)
    ).plural == ("people")


def test_a_lists_title_names_answers_of_its_class_of_rival_types() -> None:
    # the first sentences of the pages of "List of Hawaiian royal residences" (k4 audit):
    # "the royal estate of", "the mansion of", "the royal residence of", "a historic
    # structure" (twice), "the ruin of"; many residences have no page
    pages = ["estate", "mansion", "residence", "structure", "structure", "ruin"] + [None] * 14
    kind = answers_kind(pages, entity_kind("Residence", None), "List of Hawaiian royal residences")
    assert (kind.plural, kind.source) == ("residences", "header")
    # the gate takes the title's word only as the title's: a header alone does not speak
    assert kind_fits("residences", pages, listed=True) and not kind_fits("residences", pages)
    films = ["series", "series", "series", "film"]  # "Film" over TV series: not a list's title
    assert answers_kind(films, entity_kind("Film", None)).plural != "films"


def test_sections_and_registers_name_what_their_rows_are() -> None:
    # k5 audit (session 39): a roster without pages, medalists of many sports, NRHP listings
    roster = answers_kind([None] * 11, entity_kind("Name", None), None, "Team roster")
    assert roster.plural == "players"
    sports = ["player"] * 6 + ["sailor", "preacher"]
    medals = answers_kind(sports, entity_kind("Name", None), None, "Medal summary -- Medalists")
    assert medals.plural == "medalists"
    places = ["venue", "station", "district", "residence", "station", "building", "tower"]
    nrhp = answers_kind(
        places,
        entity_kind("Name on the Register", None),
        "National Register of Historic Places listings in Alabama",
    )
    assert nrhp.plural == "properties"


def test_roles_and_titles_held_name_people_by_what_they_did() -> None:
    # audit 2058 (session 53): Ireland's Olympic flag bearers, Miss Teen USA's titleholders
    athletes = ["boxer", "sailor", "skier", "boxer", "swimmer", "athlete", "rower", None]
    bearers = answers_kind(athletes, key_kind("Flag bearer", "List of flag bearers for Ireland"))
    assert bearers.plural == "flag bearers"
    pageant = ["model", "actress", "model", "beauty queen", "actress", None]
    header = key_kind("Miss Teen USA", "Miss Teen USA")  # the title held, not what they are
    teens = answers_kind(pageant, header, "Miss Teen USA", "Titleholders")
    assert teens.plural == "titleholders"
    # audit 2064: "Which snowboarders are listed ..." of a standings table whose runners-up and
    # thirds are snowboarders too: the "Winner" column lists the winners
    winners = answers_kind(
        ["snowboarder"] * 6, entity_kind("Winner", None), "FIS Snowboard World Cup"
    )
    assert winners.plural == "winners"
