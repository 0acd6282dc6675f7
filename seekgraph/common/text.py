"""Text normalisation for matching names and values (never for display)."""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"\w+")


def normalize(text: str) -> str:
    """Lowercase, strip accents and punctuation, collapse spaces (for matching, not display).

    >>> normalize("Zürich_(city), 1,954")
    'zurich city 1 954'
    """
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return " ".join(_WORD.findall(text.replace("_", " ")))


def titled(title: str, text: str) -> str:
    r"""A page's text as the page reads: it begins with its title (a line of its own unless the
    text already starts with it).

    >>> titled("Booker Prize", "The Booker Prize is ...")
    'Booker Prize\nThe Booker Prize is ...'
    >>> titled("Booker Prize", "Booker Prize is ...")
    'Booker Prize is ...'
    """
    if not title or text.startswith(title):
        return text
    return f"{title}\n{text}" if text else title


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of `text` as a set (how word lists are written).

    >>> sorted(word_set("of in  on"))
    ['in', 'of', 'on']
    """
    return frozenset(text.split())
