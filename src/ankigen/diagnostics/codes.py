"""The registry of diagnostic codes: every code ankigen reports, by name.

Each code is a named object (in the spirit of ruff's rules): its stable
identifier (``AG101``…), the severity it is reported with, a summary of the
kind of problem it names, the fix an author should make, and the template of
its message. Stages refer to a code by its name (``Code.EMPTY_ANSWER``), never
by spelling ``"AG106"``: this module is the one place the identifiers are
written, and the table of codes in ``docs/format.md`` section 13.2 is
generated from it (``python -m ankigen.diagnostics.table``).

Messages are made here too. A template is a ``str.format`` string with named
fields, and a stage makes its message with :meth:`Code.message`, giving
exactly the template's fields, then reports it under the same code::

    message = Code.FRONT_MATTER_NOT_A_NAME.message(key="deck")
    sink.error(line, message, column=1, code=Code.FRONT_MATTER_NOT_A_NAME)

A code whose message takes several forms has fields for the parts that differ
(``{hint}``, ``{why}``); a code whose message is written by the part that
found the problem (a checker's reason, MathJax's error, a YAML error) has a
``{detail}`` field. A stage may put where the problem is before a message it
passes on (``formula $x$: ``, ``image 'a.png' ``, ``at n = 3: ``). One helper
fills the template of the code it is given: the checker's
``StatementSyntaxError`` (``syntax error at column {column}: {detail}``).

The first digit groups the codes: ``AG1xx`` reading a file (front matter,
items, metadata), ``AG2xx`` formula checks and quotes, ``AG3xx`` drawing and
shipping media, ``AG5xx`` cloze, separator and mark syntax and near misses,
``AG6xx`` safety and resource limits, ``AG7xx`` releases (``--against``),
``AG8xx`` importing. A code never changes meaning; a new kind of message gets
a new code.
"""

from __future__ import annotations

from enum import StrEnum
from string import Formatter

from ankigen.diagnostics.diagnostic import Severity

ERROR = Severity.ERROR
WARNING = Severity.WARNING


def template_fields(template: str) -> frozenset[str]:
    """The names of the fields of a ``str.format`` template (``"{name!r}"`` names ``name``)."""
    return frozenset(
        field.partition(".")[0].partition("[")[0]
        for _, field, _, _ in Formatter().parse(template)
        if field is not None
    )


