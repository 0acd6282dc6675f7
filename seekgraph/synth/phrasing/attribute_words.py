"""The words attribute phrasing knows: abbreviations a header may use, the verbs and
participles a header may be, nouns of counts, credits and groups, headers that say nothing on
their own. `seekgraph.synth.phrasing.attributes` turns a header into a phrase with them; a new
header's word goes here, the rule that reads it there.
"""

from __future__ import annotations

WHERE_PARTICIPLES = frozenset(["located", "based", "headquartered", "buried", "held"])

# 'the year they died', not 'were died'; 'the years they competed' of a pageant's entrants
ACTIVE = frozenset(
    ["died", "retired", "debuted", "won", "competed", "played", "participated", "served"]
)

PERSON_VERBS = frozenset(
    [
        "born",
        "died",
        "married",
        "retired",
        "debuted",
        "elected",
        "appointed",
        "drafted",
        "signed",
        "buried",
    ]
)

UNITS = frozenset(["year", "years", "date", "dates", "when", "place", "where"])

PARTICLES = frozenset(["off", "down", "up", "out"])

IRREGULAR = frozenset(["paid", "laid", "set", "shut", "struck", "broken", "taken", "sold"])

# Abbreviations a header uses and the words a person says for them; an abbreviation missing
# here (and any one- or two-letter word) makes the attribute unphrasable, so it is not asked.
ABBREVIATIONS = {
    "pos": "position",
    "grad": "graduation",  # "Grad year" of alumni
    "no": "number",
    "nr": "number",
    "num": "number",
    "#": "number",
    "pts": "points",
    "pt": "points",
    "gp": "games played",
    "conf": "conference",
    "apps": "appearances",
    "app": "appearances",
    "gls": "goals",
    "yr": "year",
    "yrs": "years",
    "pct": "percentage",
    "avg": "average",
    "att": "attendance",
    "dob": "date of birth",
    "abbr": "abbreviation",
    "co": "company",
    "lga": "local government area",
    "ht": "height",
    "wt": "weight",
    "cap": "capacity",
    "pop": "population",
    "est": "established",
    "estd": "established",
    "estab": "established",
    "sqn": "squadron",
    "sqdn": "squadron",
    "dept": "department",
    "govt": "government",
    "approx": "approximate",
    "mgr": "manager",
    "rec": "record",
    "lvl": "level",
    "cat": "category",
    "qual": "qualifying",
    "dia": "diameter",
    "diam": "diameter",
    "nat": "nationality",
    "freq": "frequency",
    "rnd": "round",
    "abbrev": "abbreviation",
}

# abbreviations of more than one word a person says: which one depends on the table ("Dir" of
# a fort is its direction, of a film its director), so the attribute is not asked
UNCLEAR_ABBREVIATIONS = frozenset(["dir", "res", "ref"])

# a difference to another row ("Gap" to pole, "Behind" the winner): meaningless on its own
RELATIVE = frozenset(["gap", "diff", "difference", "behind", "deficit", "interval", "margin"])

# people a row's team or club was, counted ("Winners: 3" in a performance-by-club table)
ROLE_COUNTS = frozenset(
    ["winners", "runners-up", "champions", "finalists", "semi-finalists", "nominees", "runners"]
)

NOTE_WORDS = frozenset(
    ["notes", "note", "comments", "comment", "remarks", "remark", "description", "details"]
)

# a header that is a deed and what it was done to ("Held record", "Won title"): when they did it
DEED_VERBS = frozenset(["held", "won", "set", "broke", "lost"])

DEED_OBJECTS = frozenset(["record", "title", "crown", "belt", "championship"])

SPAN_WORDS = {
    "start": "the year they started",
    "started": "the year they started",
    "end": "the year they ended",
    "ended": "the year they ended",
    "ends": "the year they end",
}

PAST_VERBS = frozenset(
    [
        "began",
        "became",
        "joined",
        "left",
        "entered",
        "moved",
        "started",
        "ended",
        "served",
        "took",
        "assumed",
    ]
)

SYMBOL_WORDS = {"%": "percent", "€": "euros", "$": "dollars", "£": "pounds"}

ACRONYM_CODES = frozenset(["icao", "iata", "faa", "isbn", "issn", "iso", "fips", "nrhp"])

DETERMINERS = frozenset(["this", "that", "these", "those", "the", "a", "an", "his", "her", "its"])

