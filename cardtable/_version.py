"""The cardtable version, one line that the package, its records and its build read."""

__version__ = "0.1.0"
