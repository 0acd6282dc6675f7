"""The classes of nouns the kinds of answers fall in (artists, works, sites, people, places,
...): the nouns each holds, the classes of rival types, the roles that fit any kind and the
words that name a whole class.

The head nouns read from pages and titles (`seekgraph.synth.head_nouns`), the kind decided over
them (`seekgraph.synth.kinds`) and the question writers all look nouns up here, so the word
lists stand apart from any one reading of them.
"""

from __future__ import annotations

from seekgraph.common.text import word_set
from seekgraph.synth.phrasing.words import singular

# Classes of nouns, most specific first; a question may name a class when most answers are
# of it but share no one noun ("artists" for singers and bands, "people" for a mix of trades).
CLASSES: dict[str, tuple[str, frozenset[str]]] = {
    "artist": (
        "artists",
        word_set(
            """singer band group duo trio quartet rapper musician singer-songwriter supergroup
            orchestra dj vocalist songwriter artist ensemble choir"""
        ),
    ),
    "show": (
        "shows",
        word_set(
            """series sitcom show programme program serial telenovela miniseries soap drama
            documentary anime cartoon broadcast telecast"""
        ),
    ),
    "book": (
        "books",
        word_set(
            """book novel novella novelette memoir collection anthology biography autobiography
            treatise textbook"""
        ),
    ),
    "work": (
        "works",
        word_set(
            """film movie series sitcom musical play song album opera drama comedy program
            programme show single novel book game video ep soundtrack documentary miniseries
            telenovela anime manga episode special serial poem painting cartoon short sitcom
            production"""
        ),
    ),
    "team": ("teams", word_set("club team franchise side")),
    "venue": (
        "venues",
        word_set(
            """venue arena stadium ground rink track racetrack speedway circuit velodrome
            ballpark field racecourse coliseum amphitheatre amphitheater complex"""
        ),
    ),
    "ship": (
        "ships",
        word_set(
            """ship boat minesweeper corvette submarine destroyer frigate cruiser vessel liner
            ferry battleship warship steamship schooner tanker carrier sloop gunboat"""
        ),
    ),
    "company": (
        "companies",
        word_set(
            """company corporation firm conglomerate manufacturer business subsidiary bank
            retailer insurer airline brewery holding utility operator provider developer
            multinational enterprise distributor supplier chain carmaker automaker"""
        ),
    ),
    "church": (
        "churches",
        word_set("church cathedral basilica chapel abbey priory minster kirk"),
    ),
    "school": (
        "schools",
        word_set(
            "school university college academy institute seminary conservatory polytechnic "
            "institution"
        ),
    ),
    "site": (
        "sites",
        word_set(
            """house church building mill home hotel castle ruin ringfort residence farmstead
            site bridge museum hall tower cemetery monument memorial lighthouse fort mansion
            cathedral chapel temple mosque palace farm barn courthouse theatre theater
            basilica abbey priory shrine synagogue lodge library gristmill mound store
            landmark skyscraper plantation property cairn motte barrow tomb dolmen henge
            hillfort monastery parsonage structure estate station depot"""
        ),
    ),
    "event": (
        "events",
        word_set("race edition competition tournament championship event match cup contest"),
    ),
    "aircraft": (
        "aircraft",
        word_set("aircraft seaplane floatplane fighter bomber airliner airplane helicopter"),
    ),
    "mountain": ("mountains", word_set("mountain peak stratovolcano volcano summit hill massif")),
    "person": (
        "people",
        word_set(
            """person man woman curler commander actor actress athlete author bishop boxer businessman
            businesswoman captain cardinal chairman chancellor character chef coach comedian
            composer conductor cricketer cyclist dancer defender designer diplomat director
            driver economist editor engineer entertainer entrepreneur executive farmer
            footballer forward general goalkeeper golfer governor guard gymnast host jockey
            journalist judge jurist king lawyer leader linebacker luger lyricist manager mayor
            member midfielder minister missionary model monarch novelist officer official pastor
            philanthropist philosopher photographer physician physicist pilot pitcher player
            playwright poet politician pope presenter president priest prince princess producer
            professor psychologist publisher quarterback queen racer referee rider rower runner
            sailor saint scholar screenwriter sculptor senator shooter skater skier soldier
            sprinter statesman striker surgeon swimmer teacher tenor theologian trainer umpire
            winger wrestler writer laureate candidate winner champion incumbent nominee
            recipient inductee alumnus student graduate cornerback safety fielder outfielder
            baseman shortstop catcher tackle end back receiver halfback fullback defenceman
            defenseman karateka fencer advocate heir magnate admiral sergeant owner spouse
            veteran campaigner
            architect aviator astronaut explorer inventor activist bowler batsman golfer
            sportsperson skipper mountaineer hurdler representative predecessor successor
            delegate commissioner councillor legislator speaker ambassador barrister solicitor
            servant jumper bobsledder biathlete triathlete decathlete heptathlete skeleton
            founder attorney son daughter billionaire heiress inmate killer murderer rapist
            criminal convict prisoner cleric singer rapper musician singer-songwriter dj
            vocalist songwriter artist titleholder bearer elector holder scorer child grandson
            granddaughter wife
            husband consort duke duchess count countess baron baroness emperor empress
            earl marquess viscount"""
        ),
    ),
    "place": (
        "places",
        word_set(
            """city town village borough municipality country state county area suburb hamlet
            community region district capital place province commune parish township
            neighbourhood neighborhood settlement locality territory department prefecture
            island metropolis division subdivision"""
        ),
    ),
    "food": (
        "dishes",
        word_set(
            """dish food snack pastry bread flatbread cake soup stew dessert sauce cheese
            sausage pudding salad biscuit cookie confection sweet beverage drink"""
        ),
    ),
    "organization": (
        "organizations",
        word_set(
            """organization organisation agency association society foundation charity
            federation institution body"""
        ),
    ),
}
# the class a class's members also belong to (companies and schools are organizations); a
# band is an artist but not a person, so artists are not people (a singer is both by name)
_ALSO = {"company": "organization", "school": "organization"}
# Classes whose members are rival types ("film" and "series", "church" and "house"): a header
# or title naming one member speaks for the class only when most answers are that member.
RIVALS = frozenset(["work", "site", "place", "event"])
# Roles, not kinds: a guest, a winner or a member may be a person, a band or a club, so a
# header naming a role fits answers of any kind ("Guests" of a talk show: actors and bands).
ROLES = word_set(
    """guest winner nominee recipient honoree entrant participant champion runner-up finalist
    member inductee laureate medalist medallist"""
)
# the words that name all of a class of rival types ("monuments" for cairns and ringforts)
GENERAL = {
    "work": word_set("work show production"),
    "site": word_set("site monument landmark property building structure"),
    "place": word_set("place area location locality settlement division subdivision"),
    "event": word_set("event competition"),
}
_PERSON_ENDINGS = ("ist", "ian", "eer", "man", "woman", "smith")


def noun_classes(noun: str) -> tuple[str, ...]:
    """The classes of a noun, most specific first ("singer" → artist, person; "city" → place).

    >>> noun_classes("singer-songwriter"), noun_classes("guitarist"), noun_classes("season")
    (('artist', 'person'), ('person',), ())
    """
    noun = singular(noun.lower())
    last = noun.rsplit("-", 1)[-1]
    found = [name for name, (_, nouns) in CLASSES.items() if noun in nouns or last in nouns]
    if not found and len(last) > 5 and last.endswith(_PERSON_ENDINGS):
        found = ["person"]
    for name in list(found):
        if name in _ALSO and _ALSO[name] not in found:
            found.append(_ALSO[name])
    return tuple(found)
