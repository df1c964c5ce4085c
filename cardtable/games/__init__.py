"""One package per game; each registers itself with ``cardtable.core.register``."""
