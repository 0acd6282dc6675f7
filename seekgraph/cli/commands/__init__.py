"""Click commands; each module is one subcommand group and imports heavy libraries lazily."""
