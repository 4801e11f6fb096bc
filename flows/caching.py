"""Task caching for the shard scans, keyed on their inputs (shard versions, item digest, parameters) and the
task's code. Parses are not cached here: each paper's folder holds a completion marker
(``curation.core.markers``), which survives the Prefect result store and knows the versions that made it."""

from __future__ import annotations

from prefect.cache_policies import INPUTS, TASK_SOURCE

CACHED = INPUTS + TASK_SOURCE
