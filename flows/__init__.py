"""Prefect flows that wire the library stages of ``curation``; each flow is also a ``kmmlu`` command."""

import os

# Prefect's temporary local server (used when no PREFECT_API_URL is set) gives up after 20 s by default,
# which a loaded 2-core machine can exceed; its telemetry only adds "database is locked" noise.
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
