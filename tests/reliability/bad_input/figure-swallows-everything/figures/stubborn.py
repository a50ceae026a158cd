"""A figure that never ends and swallows every exception, the time limit's included."""

import time


def draw(fig, formulas):
    while True:
        try:
            time.sleep(0.01)
        except BaseException:
            pass
