"""`python -m seekgraph` runs the CLI (as the `seekgraph` script does)."""

from seekgraph.cli import main

main()
