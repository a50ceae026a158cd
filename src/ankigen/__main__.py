"""Allow ``python -m ankigen``."""

from ankigen.cli import main

if __name__ == "__main__":
    main()
