"""Releases: versioned, reproducible, immutable cuts of the store in the Hugging Face datasets layout."""
