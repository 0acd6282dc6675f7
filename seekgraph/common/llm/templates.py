"""Chat messages → prompt token ids, the one way for every backend that holds a tokenizer.

`apply_chat_template(tokenize=True)` returns a list of ids in older transformers and a
`BatchEncoding` (a dict) in newer ones; asking for the dict and reading ``input_ids`` gives the
same answer in both, where ``len()`` of the dict would count its keys.
"""

from __future__ import annotations

from typing import Any

from seekgraph.common.llm.base import Message


def prompt_ids(
    tokenizer: Any, messages: list[Message], generation_prompt: bool = True
) -> list[int]:
    """The token ids of `messages` rendered by the tokenizer's chat template."""
    encoded = tokenizer.apply_chat_template(
        messages, add_generation_prompt=generation_prompt, tokenize=True, return_dict=True
    )
    return list(encoded["input_ids"])
