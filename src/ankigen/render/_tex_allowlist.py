"""The TeX that ankigen passes to Anki's MathJax: an allow-list, not a deny-list.

MathJax obeys commands that reach outside the formula: links (``\\href``),
HTML attributes and styles (``\\class``, ``\\style``), extensions
(``\\require``), and definitions (``\\def``, ``\\newcommand*``,
``\\DeclareMathOperator``, ``\\Newextarrow``...) that change ``\\frac`` for
every later formula on the page, or recurse forever. Content is untrusted, so
a formula may use only the commands and environments below (in both math
modes: image mode draws with the same MathJax, and every command here is one
it knows, ``tests/render/test_mathjax_engine.py``): symbols, operators, fonts
and layout from MathJax's base, AMS math and AMS symbols packages, none of
which defines, links, styles or loads.
"""

from __future__ import annotations

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
