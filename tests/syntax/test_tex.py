"""TeX's one tokenizer, brace scanner and allow-list (``ankigen.syntax.tex``)."""

from __future__ import annotations

import pytest

from ankigen.syntax import tex


def test_tokens_are_control_words_symbols_and_characters() -> None:
    assert tex.tokens(r"\frac12\,\{x\}\\ \tag*{a}") == [
        "\\frac", "1", "2", "\\,", "\\{", "x", "\\}", "\\\\", " ", "\\tag*", "{", "a", "}",
    ]  # fmt: skip
    assert tex.tokens("x\\") == ["x", "\\"]  # a lone backslash at the end is a token
    assert tex.tokens("\\\n") == ["\\\n"]  # a control symbol may be any character
    assert tex.control_words(r"\alpha\,\log_2 \operatorname*{x}") == [
        "\\alpha", "\\log", "\\operatorname*",
    ]  # fmt: skip


def test_token_at_and_spans_give_places() -> None:
    assert tex.token_at(r"a\beta c", 1) == "\\beta"
    assert tex.token_at("ab", 2) == ""
    spans = [(m.group(), m.start()) for m in tex.token_spans(r"x\alpha y", 1, 8)]
    assert spans == [("\\alpha", 1), (" ", 7)]  # "y" is past the stop


@pytest.mark.parametrize(
    ("text", "at", "end"),
    [
        ("{a}", 0, 2),
        ("x{a{b}c}d", 1, 7),
        (r"{\{}", 0, 3),  # an escaped brace is a character
        (r"{\}}", 0, 3),
        (r"{\\}", 0, 3),  # \\ is a line break: the } after it closes the group
        ("{a", 0, None),
    ],
)
def test_group_end_skips_escaped_braces(text: str, at: int, end: int | None) -> None:
    assert tex.group_end(text, at) == end


@pytest.mark.parametrize(
    ("text", "at", "end"),
    [
        ("{ab}c", 0, 4),
        ("  {ab}c", 0, 6),
        (r"\alpha b", 0, 6),
        ("12", 0, 1),
        ("{a", 0, 2),  # unclosed: to the end
        ("   ", 0, 3),
    ],
)
def test_argument_end_reads_a_group_or_one_token(text: str, at: int, end: int) -> None:
    assert tex.argument_end(text, at) == end


def test_balanced_and_depth_do_not_count_escaped_braces() -> None:
    assert tex.balanced(r"\{x\}") and tex.balanced("{a{b}}") and tex.balanced("")
    assert not tex.balanced("}{") and not tex.balanced("{")
    assert tex.brace_depth(r"\left\{ x \right\}") == 0
    assert tex.brace_depth("{a{b}}{c}") == 2
    # a set written with escaped braces no longer counts toward the depth limit
    assert tex.brace_depth(r"\{" * 50 + "x" + r"\}" * 50) == 0


def test_the_allow_list_holds_no_dangerous_command() -> None:
    assert {"frac", "alpha", "log", "text", "begin"} <= tex.COMMANDS
    assert not [word for word in tex.COMMANDS if tex.is_dangerous("\\" + word)]
    for word in ("\\href", "\\def", "\\newcommand", "\\DeclareMathOperator", "\\htmlClass"):
        assert tex.is_dangerous(word)
        assert word[1:] not in tex.COMMANDS
    assert "aligned" in tex.ENVIRONMENTS


@pytest.mark.parametrize(
    ("formula", "relation"),
    [
        ("a = b", True),
        (r"T \approx 2", True),
        (r"a \neq* b", True),  # a star after the word changes nothing
        (r"x \le y", True),
        (r"x \\le y", False),  # a line break, then the letters "le"
        (r"a \> b", False),  # \> is a medium space
        (r"\bar{x}", False),
        (r"\nearrow", False),  # a longer word that starts like \ne
    ],
)
def test_has_relation_reads_tokens(formula: str, relation: bool) -> None:
    assert tex.has_relation(formula) is relation


@pytest.mark.parametrize(
    ("formula", "one"),
    [
        ("k", True),
        (r"\eta", True),
        ("T_{comm}", True),
        ("T _ { 1 }", True),
        ("T_1", True),
        ("π", True),
        ("ab", False),
        ("T_{1 2}", False),
        ("T_12", False),
        (r"\operatorname*", False),
        (r"\π", False),  # a control symbol, not a word
        ("k ", False),
        ("2", False),
        ("_", False),
        ("", False),
    ],
)
def test_is_one_symbol(formula: str, one: bool) -> None:
    assert tex.is_one_symbol(formula) is one


def test_without_spacing_removes_spacing_tokens_only() -> None:
    assert tex.without_spacing(r"a\,b\quad c~d\qquadx") == r"ab cd\qquadx"
    assert tex.without_spacing(r"\\,k") == r"\\,k"  # a line break, then a comma


def test_arguments_gives_each_named_commands_group() -> None:
    names = frozenset({"\\text", "\\mbox"})
    assert tex.arguments(r"a\text {x {y {z}}}b\mbox{w}", names) == [
        (1, 18, "x {y {z}}"),
        (19, 27, "w"),
    ]
    assert tex.arguments(r"\textbf{x}\text*{y}\\text{z}\text{\}", names) == []


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("\\RR", True),
        ("\\RR*", False),
        ("\\R R", False),
        ("\\,", False),
        ("RR", False),
        ("", False),
    ],
)
def test_is_command_name(name: str, ok: bool) -> None:
    assert tex.is_command_name(name) is ok
