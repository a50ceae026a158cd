"""Banks for tests of big decks: every kind of item and problem, and the benchmark's."""

from __future__ import annotations

import functools
import importlib.util
import sys

from tests.conftest import ROOT


def bank(sections: int) -> str:
    """A deck of ``sections`` ``##`` sections: every kind of item, checks, and problems
    (a broken separator, a duplicate id across sections, a context error) in several."""
    parts = ["---\nsubdecks: true\ntags: [bank]\n---\n\n# Bank\n\nIntro text.\n"]
    for n in range(sections):
        parts.append(f"\n## Section {n}\n\n")
        parts.append(f"What is ${n}+1$? ::: It is `{n + 1}`. <!-- id: q{n} -->\n\n")
        parts.append(f"```check\nassert `{n + 1}` == {n} + 1\n```\n\n")
        parts.append(f"The {{{{c1::gradient {n}}}}} flows backwards.\n\n")
        parts.append(f"A ==mark {n}== cloze, with $$x_{{{n}}}^2$$ inside.\n\n")
        parts.append(f"> [!question] Callout {n}\n> Why {n}? ::: Because.\n\n")
        if n % 3 == 0:
            parts.append("Broken :::\n\n")
        if n % 5 == 0:
            parts.append("Again ::: a repeated id <!-- id: q0 -->\n\n")
        if n % 7 == 0:
            parts.append(f"Q ::: $$\\frac{{1}}{{2}}$$\n\n$$\ny = {n}\n$$\n\n")
    return "".join(parts)


@functools.cache
def benchmark_bank(items: int) -> str:
    """The benchmark's generated bank (clean under ``check --strict``; a section per 50 items)."""
    spec = importlib.util.spec_from_file_location("ankigen_bench", ROOT / "benchmarks" / "bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    text: str = module.generate_bank(items).text
    return text
