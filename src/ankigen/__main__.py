"""Allow ``python -m ankigen``."""

from ankigen.cli import run

if __name__ == "__main__":
    run()