IRREGULAR_PAST = {
    "written": "wrote",
    "sung": "sang",
    "drawn": "drew",
    "taken": "took",
    "shown": "showed",
    "given": "gave",
    "chosen": "chose",
    "driven": "drove",
    "ridden": "rode",
    "beaten": "beat",
    "won": "won",
    "built": "built",
    "made": "made",
    "held": "held",
    "led": "led",
    "sold": "sold",
    "bought": "bought",
    "run": "ran",
}

# a header that is an adjective alone: the noun it qualified is in another row of the header
BARE_ADJECTIVES = frozenset(
    [
        "current",
        "original",
        "former",
        "previous",
        "other",
        "new",
        "old",
        "active",
        "present",
        "next",
        "last",
        "first",
        "overall",
        "general",
        "primary",
        "starring",
        "featuring",
    ]
)

COUNTED_LOSSES = {
    "dead": "how many died",
    "deaths": "how many died",
    "killed": "how many were killed",
    "wounded": "how many were wounded",
    "injured": "how many were injured",
    "casualties": "how many casualties there were",
}

# groups of people a column measures something for ("Men", "Women" of a life-expectancy table)
GROUPS = frozenset(["men", "women", "male", "female", "males", "females", "boys", "girls"])

# headers that already name a time: "Length: 2:55" is their length, not "their length time"
TIME_NOUNS = frozenset(["time", "times", "length", "duration", "runtime", "running", "lap time"])

SCORE_HEADERS = frozenset(["score", "scores", "result", "results", "final", "aggregate", "agg"])

# a placing beside the key column's ("Second", "Third" of a winners table): another entity of the
# same race, not a fact about the row's winner
PLACINGS = frozenset(
    ["second", "third", "fourth", "runner-up", "runners-up", "second place", "third place"]
)

# participles that qualify the noun after them ("Estimated population", "Installed capacity"):
# the header is a noun phrase, not a verb
ADJECTIVAL = frozenset(
    [
        "estimated",
        "projected",
        "expected",
        "reported",
        "registered",
        "combined",
        "adjusted",
        "confirmed",
        "licensed",
        "scheduled",
        "proposed",
        "planned",
        "installed",
        "rated",
        "enrolled",
        "authorized",
        "authorised",
    ]
)

# a credit named by its craft in film tables ("Direction: Puttanna Kanagal"): the person's role
CREDITS = {
    "direction": "director",
    "directed": "director",
    "music direction": "music director",
    "screenplay": "screenwriter",
    "cinematography": "cinematographer",
    "lyrics": "lyricist",
    "choreography": "choreographer",
    "editing": "editor",
}

# measures given in two units ("Height metres / feet"): the units say how, not what
SPELLED_UNITS = frozenset(
    [
        "metres",
        "meters",
        "metre",
        "meter",
        "feet",
        "foot",
        "miles",
        "kilometres",
        "kilometers",
        "km",
        "mi",
        "m",
        "ft",
        "kg",
        "lb",
        "lbs",
        "pounds",
        "kilograms",
        "inches",
        "cm",
    ]
)

# plural nouns of amounts, not of things counted ("Sales: 1,200,000" are their sales)
AMOUNTS = frozenset(
    [
        *["points", "percent", "dollars", "sales", "earnings", "revenues", "assets", "profits"],
        *["proceeds", "winnings", "receipts", "savings", "funds", "grosses", "totals"],
    ]
)

# a header that is a verb of the row's thing ("Carries" of a bridge, "Serves" of an airport)
THIRD_PERSON = {
    "carries": "what they carry",
    "crosses": "what they cross",
    "serves": "what they serve",
    "connects": "what they connect",
    "spans": "what they span",
    "replaces": "what they replace",
    "replaced": "what they replaced",
}

