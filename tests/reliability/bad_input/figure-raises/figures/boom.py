"""A figure that fails."""


def draw(fig, formulas):
    values = {}
    return values["missing"]
