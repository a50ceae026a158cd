"""Content is untrusted: no script reaches a card, no file outside the content folder is
read, no code runs except figure scripts from the figures folder, and checks never run code.

Each case is a small markdown source built in a fresh project; the fields of
every note in the built deck are parsed as HTML and must hold only an
allow-list of tags and attributes, no event handler and no ``javascript:`` URL.
"""

from __future__ import annotations

import html
import os
import re
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.reliability.support import deck_rows, note_fields, run_cli

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)

ALLOWED_TAGS = {
    "p",
    "em",
    "strong",
    "code",
    "pre",
    "ul",
    "ol",
    "li",
    "blockquote",
    "a",
    "img",
    "br",
    "hr",
    "h3",
    "h4",
    "h5",
    "h6",
    "span",
    "div",
    "del",
    "s",
    "sup",
    "sub",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
}
ALLOWED_ATTRIBUTES = {"class", "src", "alt", "href", "title", "start", "style"}
SAFE_URL = re.compile(r"^(https?:|mailto:|#|[^:]*$)", re.IGNORECASE)


class _Live(HTMLParser):
    """Collects every tag and attribute a browser would see as markup."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            self.problems.append(f"tag <{tag}>")
        for name, value in attrs:
            if name.startswith("on") or name not in ALLOWED_ATTRIBUTES:
                self.problems.append(f"attribute {name}= on <{tag}>")
            if name in ("href", "src") and value is not None:
                url = re.sub(r"[\x00-\x20]", "", html.unescape(value))
                if not SAFE_URL.match(url):
                    self.problems.append(f"URL {value!r} on <{tag}>")
                if tag == "img" and (":" in url or "/" in url):
                    self.problems.append(f"image source {value!r} is not a media name")

    handle_startendtag = handle_starttag


def live_problems(field: str) -> list[str]:
    parser = _Live()
    parser.feed(field)
    parser.close()
    problems = parser.problems
    if re.search(r"<\s*script", field, re.IGNORECASE):
        problems.append("raw <script")
    return problems


def _project(tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "img.png").write_bytes(PNG)
    (tmp_path / "content" / "deck.md").write_text(f"# Untrusted\n\n{text}\n", "utf-8")
    (tmp_path / "figures").mkdir()
    return tmp_path


def _build(*extra: str):  # type: ignore[no-untyped-def]
    result = run_cli(["build", "content", "--out", "out", "--figures", "figures", *extra])
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


HTML_CASES = {
    "script in question": "Q <script>alert(1)</script> ::: A",
    "script in answer": "Q ::: A <script>alert(1)</script>",
    "script block in answer": "Q ::: A\n\n<script>\nalert(1)\n</script>",
    "img onerror": "Q ::: <img src=x onerror=alert(1)>",
    "svg onload": "Q ::: <svg onload=alert(1)></svg>",
    "iframe": 'Q ::: <iframe src="javascript:alert(1)"></iframe>',
    "html link javascript": 'Q ::: <a href="javascript:alert(1)">x</a>',
    "markdown link javascript": "Q ::: [x](javascript:alert(1))",
    "markdown link javascript upper case": "Q ::: [x](JaVaScRiPt:alert(1))",
    "markdown link javascript entity": "Q ::: [x](java&#115;cript:alert(1))",
    "markdown link javascript tab": "Q ::: [x](java\tscript:alert(1))",
    "reference link javascript": "Q ::: [x][r]\n\n[r]: javascript:alert(1)",
    "autolink javascript": "Q ::: <javascript:alert(1)>",
    "markdown link vbscript": "Q ::: [x](vbscript:msgbox(1))",
    "markdown link data html": "Q ::: [x](data:text/html;base64,PHNjcmlwdD4=)",
    "markdown image javascript": "Q ::: ![x](javascript:alert(1))",
    "image alt breaks out": 'Q ::: ![x" onerror="alert(1)](img.png)',
    "image title breaks out": 'Q ::: ![x](img.png "t\\" onerror=\\"alert(1)")',
    "link title breaks out": 'Q ::: [x](https://example.com "t\\" onclick=\\"alert(1)")',
    "cloze holding script": "{{c1::<script>alert(1)</script>}} is hidden.",
    "cloze hint breaks out": '{{c1::x::" onmouseover="alert(1)}} is hidden.',
    "mark holding html": "==<img src=x onerror=alert(1)>== is hidden.",
    "callout title": "> [!note] <script>alert(1)</script>\n> Q ::: A",
    "metadata comment": 'Q ::: A <!-- id: x"><script>alert(1)</script>; tags: a -->',
    "html comment trick": "Q ::: A <!--> <script>alert(1)</script> -->",
    "inline math html": "Q ::: $</span><script>alert(1)</script>$",
    "display math html": "Q ::: $$<img src=x onerror=alert(1)>$$",
    "code span html": "Q ::: `<script>alert(1)</script>`",
    "fenced code html": "Q ::: A\n\n```html\n<script>alert(1)</script>\n```",
    "entity-encoded script": "Q ::: &lt;script&gt;alert(1)&lt;/script&gt;",
}


@pytest.mark.parametrize("math", ["mathjax", "image"])
@pytest.mark.parametrize("case", sorted(HTML_CASES))
def test_no_live_markup_in_any_field(
    case: str, math: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, HTML_CASES[case], monkeypatch)
    result = _build("--math", math)
    apkg = project / "out" / "deck.apkg"
    if result.exit_code == 1:
        assert not apkg.exists()
        assert "deck.md:" in result.stderr
        return
    for fields in note_fields(apkg):
        for field in fields:
            assert live_problems(field) == [], field


MATHJAX_CASES = {
    "href javascript": (r"Q ::: $\href{javascript:alert(1)}{x}$", "\\href"),
    "href javascript display": (r"Q ::: $$\href{ javascript:alert(1) }{x}$$", "\\href"),
    "url": (r"Q ::: $\url{javascript:alert(1)}$", "\\url"),
    "require html": (r"Q ::: $\require{html}\cssId{a}{b}$", "\\require"),
    "class": (r"Q ::: $\class{x}{y}$", "\\class"),
    "style": (r"Q ::: $\style{background:url(javascript:alert(1))}{y}$", "\\style"),
    "macro loop": (r"Q ::: $\def\a{\a}\a$", "\\def"),
}


@pytest.mark.parametrize("math", ["mathjax", "image"])
@pytest.mark.parametrize("case", sorted(MATHJAX_CASES))
def test_tex_commands_that_reach_outside_the_formula_are_refused(
    case: str, math: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anki's MathJax obeys \\href, \\require, \\class...: content may not use them."""
    source, command = MATHJAX_CASES[case]
    project = _project(tmp_path, source, monkeypatch)
    result = _build("--math", math)
    assert result.exit_code == 1, result.output
    assert "content/deck.md:3:7: formula" in result.stderr
    assert command in result.stderr
    assert not (project / "out" / "deck.apkg").exists()


