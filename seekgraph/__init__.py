"""The top floor: the `seekgraph` command line and the pipeline, the only package that knows every
stage. Nothing imports it."""
