"""Training side: WebClipper state graphs and pruning, datasets, SFT and GRPO on TRL."""