# headers of a seat's changes (every United States Congress article has such tables) and other
# headers no reader says as "their <header>": what a person asks instead
SAID = {
    "vacator": "who left the seat",
    "regular season": "the season",  # "Regular season: 2011" of a passing record
    "last final won": "the year they last won the final",  # "Last final won: 1981" of a club
    "last final lost": "the year they last lost the final",
    # a prize table's "Nominees" beside its winner: the others nominated that year
    "nominees": "the other nominees",
    "other nominees": "the other nominees",
    "elevator": "who elevated them",  # a cardinal's "Elevator": the pope who made them one
    "name origin": "the origin of their name",  # a lunar range's "Name Origin: The Alps"
    "years active": "the years they were active",
    "times in list": "how many times they are in the list",  # a money league's summary
    "year active": "the years they were active",
    "origin of name": "the origin of their name",
    "team signed": "the team that signed them",  # a draft pick's "Team signed: Utah Jazz"
    "external link": "their website",  # "External link: drd.co.za"
    "external links": "their website",
    "website": "their website",
    # the age a page computes beside a date of birth is dropped from the value (`clean_text`)
    "birth date and age": "their date of birth",
    "date of birth and age": "their date of birth",
    "reason for change": "the reason for the change",
    "reason for vacancy": "the reason for the vacancy",
    "reason for leaving": "the reason they left",
    "expected completion": "when they are expected to be completed",
    "expected opening": "when they are expected to open",
    "point": "their points",
    "birth": "when they were born",
    "death": "when they died",
    "foundation": "when they were founded",
    "end of recognition": "when their recognition ended",
    # a column headed by a script gives the name written in it ("Chosŏn'gŭl: 평양")
    "chosŏn'gŭl": "their name in Chosŏn'gŭl",
    "hangul": "their name in Hangul",
    "hancha": "their name in Hanja",
    "hanja": "their name in Hanja",
    "kanji": "their name in kanji",
    "hanzi": "their name in Chinese characters",
    "pinyin": "their name in pinyin",
    "cyrillic": "their name in Cyrillic",
    "year-to-date": "the year-to-date total",  # a running sum beside each row's own amount
    "year to date": "the year-to-date total",
    "ytd": "the year-to-date total",
}

# acronyms a reader knows without being told; any other capitalised run of three or more letters
# in a header ("OWGR pts") is an abbreviation the question would leave unexplained
KNOWN_ACRONYMS = frozenset(
    [
        "NFL",
        "NBA",
        "NHL",
        "MLB",
        "MLS",
        "AFL",
        "NCAA",
        "PGA",
        "ATP",
        "WTA",
        "UEFA",
        "FIFA",
        "IOC",
        "GDP",
        "HDI",
        "GNP",
        "USA",
        "UK",
        "US",
        "EU",
        "UN",
        "NATO",
        "TV",
        "BBC",
        "CEO",
        "MVP",
        "IATA",
        "ICAO",
        "FAA",
        "ISBN",
        "ISSN",
        "ISO",
        "FIPS",
        "NRHP",
        "UTC",
    ]
)

# facts of a row's event, not of its thing: a tournament in a player's finals has no outcome or
# opponent of its own ("their outcome" of a tournament), a talk show's guest no co-hosts: "the
# outcome", "the opponent in the final", "the co-hosts"
EVENT_WORDS = frozenset(
    [
        *["outcome", "result", "opponent", "opponents", "partner", "partners", "surface"],
        *["round", "host", "hosts", "co-host", "co-hosts", "role", "roles", "job", "credit"],
        *["contribution", "contributions"],  # a filmography's "Contribution: Director, Writer"
    ]
)

# adverbs between a unit and its participle ("Date first opened"): no subject of its own
ADVERBS = frozenset(["first", "last", "later", "also", "re", "since", "then", "now"])

YEAR_HEADERS = {
    "year": "the year",
    "years": "the years",
    "season": "the season",
    "seasons": "the seasons",
    "date": "the date",
}

# nouns a header may give in the singular for a count of them ("Match: 127", "Goal: 13")
COUNT_NOUNS = frozenset(
    [
        "goal",
        "match",
        "game",
        "appearance",
        "cap",
        "win",
        "loss",
        "draw",
        "assist",
        "try",
        "wicket",
        "episode",
        "seat",
        "floor",
        "member",
        "passenger",
        "visitor",
        "student",
        "employee",
    ]
)

CODED_HEADERS = frozenset(["type", "types", "status", "category", "kind", "map", "key"])

# headings over a group of roles ("Main cast", "Recurring cast", "Starring"): in a table of a
# series' actors the column under them holds the episodes each one is in, not cast members
ROLE_GROUPS = frozenset(["cast", "starring", "recurring", "guest", "guests"])

# nouns that are plural only: one value is still "are" ("whose contents are 6 gold torcs")
PLURAL_ONLY = frozenset(
    [
        "contents",
        "headquarters",
        "lyrics",
        "remains",
        "arms",
        "earnings",
        "goods",
        "premises",
        "species",
        "series",
        "means",
        "news",
        "colours",
        "colors",
        "clothes",
        "surroundings",
    ]
)
