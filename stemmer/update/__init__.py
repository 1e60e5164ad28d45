"""A site's patterns over crawls: `history` (dates, stale flags, pinned roles) and `updater` (`stemmer update`).

Nothing is imported here: analyze stamps and carries over with `history` without loading the updater.
"""
