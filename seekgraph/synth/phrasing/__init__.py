"""Plain-English pieces of questions, from table headers nobody wrote for sentences.

Headers are written for tables, not sentences ("Born", "Guests", "Team 1", "Pos."). Each module
builds one piece a question is assembled from:

- `words`: the shared grammar (singular and plural, participles, prepositions, lists);
- `header_kind`: the kind of entity a table lists, from its key header or its title;
- `headers`: a header as words of a sentence, and what a question calls a relation;
- `attributes`: an attribute asked for, or a clue about one entity, as a person says it;
- `tables`: how a question names a source table;
- `debris`: the quality gate's check that no header debris reached a finished question.
"""