# -- files outside the content folder ------------------------------------------------------

SECRET = b"TOP-SECRET-BYTES-\x89PNG"


def _shipped_media(apkg: Path) -> bytes:
    with zipfile.ZipFile(apkg) as archive:
        return b"".join(archive.read(n) for n in archive.namelist() if n != "collection.anki2")


@pytest.mark.parametrize(
    "reference",
    [
        "../secret.png",
        "img/../../secret.png",
        "%2e%2e/secret.png",
        "..%2fsecret.png",
        "link.png",
        "linkdir/secret.png",
        "/ROOT/secret.png",
        "file:///ROOT/secret.png",
        "\\\\server\\secret.png",
    ],
)
def test_images_cannot_leave_the_content_folder(
    reference: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "secret.png").write_bytes(PNG + SECRET)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.png").write_bytes(PNG + SECRET)
    project = _project(
        tmp_path, f"Q ::: ![x]({reference.replace('ROOT', str(tmp_path)[1:])})", monkeypatch
    )
    (project / "content" / "img").mkdir()
    os.symlink("../secret.png", project / "content" / "link.png")
    os.symlink("../outside", project / "content" / "linkdir")
    result = _build("--math", "mathjax")
    assert result.exit_code == 1, result.output
    assert re.search(r"content/deck\.md:3(:\d+)?: image", result.stderr), result.stderr
    assert not (project / "out" / "deck.apkg").exists()
    cache = project / "out" / ".cache"
    for cached in cache.iterdir() if cache.exists() else []:
        assert SECRET not in cached.read_bytes()


def test_image_inside_through_symlink_to_inside_is_fine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, "Q ::: ![x](alias.png)", monkeypatch)
    os.symlink("img.png", project / "content" / "alias.png")
    result = _build("--math", "mathjax")
    assert result.exit_code == 0, result.output
    assert PNG in _shipped_media(project / "out" / "deck.apkg")


# -- figure scripts: only from the figures folder ------------------------------------------