class Code(StrEnum):
    """One kind of problem: a ``str`` equal to its identifier, with its documentation.

    Being a ``str``, a member goes wherever a code did (``Diagnostic.code``,
    JSON, a stamp) and compares equal to its identifier; ``Diagnostic`` keeps
    the plain identifier, so caches store builtin strings only.
    """

    #: Whether the problem stops a build (``--strict`` makes every warning an error).
    severity: Severity
    #: What kind of problem the code names (the "meaning" column of the table).
    summary: str
    #: How to fix the input.
    fix: str
    #: The message, as a ``str.format`` template with named fields (see :meth:`message`).
    template: str
    #: The names of the template's fields, which :meth:`message` must be given exactly.
    fields: frozenset[str]

    def __new__(
        cls, identifier: str, severity: Severity, summary: str, fix: str, template: str
    ) -> Code:
        member = str.__new__(cls, identifier)
        member._value_ = identifier
        member.severity = severity
        member.summary = summary
        member.fix = fix
        member.template = template
        member.fields = template_fields(template)
        return member

    def message(self, **fields: object) -> str:
        """The message of this code: its template filled in with ``fields``.

        ``fields`` must name exactly the template's fields (a ``TypeError``
        otherwise: a bug of the stage, not of the content), so a template and
        its call sites cannot drift apart.
        """
        if fields.keys() != self.fields:
            given, wanted = sorted(fields), sorted(self.fields)
            raise TypeError(f"{self.name}.message() takes the fields {wanted}, not {given}")
        return self.template.format(**fields)

    FILE_UNREADABLE = (
        "AG101",
        ERROR,
        "a content file cannot be read",
        "check that the file exists and is readable",
        "cannot read file: {reason}",
    )
    FILE_NOT_UTF8 = (
        "AG102",
        ERROR,
        "a content file is not UTF-8 (the byte and its line are named)",
        "save the file as UTF-8",
        "not UTF-8 text (byte 0x{byte:02x}); save the file as UTF-8",
    )
    NO_ITEMS = (
        "AG103",
        WARNING,
        "a content file holds no items: its deck would be empty",
        "write `question ::: answer` or a cloze such as `{{c1::word}}`",
        "no items: the deck will be empty; write 'question ::: answer' or a cloze such as "
        "'{cloze}' to make cards",
    )
    UNKNOWN_FRONT_MATTER_KEY = (
        "AG104",
        ERROR,
        "an unknown front matter key (the known ones are listed)",
        "correct the key's spelling, or remove it",
        "unknown front matter key '{key}'{meant} (known: {known})",
    )
    EMPTY_QUESTION = (
        "AG105",
        ERROR,
        "an empty question before `:::`",
        "write the question before `:::`",
        "empty question before ':::'{why}",
    )
    EMPTY_ANSWER = (
        "AG106",
        ERROR,
        "an empty answer after `:::`",
        "write the answer after `:::`",
        "empty answer: write the answer after ':::'",
    )
    DUPLICATE_GUID = (
        "AG107",
        ERROR,
        "two items of one deck with the same GUID (same id, or same question without an id); "
        "reported at both",
        "give one of them a different `id:`",
        "duplicate note: same {same} as the item at line {other}; give one of them a different id",
    )
    UNCLOSED_DOLLAR = (
        "AG108",
        ERROR,
        "an unclosed `$`",
        r"close the formula with `$`, or write `\$` for a dollar sign",
        "unclosed '$': close the formula with '$', or write '\\$' for a dollar sign",
    )
    MACROS_FILE_UNREADABLE = (
        "AG109",
        ERROR,
        "the project's macros file (`[tool.ankigen] macros`) cannot be read (section 9.4)",
        "check its name and that it is UTF-8 text",
        "cannot read the macros file ([tool.ankigen] macros): {reason}",
    )
    FRONT_MATTER_NOT_YAML = (
        "AG110",
        ERROR,
        "front matter is not valid YAML (the YAML error is named)",
        "correct the YAML between the `---` lines",
        "front matter: {problem}",
    )
    FRONT_MATTER_NOT_MAPPING = (
        "AG111",
        ERROR,
        "front matter is not a mapping",
        "write `key: value` lines",
        "front matter must be a mapping of 'key: value' lines",
    )
    FRONT_MATTER_NOT_A_NAME = (
        "AG112",
        ERROR,
        "front matter `deck` or `key` is not a non-empty string",
        "write one name after the key",
        "front matter '{key}' must be a non-empty string",
    )
    FRONT_MATTER_TAGS_NOT_WORDS = (
        "AG113",
        ERROR,
        "front matter `tags` is not a list of words",
        "write `tags: [ml, gpu]` or `tags: ml gpu`",
        "front matter 'tags' must be a list of words, e.g. tags: [ml, gpu]",
    )
    FRONT_MATTER_TAG_WITH_SPACE = (
        "AG114",
        ERROR,
        "a front matter tag holds white space",
        "write each tag as one word (`year-one`)",
        "front matter tag '{tag}' must be one word without spaces",
    )
    FRONT_MATTER_NOT_BOOLEAN = (
        "AG115",
        ERROR,
        "front matter `subdecks` is not `true` or `false`",
        "write `true` or `false`",
        "front matter '{key}' must be true or false",
    )
    FRONT_MATTER_MATH_MODE = (
        "AG116",
        ERROR,
        "front matter `math` is not `image` or `mathjax`",
        "write `math: image` or `math: mathjax`",
        "front matter 'math' must be 'image' or 'mathjax', not '{value}'",
    )
    FRONT_MATTER_MACRO_SHAPE = (
        "AG117",
        ERROR,
        "a front matter macro of the wrong shape (section 9.4)",
        r"write `\name: replacement` or `\name: {body: '…#1…', args: 1}`",
        "{detail}",
    )
    MACROS_FILE_CONTENT = (
        "AG118",
        ERROR,
        r"the project's macros file holds something other than `\newcommand`, `\renewcommand`, "
        r"`\def` and `\DeclareMathOperator` definitions (section 9.4)",
        "keep only those definitions (and `%` comments) in it",
        "{detail}",
    )
    MACRO_EXPANSION = (
        "AG119",
        ERROR,
        "a macro that expands forever, or is given too few arguments (section 9.4)",
        "make its body not use itself; write each argument in braces",
        "{detail}",
    )
    FRONT_MATTER_CLAIM_LEVEL = (
        "AG120",
        ERROR,
        "front matter `claims` is not a claim level",
        "write `claims: answers`, `claims: all` or `claims: off`",
        "front matter 'claims' must be {levels}, not '{value}'",
    )
    UNCLOSED_DOUBLE_DOLLAR = (
        "AG121",
        ERROR,
        "an unclosed `$$`",
        r"close the display formula with `$$`, or write `\$` for a dollar sign",
        "unclosed '$$': close the display formula with '$$', or write '\\$' for a dollar sign",
    )
    UNCLOSED_FENCE = (
        "AG122",
        ERROR,
        "a code block whose closing fence is missing (it would swallow the rest of the file)",
        "close it with the same fence it opened with",
        "code block opened with '{fence}' is never closed, so it runs to the end of the "
        "file: {fix}",
    )
    IMAGE_URL_TARGET = (
        "AG123",
        ERROR,
        "an image written with a URL target (`![a](https://…)`, `javascript:`…)",
        "put the file next to the content and use a relative path",
        "image '{target}' is a URL; put the file next to the content and use a relative path",
    )
    CLOZE_IN_ANSWER_BLOCK = (
        "AG124",
        ERROR,
        "cloze syntax inside a list, table or quote of an answer",
        "write the cloze item as a paragraph of its own",
        "cloze syntax inside a list, table or quote of an answer is not a cloze; "
        "write the cloze item as a paragraph of its own",
    )
    CLOZE_AFTER_SEPARATOR = (
        "AG125",
        ERROR,
        "cloze syntax after the `:::` of a reveal item",
        "put the cloze before `:::` (the text after it is the Extra field)",
        "cloze syntax after ':::' is not a cloze: {hint}",
    )
    CLOZE_IN_EXTRA = (
        "AG126",
        ERROR,
        "cloze syntax in the Extra of a cloze item (after its `:::`)",
        "move the cloze before `:::`",
        "cloze syntax in the Extra (after ':::') is not a cloze; move it before ':::'",
    )
    SEPARATOR_ON_CALLOUT_MARKER = (
        "AG127",
        ERROR,
        "`:::` on a callout's marker line (`> [!recall] q ::: a`)",
        "start the item on the next line of the callout",
        "':::' on a callout's marker line: start the item on the next line",
    )
    CHECK_WITHOUT_ITEM = (
        "AG128",
        ERROR,
        "a `check` block with no item before it in its section",
        "put it right after the item whose claim it proves",
        "check block has no item before it in this section; "
        "put it right after the item whose claim it proves",
    )
    METADATA_FIELD_TWICE = (
        "AG129",
        WARNING,
        "a field written twice in one metadata comment (`tags: a; tags: b`): only the last "
        "one counts",
        "write the field once (`tags: a b`)",
        "metadata field '{field}' is written twice in this comment and only the last one "
        "counts: write it once{example}",
    )
    MISSPELT_METADATA_FIELD = (
        "AG130",
        ERROR,
        "a misspelt metadata field (`<!-- tag: core -->`; the likely field is named)",
        "write `id:` or `tags:`",
        "unknown metadata field '{field}' (did you mean '{meant}'?)",
    )
    UNKNOWN_METADATA_FIELD = (
        "AG131",
        ERROR,
        "an unknown field in a metadata comment that has `id:`, `tags:` or `guid:`",
        "remove the field; metadata knows only `id`, `tags` and `guid`",
        "unknown metadata field '{field}' (known: id, tags, guid)",
    )
    METADATA_ID_WITH_SPACE = (
        "AG132",
        ERROR,
        "a metadata `id` with white space",
        "write the id as one word (`why-sync`)",
        "metadata id '{id}' must be one word, without spaces",
    )
    CLOZE_OUTSIDE_ITEM = (
        "AG133",
        WARNING,
        "cloze syntax inside a list, table or quote outside any item: it makes no card",
        "write the cloze item as a paragraph of its own, or put the text in `code` to show it "
        "as written",
        "cloze syntax inside a list, table or quote outside any item makes no card; "
        "write the cloze item as a paragraph of its own, or the text in `code` to show it",
    )
    RESERVED_TAG = (
        "AG134",
        ERROR,
        "a tag under `ankigen::` (any case, in front matter or a metadata comment): the "
        "namespace of the release tags learners use to find removed notes",
        "write another tag, without the `ankigen::` prefix",
        "tag '{tag}' is in ankigen's own namespace 'ankigen::', which holds the release "
        "tags learners use to find removed notes: write another tag, e.g. '{meant}'",
    )
    SEPARATOR_IN_BLOCK = (
        "AG135",
        WARNING,
        "`:::` inside a list item, table cell, block quote or heading: only a paragraph of its "
        "own is an item, so it makes no card",
        "write the item as a paragraph of its own, without the list marker, `>` or `#`",
        "':::' inside {place} makes no card: write the item as a paragraph of its own, {advice}",
    )
    SEPARATOR_IN_UNKNOWN_CALLOUT = (
        "AG136",
        WARNING,
        "`:::` inside a callout of a kind the format does not know (`> [!warning]`): it is a "
        "plain quote, so it makes no card",
        "write `[!recall]`, `[!formula]` or `[!note]`, or the item as a paragraph of its own",
        "':::' inside a '[!{kind}]' callout makes no card: the format knows only the callouts "
        "{known}; use one of them, or write the item as a paragraph of its own",
    )
    FRONT_MATTER_UNCLOSED = (
        "AG137",
        WARNING,
        "front matter opened with `---` and `key: value` lines but never closed: its settings "
        "are prose, on no card, and not applied",
        "end the front matter with a line of `---`",
        "front matter opened on line 1 never closes, so none of its settings apply (they are "
        "prose): end it with a line of '---'",
    )
    METADATA_GUID = (
        "AG138",
        ERROR,
        "a metadata `guid` that is not one word, does not percent-decode to printable text, or "
        "holds a space",
        "write the GUID percent-encoded (`ankigen import` does)",
        "metadata guid '{guid}' must be one word of at most {most} printable "
        "characters (no space), percent-encoded where it holds ';', '-', '%' or white space",
    )
    UNCLOSED_COMMENT = (
        "AG139",
        WARNING,
        "an HTML comment `<!--` that never closes: everything after it is on no card",
        "close the comment with `-->`",
        "HTML comment never closes, so everything after it is on no card: close it with '-->'",
    )
    QUESTION_AFTER_COLON = (
        "AG140",
        WARNING,
        "a question of only a formula or image right after a prose paragraph ending in `:` "
        "(section 5.3)",
        "put that text in the question's paragraph",
        "this question is only a formula or an image, and the paragraph at line {prose_line} "
        "before it ends in ':' but is not part of it (it is prose, or the end of the answer "
        "before): put that text in the question's paragraph (no blank line between them)",
    )
    PROSE_BEFORE_CHECK = (
        "AG141",
        WARNING,
        "prose between an item and its `check` block: it is on no card (section 5.3)",
        "move it into the answer, before the metadata comment, or below the check",
        "prose between the item at line {item_line} and its check block at line "
        "{check_line} is on no card (the item ended before it): move the text into the "
        "answer, before the item's metadata comment, or below the check block",
    )
    HEADING_CUTS_ANSWER = (
        "AG142",
        WARNING,
        "an empty answer followed by a `#`/`##` heading and text (section 5.3)",
        "write the heading as `###` or deeper to keep it in the answer",
        "the answer is empty and the heading at line {heading_line} after it ends the item "
        "(a '#' or '##' heading ends an item), so the text below it is on no card: "
        "write the heading as '###' or deeper to keep it in the answer",
    )
    FENCE_CLOSER_WITH_TEXT = (
        "AG143",
        WARNING,
        "a line inside a code block that looks like its closing fence but has text after the "
        "marker, so the block runs on (over the next items) to a later fence",
        "put the text on a line of its own after the fence; if the line is code, open the "
        "block with a longer fence",
        "'{written}' does not close the code block opened at line {opened}: a closing fence "
        "holds nothing after '{fence}', so the block runs on to line {closed}; {fix}",
    )
    TAG_WITH_COMMA = (
        "AG144",
        WARNING,
        "a tag that ends with a comma (`tags: nature, plants` gives the tag `nature,`)",
        "separate tags with spaces, not commas",
        "tag '{tag}' ends with a comma, which Anki keeps in the tag: tags are separated by "
        "spaces ('tags: {meant}')",
    )
    NUL_CHARACTER = (
        "AG145",
        WARNING,
        "a NUL character (U+0000) in a content file: markdown shows it as U+FFFD",
        "remove it (an editor or a conversion left it)",
        "the file holds {count} NUL character{s} (U+0000), which the card would show as "
        "'\ufffd': remove {them}",
    )
    FRONT_MATTER_KEY_TWICE = (
        "AG156",
        ERROR,
        "a front matter key written twice: YAML keeps the last, so the first is ignored",
        "keep one of them",
        "front matter key '{key}' is written twice (first at line {first}); only this one "
        "would count: keep one",
    )
    BIDI_OVERRIDE = (
        "AG149",
        ERROR,
        "a bidirectional override (U+202D, U+202E) in a content file: it reverses what the "
        "card shows, so the learner reads other digits and words than the ones written and "
        "checked",
        "remove it; right-to-left text needs none (its direction comes from its letters)",
        "the file holds {count} bidirectional override{s} ({which}): the card would show the "
        "text after {it} reversed, not as written and checked; remove {them}",
    )
    NESTED_TOO_DEEP = (
        "AG146",
        WARNING,
        "quotes or lists nested deeper than markdown reads (20 levels): what is nested deeper "
        "is on no card, and markdown may read nothing more of the section",
        "nest the text less deep",
        "quotes and lists nested {depth} deep here reach markdown's limit: what is nested "
        "deeper is dropped{rest}, on no card; nest it less deep",
    )
    FENCE_AFTER_SEPARATOR = (
        "AG147",
        WARNING,
        "a code fence written after `:::` on the same line (`::: ```cpp`): it opens no code "
        "block, and the fence meant to close it opens one that runs over the next items",
        "put the opening fence on the line after `:::`",
        "a code fence after ':::' on the same line is not a fence: put {fence} on the line "
        "after ':::'",
    )
    SEPARATOR_IN_HTML_BLOCK = (
        "AG148",
        WARNING,
        "`:::` inside an HTML block (`<div>`, `<p>` …): the block is HTML, not markdown, so it "
        "makes no card",
        "remove the HTML element around the item",
        "':::' inside an HTML block makes no card: remove the <{element}> … </{element}> "
        "around the item",
    )
    HTML_SHOWN_AS_TEXT = (
        "AG150",
        WARNING,
        "raw HTML a card may not hold (an element off the allow-list, an unclosed one, `<img>` "
        "of a URL), shown as the text written (section 5.6)",
        "write markdown, or an allowed element",
        "HTML <{element}> {why}, so it shows as the text you wrote: {fix}",
    )
    HTML_ATTRIBUTE_DROPPED = (
        "AG151",
        WARNING,
        "an attribute of an allowed HTML element dropped by the sanitiser (section 5.6)",
        "remove it: only `title` on `abbr`, `src` and `alt` on `img` pass",
        "attribute {attributes} of HTML <{element}> dropped (only title on abbr, src and "
        "alt on img pass): remove it",
    )
    CLOZE_IN_HTML_ATTRIBUTE = (
        "AG152",
        WARNING,
        'cloze syntax in an attribute of an allowed HTML element (`<abbr title="{{c1::…}}">`): '
        "it is no cloze and makes no card; the attribute shows it as written",
        "put the cloze in the text, outside the tag",
        "cloze syntax in an attribute of HTML <{element}> makes no cloze and no card (it shows "
        "as written): put the cloze in the text, outside the tag",
    )
    SPACE_IN_LINK_PATH = (
        "AG153",
        WARNING,
        "a space in an image path or link address (`![a](img/my file.png)`): markdown reads "
        "no image or link, and the card shows the text as written",
        "put the path in angle brackets, `![a](<img/my file.png>)`",
        "a space in {what}: write {meant}",
    )
    OBSIDIAN_EMBED = (
        "AG154",
        WARNING,
        "an Obsidian embed (`![[file.png]]`): markdown reads no image, and the card shows the "
        "text as written",
        "write a markdown image, `![](<file.png>)` (the path relative to the content file)",
        "'{written}' is an Obsidian embed, shown as written: write {meant} (the path "
        "relative to this file{brackets})",
    )
    FOOTNOTE = (
        "AG155",
        WARNING,
        "a footnote reference `[^1]` or definition `[^1]: …`: footnotes are not supported, so "
        "both show on the card as written",
        "put the note in the answer",
        "footnotes are not supported: the reference and its text show as written ('{written}');"
        " put the note in the answer",
    )
    UNVERIFIED_CLAIM = (
        "AG201",
        WARNING,
        "unverified claim: a number or formula on the card that no check quotes or cites (12.12)",
        "quote it in a check, or cite it",
        "unverified claim {claim}: quote it in a check, or cite it{note}",
    )
    QUOTE_NOT_IN_ITEM = (
        "AG202",
        ERROR,
        "a check quotes a number or formula the item does not show (12.11)",
        "quote it exactly as the item writes it",
        "check quotes {quote}, but the item does not say it: {hint}",
    )
    BAD_QUOTE = (
        "AG203",
        ERROR,
        "a malformed quote: not one of the number forms, or never closed (12.11)",
        "quote one number as the card writes it, and close the quote",
        "syntax error at column {column}: {detail}",
    )
    CHECK_TEX_COMMAND = (
        "AG204",
        ERROR,
        "a quoted formula uses a TeX command outside the subset a check reads (12.11)",
        "rewrite it with the commands listed in the message, or cite it",
        "syntax error at column {column}: {detail}",
    )
    CHECK_TEX_SYNTAX = (
        "AG205",
        ERROR,
        "a quoted formula does not parse, or a relation stands where a value must (12.11)",
        "correct the TeX, or make the relation the whole assertion",
        "syntax error at column {column}: {detail}",
    )
    UNUSED_WHERE = (
        "AG206",
        WARNING,
        "a `where` name occurs on neither side of its assertion (12.13)",
        "correct the name (the message suggests one), or remove it",
        "'where {name} = ...' substitutes a name that occurs on neither side"
        " of '{text}' (nor in the names they use): {hint}",
    )
    LITERALS_ONLY = (
        "AG207",
        WARNING,
        "an assertion compares only literals and quotes nothing (12.13)",
        "quote the card's numbers, or compare names",
        "'{text}' compares only numbers written in the check, so it proves nothing about"
        " the card: quote the card's numbers (`4` for a 4 on the card) or compare names",
    )
    ONE_SIDED_LIMIT = (
        "AG208",
        ERROR,
        "a limit at a finite point whose one-sided limits differ (12.8)",
        "take the limit from one side, or at another point",
        "the limit at column {column} does not exist: from below it is {below}, from above {above}",
    )
    QUOTE_IN_FORMULAS = (
        "AG209",
        ERROR,
        "a quote in a `formulas` block, which belongs to no item (12.11)",
        "quote the card in the check block after its item",
        "a formulas block belongs to no item, so it cannot quote the card;"
        " quote the card in the check block after its item",
    )
    CHECK_FAILED = (
        "AG210",
        ERROR,
        "a check's assertion does not hold (both sides are shown)",
        "correct the card or the check",
        "check failed: {statement}{at}: {problem}",
    )
    CHECK_SYNTAX = (
        "AG211",
        ERROR,
        "a check statement does not follow the grammar of section 12 (`syntax error at column "
        "N: …`, saying what is wrong)",
        "correct the statement at that column",
        "syntax error at column {column}: {detail}",
    )
    CANNOT_DECIDE = (
        "AG212",
        ERROR,
        "a check statement cannot be decided as written (a free symbol, division by zero, a "
        "value that is not real, a name that cannot be defined, an empty `for` range, …; the "
        "message says which)",
        "give the missing names with `where`, or correct the statement",
        "{detail}",
    )
    CHECK_TIME_LIMIT = (
        "AG213",
        ERROR,
        "a check statement took longer than `check-time-limit`",
        "simplify it, give numbers with `where`, or raise the limit",
        "gave up after {limit:g} s; simplify the statement,"
        " give numbers with 'where', or raise check-time-limit in [tool.ankigen]",
    )
    EXPRESSION_TOO_DEEP = (
        "AG214",
        ERROR,
        "an expression nests too deeply (through its `let` names)",
        "split it into shorter `let`s",
        "expression too deeply nested (through its 'let' names)",
    )
    NUMBER_TOO_LARGE = (
        "AG215",
        ERROR,
        "a number in a statement is too large to evaluate",
        "use smaller numbers, or compare symbolically",
        "a number in this statement is too large to evaluate",
    )
    NOT_A_LET = (
        "AG216",
        ERROR,
        "a `formulas` block holds something other than `let`",
        "put asserts and cites in a `check` block",
        "a formulas block holds only 'let'; put asserts in a check block",
    )
    ALREADY_DEFINED = (
        "AG217",
        ERROR,
        "a name is defined twice (the first line is named)",
        "give the second one another name",
        "{name!r} is already defined at line {line}",
    )
    ALGEBRA_FAILED = (
        "AG218",
        ERROR,
        "the computer algebra failed on a statement (its error is named)",
        "rewrite the statement more simply",
        "cannot evaluate: {error}: {detail}",
    )
    FORMULA_NOT_COMPILED = (
        "AG219",
        ERROR,
        "a `formulas` name cannot be made into a function for figures (why is named)",
        "correct the formula, or keep it out of `formulas`",
        "formula {name!r}: {problem}",
    )
    LOOSE_WITHIN = (
        "AG230",
        WARNING,
        "a `within` over 10%, which accepts almost any value (18)",
        "give the precision the card claims, or none",
        "'within {percent:g}%' in '{text}' accepts almost any"
        " value, so it proves little: give the precision the card claims (at most 10%),"
        " or none, so the card's last written digit sets it",
    )
    CIRCULAR_WHERE = (
        "AG231",
        WARNING,
        "a `where` gives a name the very value the assertion compares it with (`assert $L = 4$ "
        "where L = 4`) (18)",
        "derive the value from the deck's formulas or other quotes",
        "'where {name} = ...' gives {name} the value it is compared with"
        " in '{text}', so the assertion holds whatever the card says:"
        " derive {name} from the deck's formulas or other quotes instead",
    )
    ONE_POINT_PROOF = (
        "AG232",
        WARNING,
        "a relation the card states in general is proved only at one point of the check's own "
        "choosing (18)",
        "prove it for every value, over a range with `for`, or at the card's own values",
        "${relation}$ states a relation of {names}, but '{text}'"
        " proves it only at one point ({points} fixed by 'where'): prove it"
        " for every value (no 'where', or 'for' over a range), or quote the card's own values",
    )
    UNBOUND_PREMISE = (
        "AG233",
        WARNING,
        "at claim level `all`, a number written in a check equals a number the card shows (a "
        "premise not bound to the card) (18)",
        "write it as a quote of the card's number",
        "the number {value} written in this check is the card's {shown} (line {line}):"
        " write it as the quote {shown}, so that a changed premise changes the proof",
    )
    FIGURE_LITERAL = (
        "AG234",
        WARNING,
        "at claim level `all`, a number in a figure script equals a number on a card that "
        "shows the figure (18)",
        "define it in a `formulas` block and read it in the script from `formulas`",
        "figure {figure} writes the card's `{text}` as its own {value!r}"
        " ({place}): take it from formulas (define it with 'let' in a formulas block,"
        " which a check can prove, and read it in the script as formulas[NAME]())",
    )
    QUOTED_TOO_OFTEN = (
        "AG235",
        ERROR,
        "at claim level `all`, a check quotes a number or formula more often than the card "
        "shows it (an occurrence was removed, or a quote reused) (18)",
        "quote each occurrence once; name a number used twice with `let`",
        "check quotes {quote} once more than the card shows it ({times}):"
        " at claim level all each quote covers one occurrence; name a number you use"
        " twice with 'let' and quote it once",
    )
    FORMULA_NOT_DRAWN = (
        "AG301",
        ERROR,
        "a formula cannot be drawn as an image (MathJax's message is named)",
        "correct the TeX: Anki's MathJax would refuse it too",
        "{detail}",
    )
    UNBALANCED_BRACES = (
        "AG302",
        ERROR,
        "unbalanced braces in a formula: a `}` with no `{`, or a `{` never closed",
        "add or remove the brace the message names",
        "unbalanced braces: {which}",
    )
    UNPAIRED_ENVIRONMENT = (
        "AG303",
        ERROR,
        r"`\begin` and `\end` in a formula do not pair up (no name, no partner, or another "
        "name)",
        r"close each `\begin{env}` with `\end{env}`",
        "{detail}",
    )
    EMPTY_FORMULA = (
        "AG304",
        ERROR,
        "an empty formula (`$ $`)",
        "write the formula, or remove the dollars",
        "empty formula",
    )
    IMAGE_NOT_FOUND = (
        "AG320",
        ERROR,
        "image file not found (the path it looked for is named, and the nearest existing image "
        "when there is one)",
        "correct the path, relative to the content file",
        "image file '{image}' not found (looked for '{path}'): {hint}",
    )
    IMAGE_URL = (
        "AG321",
        ERROR,
        "an image given by a URL (`https://…`, `//…`)",
        "put the file next to the content and link it by a relative path",
        "image '{target}' is a URL; put the file next to the content and use a relative path",
    )
    IMAGE_NO_PATH = (
        "AG322",
        ERROR,
        "an image with no path (`![alt]()`)",
        "write the path of the image file",
        "image has no path",
    )
    IMAGE_ABSOLUTE_PATH = (
        "AG323",
        ERROR,
        r"an image path that is absolute (`/…`, `C:\…`, `\…`)",
        "use a path relative to the content file",
        "image path '{path}' is absolute; use a path relative to the content file",
    )
    IMAGE_OUTSIDE_CONTENT = (
        "AG324",
        ERROR,
        "an image path that leaves the content folder (`../…`, or a link to a file outside)",
        "move the image into the content folder",
        "image path '{path}' leaves the content folder '{folder}'",
    )
    IMAGE_TYPE = (
        "AG325",
        ERROR,
        "an image that is not a supported type (`.png`, `.jpg`, `.jpeg`, `.gif`, `.svg`, `.webp`)",
        "convert it to one of those types",
        "image '{image}' is not a supported image type ({types})",
    )
    FIGURE_RAISED = (
        "AG330",
        ERROR,
        "a figure script raised an error (its traceback is shown)",
        "fix the script",
        "figure '{figure}' failed: {error}",
    )
    UNKNOWN_FIGURE = (
        "AG331",
        ERROR,
        "an unknown figure: there is no `figures/<id>.py` for its id",
        "name an existing figure, or write its script",
        "unknown figure '{figure}': there is no {expected}",
    )
    FIGURE_NO_RESULT = (
        "AG332",
        ERROR,
        "a figure's process ended without a result (it crashed, exited or was killed)",
        "make the script finish normally (no `os._exit`, less memory)",
        "figure '{figure}' failed: {why}{hint}",
    )
    FIGURE_FORMULA_NAME = (
        "AG333",
        ERROR,
        "a figure uses a `formulas` name that has an error (its error and line are named) or "
        "that no `formulas` block defines (the nearest name is suggested)",
        "correct the formula, or the name in the script",
        "figure '{figure}' {problem}",
    )
    PROMPT_SECTION_MISSING = (
        "AG350",
        WARNING,
        "front matter `prompt:` names a section the file does not have",
        "write the heading exactly as in `## ...`",
        "front matter 'prompt' names the section '{section}', which has no items; "
        "write the heading exactly as in '## ...'",
    )
    FRONT_MATTER_CONTEXT = (
        "AG351",
        ERROR,
        "front matter `context` is neither `auto` nor `none`",
        "write `context: auto` or `context: none`",
        "front matter 'context' must be 'auto' or 'none', not '{value}'",
    )
    FRONT_MATTER_PROMPT = (
        "AG352",
        ERROR,
        "front matter `prompt` is not a mapping of section headings to a line (or `none`)",
        "write `prompt: {Heading: line shown}`",
        "front matter 'prompt' maps section headings to the line shown on their "
        "cards, e.g. prompt: {{Spot the error: Find the mistake and fix it}} (none for no line)",
    )
    CLOZE_NO_NUMBER = (
        "AG501",
        ERROR,
        "cloze marker with no number, or number 0 (`{{c::`, `{{c0::`)",
        "number it from 1 up, `{{c1::`",
        "cloze '{written}' needs a number from 1 up, e.g. '{{{{c1::'",
    )
    CLOZE_UPPER_CASE = (
        "AG502",
        ERROR,
        "cloze marker in upper case (`{{C1::`): Anki makes no card",
        "write it in lower case, `{{c1::`",
        "cloze '{written}' must be lower case, '{{{{c{digits}::', or Anki makes no card for it",
    )
    CLOZE_EMPTY = (
        "AG503",
        ERROR,
        "empty cloze (`{{c1::}}`)",
        "write the hidden text inside it",
        "empty cloze '{written}' would make an empty card",
    )
    CLOZE_UNCLOSED = (
        "AG504",
        ERROR,
        "cloze never closed with `}}`",
        "end it with `}}`",
        "cloze '{written}' is never closed: end it with '}}}}'",
    )
    CLOZE_BRACES = (
        "AG505",
        ERROR,
        "a cloze's own braces run into its closing `}}` (`{{c1::{H, T}}}`, "
        r"`{{c1::\frac{a}{b}}}`)",
        "put a space between the braces, `} }}`",
        "{detail}",
    )
    CLOZE_NESTED_IN_MATH = (
        "AG506",
        ERROR,
        "a cloze inside a cloze in a formula",
        "write the clozes one after the other, not one inside the other",
        "a cloze inside a cloze is not supported in math",
    )
    CLOZE_TOO_HIGH = (
        "AG507",
        ERROR,
        "a cloze numbered above `c500` (`{{c501::`): Anki makes an empty card for it",
        "number the clozes of an item from `c1` up, at most `c500`",
        "cloze '{written}' is numbered above c{most}, the highest Anki makes a "
        "card for: number the clozes of an item from c1 up, at most c{most}",
    )
    MARKS_TOO_HIGH = (
        "AG508",
        ERROR,
        "`==marks==` numbered past `c500` (each takes the number after the item's highest)",
        "number the item's clozes at most `c500`",
        "this item's ==marks== are numbered past c{most}, the highest Anki makes a card for "
        "(a mark takes the number after the item's highest): number its clozes at most c{most}",
    )
    CLOZE_STRAY_BRACE = (
        "AG509",
        WARNING,
        "a `}` right after a cloze's closing `}}` (`{{c1::mode}}}`): Anki shows it on the card",
        "remove it, or write a space before it if it is text",
        "'{written}' has one '}}' too many: Anki ends the cloze at the first '}}}}' and shows "
        "the last '}}' on the card; remove it (or, if it is text, write a space before it)",
    )
    CLOZE_ONE_COLON = (
        "AG510",
        WARNING,
        "near miss: cloze marker with one colon (`{{c1:x}}`)",
        "write two colons, `{{c1::x}}`",
        "'{written}' is not a cloze Anki reads (it has one colon): write '{meant}'",
    )
    CLOZE_ONE_BRACE = (
        "AG511",
        WARNING,
        "near miss: cloze marker with one opening brace (`{c1::x}}`)",
        "write two braces, `{{c1::x}}`",
        "'{written}' is not a cloze Anki reads (it opens with one brace): write '{meant}'",
    )
    CLOZE_SPACED = (
        "AG512",
        WARNING,
        "near miss: white space inside a cloze marker (`{{ c1::`, `{{c 1::`)",
        "remove the white space",
        "'{written}' is not a cloze Anki reads (it has white space inside the marker): "
        "write '{meant}'",
    )
    SEPARATOR_GLUED = (
        "AG520",
        WARNING,
        "near miss: `:::` glued to the text beside it (`mode?:::The`)",
        "put a space on each side of `:::`",
        "'{before}:::{after}' is not a separator: write "
        "'{before} ::: {after}', with white space on both sides{where}",
    )
    SEPARATOR_LENGTH = (
        "AG521",
        WARNING,
        "near miss: `::` or `::::` written as a separator",
        "write three colons, `:::`",
        "'{written}' is not a separator: write ':::', as in 'question ::: answer'{where}",
    )
    SEPARATOR_TWO_COLONS_GLUED = (
        "AG522",
        WARNING,
        "near miss: `::` glued to a side, where a separator was meant (`space?:: The`, "
        "`Term::Definition`, `::answer` at a line's start)",
        "write ` ::: ` with white space on both sides",
        "'{written}' is not a separator: write '{meant}', three colons with white space on "
        "both sides{where}",
    )
    SEPARATOR_SPACED = (
        "AG523",
        WARNING,
        "near miss: three colons split by white space (`: : :`, `:: :`)",
        "write `:::` with no space between the colons",
        "'{written}' is not a separator: write ':::', three colons with no space between "
        "them{where}",
    )
    QUESTION_ANSWER_LINES = (
        "AG524",
        WARNING,
        "near miss: a `Q:` (or `Question:`, `Front:`, `Q.`, `Q1:`, `Q\uff1a`) line with an "
        "`A:` (`Answer:`, `Back:`, `A.`, `A1:`, `A\uff1a`) line after it (a card written as "
        "labels), in a paragraph or a list item",
        "write `question ::: answer`, without the labels",
        "'{question}' and '{answer}' lines make no card: write the question, "
        "then ':::' and the answer ('question ::: answer'), without the labels{where}",
    )
    QUESTION_MARK_LINE = (
        "AG525",
        WARNING,
        "near miss: a line of only `?` or `??` (Obsidian's multi-line card) or `%` (ankdown's "
        "field separator)",
        "start the answer's first line with `:::`",
        "a line of only '{mark}' is not a separator ({habit}): "
        "write ':::' at the start of the answer's first line instead{where}",
    )
    SEPARATOR_FULL_WIDTH = (
        "AG526",
        WARNING,
        "near miss: `\uff1a\uff1a\uff1a`, a separator typed with full-width colons (a CJK "
        "input method)",
        "write `:::` with ASCII colons",
        "'{written}' is not a separator: write ':::' with ASCII colons, as in "
        "'question ::: answer'{where}",
    )
    SEPARATOR_OTHER_TOOL = (
        "AG527",
        WARNING,
        "near miss: another tool's separator between a question and its answer on one line "
        "(` >> ` or ` ;; ` from RemNote, a TAB from a Quizlet export)",
        "write ` ::: ` in its place",
        "{written} ({habit}) makes no card: write '{meant}'{where}",
    )
    CARD_TAG = (
        "AG528",
        WARNING,
        "near miss: a line ending in `#card` or `#flashcard` (Logseq's tag of a card)",
        "end the question with ` :::` in place of the tag, the answer after it",
        "'{tag}' ({habit}) makes no card: write '{meant}', with the answer after it{where}",
    )
    QUESTION_SETEXT_HEADING = (
        "AG532",
        WARNING,
        "near miss: a question ending in `?` with a `---` or `===` line under it (a "
        "Mochi-style card): markdown makes it a heading, not a card",
        "write `question ::: answer`",
        "a '{underline}' line under '{question}' makes it a {heading}, not a card: "
        "write '{question} ::: answer'",
    )
    QUESTION_BREAK = (
        "AG533",
        WARNING,
        "near miss: a paragraph ending in `?`, a thematic break (`---`) and a paragraph (a "
        "Mochi-style card): the break is no separator, so no card is made",
        "write `question ::: answer`",
        "'{written}' is no separator between question and answer: write ':::' "
        "('{question} ::: answer')",
    )
    MARK_NEAR_MISS = (
        "AG530",
        WARNING,
        "near miss: `== text==` or `==text ==`, a mark that cannot open or close",
        "let `==` touch the text it marks, `==text==`",
        "'{written}' is not a cloze: '==' must touch the text it marks on the inside, "
        "write '=={inner}=='",
    )
    MARK_UNCLOSED = (
        "AG531",
        WARNING,
        "near miss: a `==` that opens a shorthand cloze but never closes (`The ==mode is`)",
        "close the mark after the text it hides (`==mode==`), or escape it (`\\==`)",
        "'{written}' never closes, so it makes no cloze: close it after the text it hides "
        "('=={inner}==') or escape it ('\\==')",
    )
    UNREAD_FILE = (
        "AG540",
        WARNING,
        "near miss: a markdown file below a content folder that the build does not read",
        "move it into the content folder, or name it as a path",
        "not read by the build: {fix}",
    )
    MATHJAX_DELIMITER = (
        "AG600",
        WARNING,
        r"`\(` or `\[` (written `\\(`, `\(`, `&#92;(`...) in text: Anki's MathJax delimiter, "
        "not math here (section 16)",
        "write `$…$` or `$$…$$`",
        "'{spelling}' is Anki's MathJax delimiter, not math in this format "
        "(the card shows it as text, never typeset): write {meant} for a formula",
    )
    TEX_COMMAND_REFUSED = (
        "AG601",
        ERROR,
        "a formula uses a TeX command or environment that may not reach a card (section 16)",
        "remove the command",
        "{detail}",
    )
    UNSAFE_SVG = (
        "AG602",
        ERROR,
        "an SVG image holds something that could run, link or load (section 11)",
        "remove scripts, links and external references from the SVG",
        "{what} {reason}",
    )
    LINK_SCHEME = (
        "AG603",
        WARNING,
        "a link with a scheme other than `https:`, `http:` or `mailto:` keeps its text and "
        "loses its target (section 5.6)",
        "link to an `https:` page, or a relative file",
        "link '{href}' shows as text with no target: only https:, http:, "
        "mailto: and relative links keep theirs on a card",
    )
    IMAGE_LINK_LOOP = (
        "AG611",
        ERROR,
        "an image path is a symbolic link that loops",
        "replace the link by the file",
        "image '{image}' is a symbolic link that loops",
    )
    FORMULA_TOO_LONG = (
        "AG612",
        ERROR,
        "a formula longer than 4000 characters",
        "split it up",
        "formula is too long ({length:,} characters; at most {most:,}): split it up",
    )
    FORMULA_BRACES_TOO_DEEP = (
        "AG613",
        ERROR,
        "a formula nests braces more than 40 deep",
        "flatten it",
        "formula nests braces {depth} deep (at most {most})",
    )
    SUBDECK_TOO_DEEP = (
        "AG620",
        ERROR,
        "with `subdecks: true`, a `##` section makes a deck nested more than 11 levels (each "
        "`::` nests one; Anki refuses the whole package), a deck name over 1,000 characters, "
        "or an empty name between `::` (Anki imports it as 'blank')",
        "write fewer `::` in the heading, or shorten it, or write a name between each `::`",
        "{what} makes a deck {why}",
    )
    DECK_TOO_DEEP = (
        "AG621",
        ERROR,
        "the deck's name (front matter `deck` or the `#` title) is nested more than 11 levels, "
        "over 1,000 characters, or has an empty name between `::` (Anki imports it as 'blank')",
        "write fewer `::` in it, or shorten it, or write a name between each `::`",
        "{what} makes a deck {why}",
    )
    YAML_ALIAS = (
        "AG650",
        ERROR,
        "front matter uses a YAML anchor or alias",
        "write each value out",
        "front matter: YAML anchors and aliases (&name, *name) are not allowed; "
        "write each value out",
    )
    FRONT_MATTER_TOO_DEEP = (
        "AG651",
        ERROR,
        "front matter nests lists or mappings more than 8 deep",
        "write `key: value` lines and one list of tags",
        "front matter nests lists or mappings more than {most} deep; "
        "front matter is 'key: value' lines and one list of tags",
    )
    FILE_LINK_OUTSIDE = (
        "AG652",
        ERROR,
        "content file is a symbolic link to a file outside the content folder",
        "copy the file into the folder",
        "content file is a symbolic link to a file outside the content folder "
        "'{folder}'; copy the file into the folder instead of linking it",
    )
    DUPLICATE_DECK_KEY = (
        "AG653",
        ERROR,
        "two content files of one build have the same deck key",
        "give one of them another `key:`",
        "deck key '{key}'{source} is also the deck key of {where}: the decks would share "
        "note GUIDs and deck ids, and importing one would overwrite the other's notes; "
        "give each file its own 'key:' in the front matter",
    )
    IMAGE_NAME_INVALID = (
        "AG655",
        ERROR,
        "image path with a NUL character (`%00`) or a name too long for the file system",
        "rename the file",
        "image path '{path}' {problem}",
    )
    IMAGE_TOO_LARGE = (
        "AG656",
        ERROR,
        "image file larger than 20 MB",
        "shrink or compress the image",
        "image '{image}' is larger than the {limit} MB limit for images; "
        "shrink or compress it (the limit cannot be raised)",
    )
    IMAGE_UNREADABLE = (
        "AG657",
        ERROR,
        "image file exists but cannot be read (the reason is named)",
        "check its permissions",
        "image '{image}' cannot be read: {reason}",
    )
    FIGURE_TIME_LIMIT = (
        "AG660",
        ERROR,
        "figure did not finish within `figure-time-limit`",
        "make the script faster, or raise the limit",
        "figure '{figure}' did not finish within the figure time limit of "
        "{limit:g} s; make it faster, or raise figure-time-limit in [tool.ankigen]",
    )
    CHECK_DECK_TIME_LIMIT = (
        "AG661",
        ERROR,
        "the checks of a file used up `check-deck-time-limit`",
        "simplify the slow statements, or raise the limit",
        "{what}: the checks of this file took the whole check-deck-time-limit of {limit:g} s; "
        "simplify the slow statements, or raise check-deck-time-limit in [tool.ankigen]",
    )
    FORMULA_TIME_LIMIT = (
        "AG662",
        ERROR,
        "drawing a formula took longer than `formula-time-limit`",
        "simplify the formula, raise the limit, or use `math: mathjax`",
        "drawing it took longer than the formula time limit of {limit:g} s; "
        "simplify it, or raise formula-time-limit in [tool.ankigen]",
    )
    FORMULA_TOO_DEEP = (
        "AG663",
        ERROR,
        "formula nests too deeply to draw as an image",
        "flatten it",
        "it is too deeply nested to draw as an image: flatten it (this limit cannot be raised)",
    )
    FIGURE_DECK_TIME_LIMIT = (
        "AG668",
        ERROR,
        "the figures of a file used up `figure-deck-time-limit` together; this figure was not "
        "drawn",
        "make the figures faster, use fewer, or raise the limit",
        "figure '{figure}' is not drawn: the figures of this file used up their "
        "time together (figure-deck-time-limit in [tool.ankigen]); make them faster, "
        "use fewer, or raise the limit",
    )
    NOT_AN_IMAGE = (
        "AG670",
        ERROR,
        "an image file whose bytes are not a PNG, JPEG, GIF, WebP or SVG image (or one cut "
        "short or damaged), whatever its name says (section 11)",
        "re-export the image",
        "is not an image: {why}",
    )
    MARKUP_AS_RASTER = (
        "AG671",
        ERROR,
        "an image or figure whose bytes are markup (SVG or HTML) under a raster name (`.png`, "
        "`.gif`, …) (section 11)",
        "save an SVG drawing with the `.svg` extension",
        "is markup (SVG or HTML), not a {named} image; save an SVG drawing with the .svg extension",
    )
    IMAGE_TOO_MANY_PIXELS = (
        "AG672",
        ERROR,
        "a raster image or figure that declares more than 16,384 pixels a side or 40,000,000 "
        "pixels in all (section 11)",
        "scale it down",
        "declares {width} x {height} pixels, more than the limit of {side} "
        "pixels a side and {pixels:,} pixels in all; scale it down",
    )
    FIGURE_WRONG_FORMAT = (
        "AG673",
        ERROR,
        "a figure whose bytes are not of the format asked for (`--figure-format`)",
        "draw into the figure given, and let ankigen save it",
        "is a {found} image, not {wanted}",
    )
    KIND_CHANGED = (
        "AG701",
        ERROR,
        "with `--against`: the item changed between reveal and cloze under the same id",
        "give it a new id",
        "this item changed between reveal and cloze under the same {what} as in {old}: "
        "Anki would skip it in every learner's collection (and refuse the deck with "
        "'merge note types'); give the item a new id",
    )
    NOTE_NOT_NEWER = (
        "AG702",
        WARNING,
        "with `--against`: the note changed but is not newer than in the old release, so Anki "
        "would keep the old one",
        "build from a later commit (or a later `SOURCE_DATE_EPOCH`)",
        "this note changed but is not newer than in {old}: Anki will keep the old note; "
        "build from a later commit (or a later SOURCE_DATE_EPOCH)",
    )
    NOTE_TYPE_CHANGED = (
        "AG703",
        WARNING,
        "with `--against`: the note's note type has other fields or templates than in the old "
        "release; Anki would copy the note type and skip the note",
        "keep the fields and templates of the released note type",
        "the note type of this note has other fields or templates than in {old}: "
        "Anki will import a copy of the note type and skip the note",
    )
    NOT_CARRIED_OVER = (
        "AG801",
        WARNING,
        "`ankigen import`: something of a source that the content file could not carry over (a "
        "field, card type, sound, style, script, image outside the package), at the source's "
        "file and line (for an `.apkg`: the note's number)",
        "nothing, or write it by hand; see [import.md](import.md)",
        "not carried over: {what}",
    )
    MEDIA_NAME_TAKEN = (
        "AG802",
        WARNING,
        "`ankigen import`: a media file of the same name already exists in `--out` with other "
        "bytes; it is kept",
        "import into an empty folder",
        "media file {name} already exists with other bytes: kept as it was",
    )
    ANKDOWN_DOLLAR_MATH = (
        "AG803",
        WARNING,
        r"`ankigen import --from ankdown`: a file with TeX between dollars and no `\(…\)` is "
        "read with ankdown's `dollar` option (`$…$` as math)",
        "nothing, if that is how the file was written",
        "'$…$' read as math (ankdown's 'dollar' option): the file has no '\\(…\\)'",
    )
    IMPORT_READS_BACK_OTHERWISE = (
        "AG804",
        WARNING,
        "`ankigen import`: the content file written reads back as another number of items than "
        "the source had (text of the source reads as this format's syntax)",
        "compare the file with the source at the items the warnings name, and edit it",
        "the source had {items} item{s} but this file reads back as {read} ({what}): compare "
        "it with the source and edit it",
    )
