"""The plain rule by which a relation name becomes a phrase: an attribute a question asks for
(`attribute_phrase`) or a clue about one entity (`condition_phrase`).

The relation name a header maps to becomes a noun phrase by one of two rules:

- a past participle ("born", "founded", "released", "located") is a verb: *when* or *where*
  they were born, by the kind of its values (years and dates: when; places: where);
- a noun phrase stays a noun: *their country*, *their 2012 population rank*.

`seekgraph.synth.phrasing.attributes.phrase_attribute` says a header by this rule when it has no
reading of its own for it; a clue says its header the same way ("who was born in 1954"), so the
rule stands apart from the readings of headers a question does not ask.

>>> attribute_phrase("born", {"year"})
'the year they were born'
>>> condition_phrase("country", "United Kingdom", "entity")
'whose country is United Kingdom'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from seekgraph.synth.phrasing.attribute_words import (
    ACTIVE,
    IRREGULAR,
    PARTICLES,
    PERSON_VERBS,
    PLURAL_ONLY,
    UNITS,
    WHERE_PARTICIPLES,
)
from seekgraph.synth.phrasing.words import (
    PREPOSITIONS,
    participle,
    relation_words,
    singular,
    values_are,
)


def _verb(words: str, dated: bool = False) -> tuple[str, str] | None:
    """(unit, verb phrase) when `words` end in a participle: 'year introduced' → ('year',
    'were introduced'), 'died' → ('', 'died'); else None. After 'year' or 'date', or when the
    values are dates (`dated`), any '-ed' word counts ('year designated', 'Reopened')."""
    parts = words.split()
    after_unit = len(parts) > 1 and parts[0].lower() in UNITS
    # a phrasal verb's particle after the participle ("Paid off", "Laid down"): the same verb
    phrasal = len(parts) > 1 and parts[-1].lower() in PARTICLES
    verb = parts[-2] if phrasal else (parts[-1] if parts else "")
    alone = len(parts) == (2 if phrasal else 1)
    irregular = phrasal and verb.lower() in IRREGULAR  # "paid", "laid": no "-ed"
    if not parts or not (irregular or participle(verb, after_unit or (dated and alone))):
        return None
    unit = parts[0].lower() if after_unit else ""
    rest = " ".join(parts[1:] if unit else parts)
    return unit, rest if verb.lower() in ACTIVE else f"were {rest}"


def attribute_phrase(name: str, value_kinds: Iterable[str] = ()) -> str:
    """What a question asks for one attribute: 'their country', 'the year they were born'.

    `name` is a relation name or a header's words (`label`).

    >>> attribute_phrase("year introduced", {"year"})
    'the year they were introduced'
    >>> attribute_phrase("paid off", {"date"}), attribute_phrase("laid down", {"year"})
    ('the date they were paid off', 'the year they were laid down')
    """
    words = relation_words(name)
    kinds = set(value_kinds)
    verb = _verb(words, values_are(kinds, {"year", "date"}))
    if verb is None:
        if words.split()[-1].lower() in PREPOSITIONS:
            return f'the "{words}" column'  # 'Drafted to', 'Originally by': no noun to name
        return f"their {words}"
    unit, phrase = verb
    last = words.split()[-1].lower()
    if unit in ("place", "where") or (
        not unit and (last in WHERE_PARTICIPLES or values_are(kinds, {"entity", "text"}))
    ):
        return f"where they {phrase}"
    if unit in ("year", "years", "date", "dates"):
        return f"the {unit} they {phrase}"
    return f"the {'year' if values_are(kinds, {'year', 'number'}) else 'date'} they {phrase}"


def condition_phrase(name: str, value: str, value_kind: str) -> str:
    """A clue about one entity: 'whose country is United Kingdom', 'who was born in 1954';
    a bare year or date column dates the row, not the thing ("the athlete whose date is April
    28, 2002" is no description): 'that is listed with the date April 28, 2002'.

    >>> condition_phrase("date", "April 28, 2002", "date")
    'that is listed with the date April 28, 2002'
    >>> condition_phrase("contents", "6 gold torcs", "text"), condition_phrase("status", "x", "text")
    ('whose contents are 6 gold torcs', 'whose status is x')
    >>> condition_phrase("acronyms", "IFAD", "text"), condition_phrase("owners", "A and B", "text")
    ('whose acronym is IFAD', 'whose owners are A and B')
    """
    words = relation_words(name)
    if words.lower() in ("year", "date", "season") and value_kind in ("year", "date", "text"):
        return f"that is listed with the {words.lower()} {value}"
    verb = _verb(words, value_kind in ("year", "date"))
    last = words.split()[-1].lower()
    if verb is None:
        if last in PREPOSITIONS:
            return f'whose "{words}" column reads {value}'
        one = not re.search(r",| and | & |/", value)
        if one and singular(last) != last and last not in PLURAL_ONLY:
            # "Acronyms: IFAD" names one: "whose acronym is IFAD", not "whose acronyms are"
            words = " ".join([*words.split()[:-1], singular(words.split()[-1])])
            last = singular(last)
        be = "is" if singular(last) == last else "are"
        return f"whose {words} {be} {value}"
    _, phrase = verb
    preposition = "on" if value_kind == "date" else "in"
    who = "who" if last in PERSON_VERBS else "that"
    singular_verb = phrase.replace("were ", "was ", 1) if phrase.startswith("were ") else phrase
    return f"{who} {singular_verb} {preposition} {value}"
