"""A small source graph in the shape of docs/schema.md section 1, for the WebLeaper tests."""

from __future__ import annotations

from tests.scaffolding.source_tables import SourceRow, SourceTable


def _row(anchor: str, *facts: tuple[str, str, str]) -> SourceRow:
    return SourceRow(f"/wiki/{anchor}", anchor.replace("_", " "), list(facts))


def ent(relation: str, target: str) -> tuple[str, str, str]:
    return (relation, "entity", f"/wiki/{target}")


def year(y: str) -> tuple[str, str, str]:
    return ("year", "year", y)


NOBEL = SourceTable(
    "nobel",
    "List of Nobel laureates in Literature",
    "Laureates",
    "Laureate",
    [
        _row(
            "William_Golding",
            year("1983"),
            ent("nationality", "United_Kingdom"),
            ent("language", "English_language"),
        ),
        _row(
            "Nadine_Gordimer",
            year("1991"),
            ent("nationality", "South_Africa"),
            ent("language", "English_language"),
        ),
        _row(
            "Kazuo_Ishiguro",
            year("2017"),
            ent("nationality", "United_Kingdom"),
            ent("language", "English_language"),
        ),
        _row(
            "Orhan_Pamuk",
            year("2006"),
            ent("nationality", "Turkey"),
            ent("language", "Turkish_language"),
        ),
        _row(
            "J._M._Coetzee",
            year("2003"),
            ent("nationality", "South_Africa"),
            ent("language", "English_language"),
        ),
    ],
)
BOOKER = SourceTable(
    "booker",
    "Booker Prize",
    "Winners",
    "Author",
    [
        _row(
            "William_Golding",
            year("1980"),
            ent("nationality", "United_Kingdom"),
            ent("title", "Rites_of_Passage"),
        ),
        _row(
            "Kazuo_Ishiguro",
            year("1989"),
            ent("nationality", "United_Kingdom"),
            ent("title", "The_Remains_of_the_Day"),
        ),
        _row(
            "Nadine_Gordimer",
            year("1974"),
            ent("nationality", "South_Africa"),
            ent("title", "The_Conservationist"),
        ),
        _row(
            "Hilary_Mantel",
            year("2009"),
            ent("nationality", "United_Kingdom"),
            ent("title", "Wolf_Hall"),
        ),
    ],
)
CAPITALS = SourceTable(
    "states",
    "List of sovereign states",
    "Selected countries",
    "Country",
    [
        _row("United_Kingdom", ent("capital", "London"), ent("continent", "Europe")),
        _row("South_Africa", ent("capital", "Pretoria"), ent("continent", "Africa")),
        _row("Turkey", ent("capital", "Ankara"), ent("continent", "Asia")),
    ],
)
TINY = SourceTable(
    "tiny",
    "Tiny table",
    "",
    "Name",
    [_row("Someone", year("2000")), _row("Someone_else", year("2001"))],
)

TABLES = [NOBEL, BOOKER, CAPITALS, TINY]
