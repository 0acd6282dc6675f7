"""Whether a thought of a pruned trajectory reads as a person's, and the rewrite without a model.

A thought kept after pruning (or written by an LLM in its place) must

1. cite no pruned step: no ``step N`` of a removed step, and no back-reference ("what I read
   earlier", "that result") when the step right before it was removed;
2. bring in no entity the kept history has not shown: every name and number in it occurs in the
   question, in the kept steps before it (thoughts, calls, observations) or in its own tool call;
3. read as fluent text: no meta text (``Step 2:``, ``thought:``), no echo of the editing
   instruction ("The following edits ...", "original thought"), no word cut short, and it ends
   a sentence (``.``, ``!`` or ``?``).

`problems` names what a thought fails (empty: it passes). `deterministic_rewrite` removes the
sentences that fail the first two checks and keeps the others verbatim; when nothing is left
it says what the step does in one plain sentence. It needs no model, so it is the default on a
CPU; an LLM candidate is used only when it passes every check (`rewrite.Rewriter`).

>>> fluency_problems("Step 8: thought: I verify Polish people's origin related to the 2018 World W step 9: …")
['meta_text', 'truncated_word', 'no_sentence_end']
>>> deterministic_rewrite("I found the list in step 2. I search for the prize.", (2,), "prize", "search")
'I search for the prize.'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)")
_STEP = re.compile(r"\bsteps?\s+#?(\d+(?:\s*(?:,|and|&|-|to)\s*#?\d+)*)", re.I)
_BACK_REFERENCE = re.compile(
    r"\b(?:(?:earlier|previous|prior|last|above|that|those)\s+"
    r"(?:steps?|search(?:es)?|results?|pages?|visits?|quer(?:y|ies)|attempts?|findings?)"
    r"|what i (?:read|found|saw|searched|checked|visited)\s+(?:earlier|before|previously)"
    r"|as (?:i )?(?:found|seen|read|noted) (?:earlier|before|above))\b",
    re.I,
)
_META = re.compile(
    r"\bsteps?\s+\d+\s*:|\b(?:thought|observation|answer|tool_call|action)\s*:|<\|?\w+\|?>", re.I
)
_ECHO = re.compile(
    r"\b(?:the following (?:edits?|changes?|revisions?|rewrites?)|rewritten thought|"
    r"original thought|removed steps?|revis(?:ed|ions?) (?:of|to) the thought|"
    r"flow of the narrative|here is the (?:rewritten|revised|edited)|as an ai|"
    r"no (?:further |more )?(?:edits?|changes?|revisions?|rewrit\w*)|"
    r"(?:edits?|changes?|revisions?) (?:is |are )?(?:not )?(?:needed|required))\b",
    re.I,
)
# A lone capital letter that is no word of its own ("the 2018 World W step"): a cut-off word.
# "I" and "A" are words; an initial is followed by a full stop.
_CUT_WORD = re.compile(r"\b(?![AI]\b)[A-Z]\b(?![.'’])")
_END = re.compile(r"[.!?][\"'”’)\]]*$")
_NAME = re.compile(
    r"\b[A-Z][\w'’-]*(?:\s+(?:(?:of|the|de|del|da|di|van|von|and|&)\s+)?[A-Z][\w'’-]*)*"
    r"|\b\d[\d,.:/-]*\d\b"
)
# Capitalised words that open a sentence without naming anything.
_PLAIN = frozenset(
    [
        "i",
        "i'll",
        "i'm",
        "i've",
        "i'd",
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "now",
        "next",
        "let",
        "let's",
        "so",
        "first",
        "then",
        "finally",
        "my",
        "we",
        "our",
        "it",
        "its",
        "based",
        "since",
        "to",
        "step",
        "maybe",
        "perhaps",
        "here",
        "there",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "where",
        "when",
        "why",
        "how",
        "after",
        "before",
        "once",
        "with",
        "from",
        "in",
        "on",
        "for",
        "as",
        "if",
        "but",
        "and",
        "or",
        "both",
        "each",
        "all",
        "some",
        "none",
        "no",
        "yes",
        "ok",
        "okay",
        "good",
        "also",
        "still",
        "again",
        "another",
        "one",
        "two",
        "three",
        "looking",
        "reading",
        "searching",
        "checking",
        "given",
        "according",
    ]
)


def sentences(text: str) -> list[str]:
    """The sentences of a thought (split after ``.``, ``!`` or ``?``)."""
    return [s.strip() for s in _SENTENCE.split(text.strip()) if s.strip()]


def cited_steps(text: str) -> set[int]:
    """The step numbers a text names (``step 3``, ``steps 2 and 4``)."""
    return {int(n) for m in _STEP.finditer(text) for n in re.findall(r"\d+", m.group(1))}


def cites_pruned(text: str, removed: Sequence[int]) -> bool:
    """Whether `text` names a removed step (by its turn index or its 0-based step number) or,
    since a thought to rewrite always follows a removed step, refers back to what came before."""
    named = cited_steps(text)
    return bool(named & {*removed, *(r - 1 for r in removed)}) or bool(_BACK_REFERENCE.search(text))


def names(text: str) -> list[str]:
    """The names and numbers a text mentions (capitalised word runs, numbers of two digits or
    more), without the capitalised words that only open a sentence and without step numbers."""
    out = []
    for match in _NAME.finditer(_STEP.sub(" ", text)):  # a step number names nothing
        words = match.group(0).strip(".,;:'’-").split()
        while words and words[0].lower() in _PLAIN:
            words = words[1:]
        if words:
            out.append(" ".join(words))
    return out


def unseen_names(text: str, shown: str) -> list[str]:
    """Names of `text` that the kept history (`shown`) does not contain (case-insensitive)."""
    seen = " ".join(shown.split()).casefold()
    return [n for n in names(text) if " ".join(n.split()).casefold() not in seen]


def fluency_problems(text: str) -> list[str]:
    """What keeps `text` from reading as a person's sentence(s); empty when nothing does."""
    found = []
    if len(text.split()) < 3:
        found.append("too_short")
    if _META.search(text):
        found.append("meta_text")
    if _ECHO.search(text):
        found.append("instruction_echo")
    if _CUT_WORD.search(text):
        found.append("truncated_word")
    if not _END.search(text.strip()):
        found.append("no_sentence_end")
    return found


def problems(text: str, removed: Sequence[int], shown: str) -> list[str]:
    """Every check `text` fails as a thought after pruning (see the module docstring)."""
    found = []
    if cites_pruned(text, removed):
        found.append("cites_pruned_step")
    if unseen_names(text, shown):
        found.append("unseen_entity")
    return found + fluency_problems(text)


PLAIN_THOUGHTS = {
    "search": "I search for more information.",
    "visit": "I read the page for what the question asks.",
    "answer": "I have what I need to answer.",
}


def deterministic_rewrite(thought: str, removed: Sequence[int], shown: str, action: str) -> str:
    """`thought` without the sentences that cite a removed step or name what only a removed
    step showed; the other sentences stay verbatim. When none is left, one plain sentence
    saying what the step does (`action`: ``search``, ``visit``, ``answer`` or another tool)."""
    kept = [
        s
        for s in sentences(thought)
        if not cites_pruned(s, removed) and not unseen_names(s, shown) and not _META.search(s)
    ]
    text = " ".join(kept)
    if text and not _END.search(text):
        text += "."
    return text or PLAIN_THOUGHTS.get(action, f"I call {action} next.")


def shown_text(parts: Iterable[str | None]) -> str:
    """The kept history as one text, for `unseen_names`."""
    return "\n".join(p for p in parts if p)
