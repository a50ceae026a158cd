"""markdown-it rules that ankigen adds to CommonMark, one rule per module."""
