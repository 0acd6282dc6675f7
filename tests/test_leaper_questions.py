"""Question templates and the checked paraphrase (synth.leaper.questions), with the real
packaged SmolLM2 as the paraphrasing backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from seekgraph.synth.leaper.questions import (
    asked_words,
    basic_question,
    paraphrase,
    paraphrase_keeps,
    quoted_names,
)
from seekgraph.synth.phrasing.tables import TableRef


def test_the_keep_check() -> None:
    template = basic_question(
        TableRef("Booker Prize", "Winners"), "authors", ["country", "year"], {"year": {"year"}}
    )
    keep = [*quoted_names(template), *asked_words(["country", "year"], {})]
    assert keep == ["Booker Prize", "Winners", "country", "year"]
    assert paraphrase_keeps(
        "List the authors of the Booker Prize Winners by country and year", keep
    )
    assert not paraphrase_keeps("List the Booker Prize winners by year", keep)  # country dropped


@pytest.mark.slow
def test_a_real_paraphrase_is_kept_only_when_it_keeps_everything(smollm2_checkpoint: Path) -> None:
    """Whatever the small model writes, the task gets either its rewording with every table
    name and asked attribute, marked with the backend's name, or the template, marked
    ``template``."""
    from seekgraph.common.llm.transformers_backend import TransformersBackend

    backend = TransformersBackend(smollm2_checkpoint)
    template = basic_question(
        TableRef("List of tallest dams", "Existing"),
        "dams",
        ["country", "height", "river"],
        {},
    )
    keep = asked_words(["country", "height", "river"], {})
    text, source = paraphrase(template, backend, keep)
    assert source in ("template", backend.name)
    if source == "template":
        assert text == template
    else:
        assert paraphrase_keeps(text, [*quoted_names(template), *keep])
    assert paraphrase(template, None, keep) == (template, "template")