def _sentinel_script(path: Path) -> None:
    """A script whose run shows in the build's messages (a figure may not write a file)."""
    path.write_text(
        "def draw(fig, formulas):\n    raise RuntimeError('SENTINEL drew')\n",
        "utf-8",
    )


@pytest.mark.parametrize(
    "figure_id",
    [
        "../evil",
        "../outside/evil",
        "/ROOT/outside/evil",
        "evil/../../evil",
        "..",
        ".evil",
        "%2e%2e/evil",
        "..\\evil",
        "link",
        "sub/evil",
    ],
)
def test_figure_ids_cannot_run_scripts_outside_the_figures_folder(
    figure_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    figure_id = figure_id.replace("ROOT", str(tmp_path)[1:])
    project = _project(tmp_path, f"Q ::: ![x](figure:{figure_id})", monkeypatch)
    (tmp_path / "outside").mkdir()
    for script in (
        tmp_path / "evil.py",
        tmp_path / "outside" / "evil.py",
        project / "evil.py",
        project / "figures" / ".evil.py",
    ):
        _sentinel_script(script)
    (project / "figures" / "sub").mkdir()
    _sentinel_script(project / "figures" / "sub" / "evil.py")
    os.symlink(tmp_path / "outside" / "evil.py", project / "figures" / "link.py")
    result = _build("--math", "mathjax")
    assert result.exit_code == 1, result.output
    assert "content/deck.md:3: unknown figure" in result.stderr
    assert "SENTINEL" not in result.output, "a script outside the figures folder ran"


def test_figure_in_the_figures_folder_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The positive control for the sentinel: a figure that is allowed does run."""
    project = _project(tmp_path, "Q ::: ![x](figure:good)", monkeypatch)
    _sentinel_script(project / "figures" / "good.py")
    result = _build("--math", "mathjax")
    assert result.exit_code == 1, result.output
    assert "figure 'good' failed: RuntimeError: SENTINEL drew" in result.stderr


# -- checks never run code -----------------------------------------------------------------

CHECK_ATTACKS = [
    "assert __import__('os').system('touch SENTINEL') == 0",
    'assert __import__("os").system("touch SENTINEL") == 0',
    "let x = __import__('os').system('touch SENTINEL')",
    'assert eval(\'__import__("os").system("touch SENTINEL")\') == 0',
    'assert exec(\'open("SENTINEL", "w")\') == 0',
    "assert open('SENTINEL', 'w') == 0",
    "assert ().__class__.__base__.__subclasses__() == 0",
    "assert k.__class__ == 0",
    "assert x[0] == 0",
    "assert Symbol('x') == 0",
    'assert sympify(\'__import__("os").system("touch SENTINEL")\') == 0',
    "assert S == 1 where k = __import__('os').system('touch SENTINEL')",
    "assert k < 2 for k in 1..__import__('os').system('touch SENTINEL')",
    "assert lambda: 0 == 0",
    "assert [i for i in ()] == 0",
    "assert 1 == 1; import os; os.system('touch SENTINEL')",
]


@pytest.mark.parametrize("statement", CHECK_ATTACKS)
@pytest.mark.parametrize("block", ["check", "formulas"])
def test_checks_never_run_code(
    statement: str, block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = f"What is S? ::: S = 1.\n\n```{block}\n{statement}\n```"
    project = _project(tmp_path, text, monkeypatch)
    result = run_cli(["check", "content", "--figures", "figures"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr
    assert not (project / "SENTINEL").exists()
    assert not (tmp_path / "SENTINEL").exists()


def test_nothing_is_written_outside_the_output_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, "Q ::: A $x^2$ ![x](img.png)", monkeypatch)
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    result = _build("--math", "image")
    assert result.exit_code == 0, result.output
    after = sorted(p.relative_to(project) for p in project.rglob("*"))
    assert [p for p in after if p not in before and p.parts[0] != "out"] == []
    assert deck_rows(project / "out" / "deck.apkg", "select count() from notes") == [(1,)]


@pytest.mark.parametrize(
    "field",
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        '<a href="javascript:x">',
        '<a href=" java&#115;cript:x">',
        "<svg onload=x>",
        '<img src="https://e.com/x.png">',
        "<iframe></iframe>",
    ],
)
def test_the_detector_sees_live_markup(field: str) -> None:
    """The checker of the tests above is not blind."""
    assert live_problems(field) != []


def test_the_detector_accepts_escaped_text() -> None:
    assert (
        live_problems(
            '<p>&lt;script&gt; <a href="https://e.com">x</a> '
            '<img class="ag-image" src="ag-img-1.png" alt="a"></p>'
        )
        == []
    )
