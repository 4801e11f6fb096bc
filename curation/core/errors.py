"""Errors typed by how much they stop, so the CLI and flows can react without parsing messages.

- ``InputError``: the user's input is unusable (bad file, bad flag). The CLI prints it on one line, exit 2.
- ``FetchError``: a download failed after its retries; names the URL.
- ``ConfigError``: the catalog or a setting is wrong; names the file and the key.
"""

from __future__ import annotations


class CurationError(Exception):
    """Base of every error this project raises on purpose."""


class InputError(CurationError):
    pass


class FetchError(CurationError):
    pass


class ConfigError(CurationError):
    pass
