"""``python -m cardtable``: the same command line as the ``cardtable`` script."""

from cardtable.cli import main

if __name__ == "__main__":
    main()
