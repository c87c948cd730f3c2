"""Comparison: speedups and ratios of every arm against a baseline, their renderings, Pareto, record diff."""
