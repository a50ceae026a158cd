"""Allow ``python -m ankigen``."""

from ankigen.cli.app import main

if __name__ == "__main__":
    main()
