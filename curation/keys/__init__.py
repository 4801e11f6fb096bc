"""Official answer keys, read as published, into one typed model (see ``model`` for conventions)."""

from curation.keys.model import AnswerKey, KeyEntry, normalise_form
from curation.keys.reader import read_key

__all__ = ["AnswerKey", "KeyEntry", "normalise_form", "read_key"]
