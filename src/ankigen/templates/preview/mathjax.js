// MathJax as Anki's reviewer configures it: \(...\) and \[...\] only, no
// escapes, environments or references outside them. Only the cards are read
// (each side is marked tex2jax_process inside a tex2jax_ignore body): the
// page's own text (deck, section, callout and file names, tags, messages) is
// never typeset. Commands that link, style, load or name (\href, \cssId,
// \style, \require, \unicode) are switched off too, though a card's formulas
// cannot hold them (the TeX allow-list refused them first); \class stays, for
// the cloze colour ankigen writes itself.
window.MathJax = {
  tex: {
    inlineMath: [["\\(", "\\)"]],
    displayMath: [["\\[", "\\]"]],
    processEscapes: false,
    processEnvironments: false,
    processRefs: false,
    packages: {"[-]": ["require", "unicode", "autoload"]},
    macros: {href: ["{#2}", 2], cssId: ["{#2}", 2], style: ["{#2}", 2]}
  },
  svg: {fontCache: "global"},
  options: {
    enableMenu: false,
    ignoreHtmlClass: "tex2jax_ignore",
    processHtmlClass: "tex2jax_process"
  },
  startup: {
    ready: function () {
      MathJax.startup.defaultReady();
      // resolves once every formula is typeset (or has failed)
      window.ankigenMathJax = MathJax.startup.promise;
    }
  }
};
