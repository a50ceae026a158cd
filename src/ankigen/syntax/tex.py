"""TeX as every stage reads it: one tokenizer, one brace scanner, one allow-list.

Tokens. A token is a control word (``\\frac``; a trailing ``*`` belongs to it,
as in ``\\operatorname*``), a control symbol (``\\{``, ``\\,``, ``\\\\``), a lone
``\\`` at the end, or one other character. :data:`TOKEN` is the only
pattern that splits TeX in ankigen: the allow-list, the cloze and ``\\tag``
rewrites of render, the macro expander and preamble reader, the checker's
lexer of quoted formulas and the markdown rule for a ``$`` inside braces all
read TeX through it, so ``\\{`` is an escaped brace for all of them alike.

Braces. :func:`group_end` finds the ``}`` that closes a ``{`` (escaped
braces do not count); :func:`argument_end` reads one macro argument (a
group or one token); :func:`balanced` and :func:`brace_depth` are what the
checks ask of a whole formula.

What a formula shows. The claims reader asks here whether a formula states a
relation (:func:`has_relation`), is one symbol (:func:`is_one_symbol`, after
:func:`without_spacing`), and what its ``\\text{...}`` labels say
(:func:`arguments`); the front matter asks whether a macro's name is one
control word (:func:`is_command_name`).

Allow-list. MathJax obeys commands that reach outside the formula: links
(``\\href``), HTML attributes and styles (``\\class``, ``\\style``), extensions
(``\\require``), and definitions (``\\def``, ``\\newcommand*``,
``\\DeclareMathOperator``, ``\\Newextarrow``...) that change ``\\frac`` for every
later formula on the page, or recurse forever. Content is untrusted, so a
formula may use only the :data:`COMMANDS` and :data:`ENVIRONMENTS` below (in
both math modes: image mode draws with the same MathJax, and every command
here is one it knows, ``tests/render/test_mathjax_engine.py``): symbols,
operators, fonts and layout from MathJax's base, AMS math and AMS symbols
packages, none of which defines, links, styles or loads. :func:`is_dangerous`
names the commands off the list whose refusal says why (a link, a style, a
definition), rather than just "unknown".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: One TeX token: a control word (with its ``*``), a control symbol, a lone
#: ``\\`` at the end, or one other character.
TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|\\$|.", re.S)


def tokens(tex: str) -> list[str]:
    """Split TeX into tokens (control words keep a trailing ``*``, as in ``\\operatorname*``)."""
    return TOKEN.findall(tex)


def token_spans(tex: str, start: int = 0, stop: int | None = None) -> Iterator[re.Match[str]]:
    """The tokens of ``tex[start:stop]`` with their places (``match.start()``, ``match.end()``)."""
    return TOKEN.finditer(tex, start, len(tex) if stop is None else stop)


def token_at(tex: str, at: int) -> str:
    """The token that starts at ``tex[at]`` ('' at the end)."""
    match = TOKEN.match(tex, at)
    return match.group() if match else ""


def command_at(tex: str, at: int) -> str:
    """The token at ``tex[at]``, a control word without its ``*`` (TeX's own reading).

    A starred form is a command followed by ``*``: the macro expander and
    the preamble reader look macros up by this name.
    """
    token = token_at(tex, at)
    return token[:-1] if token.endswith("*") and is_control_word(token) else token


def is_control_word(token: str) -> bool:
    """True for ``\\alpha`` or ``\\tag*``; False for ``\\{``, ``\\,`` or a character."""
    return len(token) > 1 and token[0] == "\\" and token[1].isalpha()


def is_command_name(text: str) -> bool:
    """True when ``text`` is exactly one control word without ``*`` (``\\RR``, not
    ``\\RR*``, ``\\R R`` or ``\\,``): a name a macro can be given."""
    return is_control_word(text) and text.isascii() and command_at(text, 0) == text


def control_words(tex: str) -> list[str]:
    """The control words of ``tex`` in order of appearance (``\\frac``, ``\\alpha``...)."""
    return [t for t in tokens(tex) if is_control_word(t)]


# --- braces -------------------------------------------------------------------


def group_end(tex: str, at: int) -> int | None:
    """The index of the ``}`` that closes the ``{`` at ``tex[at]`` (None: never closed).

    Escaped braces (``\\{``, ``\\}``) are characters, not groups.
    """
    depth = 0
    for match in TOKEN.finditer(tex, at):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth == 0:
                return match.start()
    return None


def group_at(tex: str, at: int) -> tuple[str, int] | None:
    """The text of the group that opens at ``tex[at:]`` (spaces skipped), and the index
    after its ``}``; None when no group opens there or it is never closed."""
    start = skip_space(tex, at)
    if tex[start : start + 1] != "{":
        return None
    end = group_end(tex, start)
    return None if end is None else (tex[start + 1 : end], end + 1)


def skip_space(tex: str, at: int) -> int:
    """The index of the first character at or after ``at`` that is not white space."""
    while at < len(tex) and tex[at].isspace():
        at += 1
    return at


def argument_end(tex: str, at: int) -> int:
    """The index after the macro argument at ``tex[at:]``: a group, or one token.

    White space before it is skipped; an unclosed group runs to the end.
    """
    at = skip_space(tex, at)
    if at >= len(tex):
        return at
    if tex[at] != "{":
        return at + len(token_at(tex, at))
    end = group_end(tex, at)
    return len(tex) if end is None else end + 1


def balanced(tex: str) -> bool:
    """True when the braces of ``tex`` pair up (escaped ``\\{`` and ``\\}`` do not count)."""
    depth = 0
    for token in tokens(tex):
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def brace_depth(tex: str) -> int:
    """How deep ``{`` groups nest in ``tex`` (0 when it has none; ``\\{`` is no group)."""
    depth = deepest = 0
    for token in tokens(tex):
        if token == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif token == "}":
            depth -= 1
    return deepest


# --- what a formula shows ------------------------------------------------------

#: Spacing commands: room between symbols, never a symbol (``\\,`` ``\\;`` ``\\:``
#: ``\\!`` ``\\ `` ``\\quad`` ``\\qquad`` and the tie ``~``).
SPACING = frozenset({"\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad", "~"})

#: What states a relation between two sides: these characters, and these
#: control words (``\\le`` and ``\\leq`` alike; a ``*`` after one is ignored).
RELATION_CHARACTERS = frozenset("=<>≈≠≤≥")
_RELATION_WORDS = "approx ne neq le leq ge geq lt gt sim simeq propto equiv"
RELATION_WORDS = frozenset("\\" + word for word in _RELATION_WORDS.split())


def without_spacing(tex: str) -> str:
    """``tex`` with its :data:`SPACING` tokens removed."""
    if "\\" not in tex and "~" not in tex:
        return tex  # most formulas: nothing to remove, no need to split
    return "".join(token for token in tokens(tex) if token not in SPACING)


def has_relation(tex: str) -> bool:
    """True when ``tex`` holds a relation (``=``, ``<``, ``\\approx``, ``\\leq``...).

    Read token by token: in ``\\\\le`` (a line break, then ``le``) and ``\\=``
    (an accent) no relation is written.
    """
    if "\\" not in tex:
        return not RELATION_CHARACTERS.isdisjoint(tex)  # every token is one character
    for token in tokens(tex):
        if token in RELATION_CHARACTERS or token.rstrip("*") in RELATION_WORDS:
            return True
    return False


def is_one_symbol(tex: str) -> bool:
    """True when ``tex`` is one symbol: a letter or a control word (``k``, ``\\eta``),
    with at most a subscript of one ASCII letter or digit, or of a group of them
    (``T_1``, ``T_{comm}``). White space around ``_`` and inside the group is allowed.
    """
    # After the first token only one-character tokens may follow, so the rest is
    # read character by character (a backslash there is never allowed).
    first = TOKEN.match(tex)
    if first is None or not _is_symbol(first.group()):
        return False
    at = skip_space(tex, first.end())
    if at == len(tex):
        return at == first.end()  # white space after the symbol is no subscript
    if tex[at] != "_":
        return False
    at = skip_space(tex, at + 1)
    if tex.startswith("{", at):
        start = at = skip_space(tex, at + 1)
        while at < len(tex) and _is_ascii_alnum(tex[at]):
            at += 1
        at = skip_space(tex, at) if at > start else len(tex)
        return at == len(tex) - 1 and tex[at] == "}"
    return at == len(tex) - 1 and _is_ascii_alnum(tex[at])


def _is_symbol(token: str) -> bool:
    """A control word without ``*``, or one letter (not a digit, not ``_``)."""
    if is_control_word(token):  # \\π is a control symbol: TOKEN's words are ASCII
        return token.isascii() and not token.endswith("*")
    return token.isalnum() and not token.isdecimal()


def _is_ascii_alnum(token: str) -> bool:
    return token.isascii() and token.isalnum()


def arguments(tex: str, names: frozenset[str]) -> list[tuple[int, int, str]]:
    """Each command of ``names`` (``\\text``, ``\\mbox``...) followed by a group, in order:
    where the command starts, the index after its group, and the group's text.

    A command with no group after it, or an unclosed one, is skipped; groups
    inside a found group are part of its text, not read again.
    """
    found = []
    at = 0
    while at < len(tex):
        start = tex.find("\\", at)
        if start < 0:
            break
        token = token_at(tex, start)
        group = group_at(tex, start + len(token)) if token in names else None
        if group is None:
            at = start + len(token)
        else:
            found.append((start, group[1], group[0]))
            at = group[1]
    return found


# --- the allow-list -----------------------------------------------------------

_GREEK = """
alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa
lambda mu nu xi omicron pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi
omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega varGamma varDelta
varTheta varLambda varXi varPi varSigma varUpsilon varPhi varPsi varOmega digamma
"""

_SYMBOLS = """
aleph beth gimel daleth hbar hslash imath jmath ell wp Re Im partial infty nabla
emptyset varnothing forall exists nexists neg lnot top bot angle measuredangle
sphericalangle triangle triangledown square blacksquare lozenge blacklozenge
bigstar diamondsuit heartsuit clubsuit spadesuit flat natural sharp prime backprime
surd checkmark circledR maltese complement eth mho Finv Game Bbbk ldots cdots vdots
ddots dots dotsb dotsc dotsi dotsm dotso colon vert Vert lvert rvert lVert rVert
langle rangle lceil rceil lfloor rfloor lbrace rbrace lbrack rbrack lgroup rgroup
backslash setminus smallsetminus dagger ddagger S yen
"""

_OPERATORS = """
pm mp times div cdot ast star circ bullet cap cup uplus sqcap sqcup vee wedge land lor
oplus ominus otimes oslash odot bigcirc amalg wr diamond setminus triangleleft
triangleright bigtriangleup bigtriangledown lhd rhd unlhd unrhd dotplus ltimes
rtimes leftthreetimes rightthreetimes curlyvee curlywedge boxplus boxminus boxtimes
boxdot circleddash circledast circledcirc centerdot intercal barwedge veebar
doublebarwedge Cap Cup divideontimes
sum prod coprod int iint iiint iiiint oint bigcap bigcup bigsqcup bigvee bigwedge
bigoplus bigotimes bigodot biguplus intop smallint
log ln lg exp sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth lim
liminf limsup sup inf max min arg det dim gcd hom ker deg Pr injlim projlim varliminf
varlimsup varinjlim varprojlim mod bmod pmod pod operatorname
"""

_RELATIONS = """
le leq ge geq ne neq equiv approx approxeq sim simeq cong propto ll gg lll ggg prec
succ preceq succeq subset supset subseteq supseteq sqsubset sqsupset sqsubseteq
sqsupseteq in ni notin owns mid nmid parallel nparallel perp vdash dashv models
smile frown bowtie asymp doteq doteqdot lessdot gtrdot leqq geqq leqslant geqslant
lesssim gtrsim lessapprox gtrapprox lneq gneq lneqq gneqq nless ngtr nleq ngeq
nleqslant ngeqslant nsim ncong lnsim gnsim subsetneq supsetneq subseteqq supseteqq
nsubseteq nsupseteq Subset Supset precsim succsim precapprox succapprox thicksim
thickapprox backsim backsimeq triangleq eqcirc circeq bumpeq Bumpeq risingdotseq
fallingdotseq varpropto therefore because between pitchfork shortmid shortparallel
trianglelefteq trianglerighteq vartriangleleft vartriangleright ntriangleleft
ntriangleright ntrianglelefteq ntrianglerighteq vDash Vdash Vvdash nvdash nvDash
nVdash nVDash eqsim lesseqgtr gtreqless lesseqqgtr gtreqqless lessgtr gtrless
not
"""

_ARROWS = """
to gets leftarrow rightarrow Leftarrow Rightarrow leftrightarrow Leftrightarrow
longleftarrow longrightarrow Longleftarrow Longrightarrow longleftrightarrow
Longleftrightarrow mapsto longmapsto hookleftarrow hookrightarrow uparrow downarrow
Uparrow Downarrow updownarrow Updownarrow nearrow searrow swarrow nwarrow
leftharpoonup leftharpoondown rightharpoonup rightharpoondown rightleftharpoons
leftrightharpoons implies impliedby iff nleftarrow nrightarrow nLeftarrow
nRightarrow nleftrightarrow nLeftrightarrow leftleftarrows rightrightarrows
leftrightarrows rightleftarrows upuparrows downdownarrows twoheadleftarrow
twoheadrightarrow leftarrowtail rightarrowtail looparrowleft looparrowright
curvearrowleft curvearrowright circlearrowleft circlearrowright Lsh Rsh multimap
rightsquigarrow leftrightsquigarrow upharpoonleft upharpoonright downharpoonleft
downharpoonright restriction xrightarrow xleftarrow
"""

_LAYOUT = """
frac dfrac tfrac cfrac binom dbinom tbinom genfrac over atop choose sqrt root of
left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr bigm
Bigm biggm Biggm displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits
overline underline overbrace underbrace overset underset stackrel substack
overleftarrow overrightarrow overleftrightarrow underleftarrow underrightarrow
underleftrightarrow boxed cancel phantom hphantom vphantom smash mathstrut strut
quad qquad enspace thinspace negthinspace hspace kern mkern mskip hskip space
nobreakspace begin end hline tag notag nonumber
hat widehat check tilde widetilde acute grave dot ddot dddot ddddot breve bar vec
mathring
text textrm textit textbf textsf texttt textnormal mbox mathrm mathit mathbf mathsf
mathtt mathcal mathbb mathfrak mathscr mathnormal boldsymbol pmb rm it bf sf tt cal
"""

#: Environments a formula may open with ``\\begin{...}``.
_ENVIRONMENTS = """
matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix cases dcases rcases array
aligned alignedat gathered split subarray align align* alignat alignat* gather gather*
equation equation* multline multline*
"""
ENVIRONMENTS = frozenset(name.rstrip("*") for name in _ENVIRONMENTS.split())

#: Commands MathJax 3 does not define, with the fix (both modes refuse them).
REPLACED = {
    "bm": "write \\boldsymbol{...} for a bold symbol",
}

#: Control words (without the backslash; a trailing ``*`` is read as the same word).
COMMANDS = frozenset(
    word
    for group in (_GREEK, _SYMBOLS, _OPERATORS, _RELATIONS, _ARROWS, _LAYOUT)
    for word in group.split()
)

#: Control symbols that would end Anki's ``\\(…\\)`` or ``\\[…\\]`` early.
DELIMITER_SYMBOLS = frozenset({"\\(", "\\)", "\\[", "\\]"})

#: MathJax commands that reach outside the formula (links, HTML attributes,
#: styles, extensions) or define macros (which can recurse forever). Content
#: is untrusted, and in mathjax mode Anki's MathJax would obey them.
_DANGEROUS = frozenset(
    {
        "\\href",
        "\\url",
        "\\require",
        "\\class",
        "\\cssId",
        "\\style",
        "\\unicode",
        "\\def",
        "\\gdef",
        "\\edef",
        "\\xdef",
        "\\let",
        "\\newcommand",
        "\\renewcommand",
        "\\providecommand",
        "\\DeclareMathOperator",
        "\\DeclarePairedDelimiter",
        "\\Newextarrow",
        "\\newextarrow",
        "\\newenvironment",
        "\\renewenvironment",
        "\\futurelet",
        "\\global",
        "\\mathchoice",
        "\\csname",
        "\\expandafter",
        "\\input",
        "\\include",
        "\\catcode",
        "\\data",
        "\\bbox",
        "\\mmlToken",
        "\\texttip",
        "\\mathtip",
        "\\toggle",
    }
)


def is_dangerous(command: str) -> bool:
    """True for a command that links, styles, loads or defines (``command`` without ``*``).

    Every such command is off :data:`COMMANDS` too; this only picks the message.
    """
    lowered = command.lower()
    return (
        command in _DANGEROUS
        or lowered.startswith(("\\html", "\\new", "\\renew", "\\declare", "\\provide"))
        or lowered.endswith("def")
    )
