"""Exact and near duplicates across forms, versions and benchmarks."""
