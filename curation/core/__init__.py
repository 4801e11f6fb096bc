"""The record and its plumbing: the exam item, rejects, typed errors, atomic I/O, locks, matching keys and
every output version."""
