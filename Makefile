# The two commands a newcomer needs (see README.md).
.PHONY: run test bench docs

run:   ## set everything up and run the main job on the default data
	scripts/setup.sh
	.venv/bin/seekgraph pipeline

test:  ## set up what the tests need and run ruff, mypy and pytest against a real Neo4j
	scripts/test.sh

bench: ## run the benchmarks (several minutes each)
	.venv/bin/python -m bench.run

docs:  ## regenerate docs/cli.md from --help and README's pipeline table from the last `make run`
	.venv/bin/python scripts/gen_cli_docs.py
	.venv/bin/python scripts/gen_readme_numbers.py out/pipeline-summary.json
