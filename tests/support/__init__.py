"""Helpers shared by the tests (importable as ``support`` because pytest puts ``tests/`` on ``sys.path``)."""
