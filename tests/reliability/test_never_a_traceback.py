"""No input, however broken, crashes the tool: property tests on mutated and random markdown.

Mutations of the parser fixtures (inserted, deleted and duplicated characters
and lines; injected ``:::``, ``$``, ``{{c1::``, ``==``, ``>``, backticks,
``<!--``, NUL bytes and invalid UTF-8) go through ``parse_file`` and through the
CLI's ``check`` and ``build --math mathjax``. Parsing must return diagnostics;
the CLI must exit 0, 1 or 2 without an exception of its own and without
printing a traceback.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ankigen.parse import parse_file
from tests.reliability.support import run_cli

FIXTURES = sorted((Path(__file__).parent.parent / "parse" / "fixtures").glob("*.md"))
SEEDS = [p.read_bytes() for p in FIXTURES]

TOKENS = [
    b":::",
    b" ::: ",
    b"$",
    b"$$",
    b"\\$",
    b"{{c1::",
    b"{{c2::x::hint}}",
    b"}}",
    b"{{c::",
    b"==",
    b"==x==",
    b">",
    b"> [!recall] ",
    b"> [!formula]\n> ",
    b"`",
    b"```",
    b"```check\n",
    b"```formulas\nlet x = 1\n```\n",
    b"<!--",
    b"-->",
    b"<!-- id: a; tags: b -->",
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\n",
    b"\n\n",
    b"---\n",
    b"# ",
    b"## ",
    b"![x](",
    b")",
    b"figure:",
    b"\\frac{",
    b"{",
    b"}",
    b"<script>",
    b"\r",
    b"\t",
    b"\\",
    b"*",
    b"_",
    b"|",
]

#: ``ANKIGEN_FUZZ_SCALE=20 pytest tests/reliability/test_never_a_traceback.py`` explores
#: twenty times as many examples, randomly; the default run is fixed and fast.
SCALE = int(os.environ.get("ANKIGEN_FUZZ_SCALE", "1"))
SETTINGS = settings(
    max_examples=300 * SCALE,
    deadline=None,
    derandomize=SCALE == 1,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A fixture file with a few random edits."""
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["insert", "delete", "duplicate", "line", "dupline", "byte"]))
        at = draw(st.integers(0, len(data)))
        if op == "insert":
            data[at:at] = draw(st.sampled_from(TOKENS))
        elif op == "delete":
            data[at : at + draw(st.integers(1, 20))] = b""
        elif op == "duplicate":
            data[at:at] = data[at : at + draw(st.integers(1, 20))]
        elif op == "byte":
            data[at:at] = bytes([draw(st.integers(0, 255))])
        else:
            lines = bytes(data).split(b"\n")
            index = draw(st.integers(0, max(0, len(lines) - 1)))
            if op == "line":
                del lines[index]
            else:
                lines.insert(index, lines[index])
            data = bytearray(b"\n".join(lines))
    return bytes(data)


random_markdown = st.lists(
    st.one_of(st.sampled_from(TOKENS), st.text(max_size=8).map(lambda s: s.encode("utf-8"))),
    max_size=40,
).map(b"".join)

any_input = st.one_of(mutated(), random_markdown)

#: Inputs that once crashed the tool, kept as explicit examples.
KNOWN_CRASHERS = [
    b":::==x==",  # a ==mark== in a reveal answer had no cloze number: KeyError
    b"Q ::: A ==x==\n",
    b"{{c1::a}} ::: ==x==\n",
]


def known(test: Callable[..., None]) -> Callable[..., None]:
    """The test, always run on every input that once crashed."""
    for data in KNOWN_CRASHERS:
        test = example(data=data)(test)
    return test


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="ankigen-fuzz-") as tmp:
        (Path(tmp) / "content").mkdir()
        yield Path(tmp)


_counter = itertools.count()


def _write(workdir: Path, data: bytes) -> Path:
    """A fresh content file (a new folder each time: builds never see an earlier example)."""
    folder = workdir / "content" / f"case{next(_counter)}"
    folder.mkdir()
    path = folder / "fuzz.md"
    path.write_bytes(data)
    return path


def _assert_clean(result: Result, data: bytes) -> None:
    assert result.exit_code in (0, 1, 2), (data, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        data,
        repr(result.exception),
    )
    assert "Traceback" not in result.stderr, (data, result.stderr)


@SETTINGS
@known
@given(data=any_input)
def test_parse_never_raises(workdir: Path, data: bytes) -> None:
    path = _write(workdir, data)
    result = parse_file(path, path.parent, "fuzz.md")
    for diagnostic in result.diagnostics:
        assert diagnostic.file == "fuzz.md"
        assert diagnostic.line >= 1
        assert diagnostic.message.strip()
    if result.deck is not None:
        for item in result.deck.items:
            assert item.line >= 1


@settings(SETTINGS, max_examples=150 * SCALE)
@known
@given(data=any_input)
def test_check_cli_exits_cleanly(workdir: Path, data: bytes) -> None:
    path = _write(workdir, data)
    result = run_cli(["check", str(path), "--figures", str(workdir / "figures")])
    _assert_clean(result, data)


@settings(SETTINGS, max_examples=100 * SCALE)
@known
@given(data=any_input)
def test_build_cli_exits_cleanly(workdir: Path, data: bytes) -> None:
    path = _write(workdir, data)
    out = path.parent / "out"
    result = run_cli(
        [
            "build",
            str(path),
            "--out",
            str(out),
            "--math",
            "mathjax",
            "--figures",
            str(workdir / "figures"),
        ]
    )
    _assert_clean(result, data)
    if result.exit_code == 0:
        assert (out / "fuzz.apkg").is_file()
    else:
        assert not (out / "fuzz.apkg").exists()
