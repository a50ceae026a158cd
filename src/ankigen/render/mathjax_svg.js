// ankigen's formula drawing: TeX -> SVG with MathJax 3's own modules in an
// embedded V8 (src/ankigen/render/_mathjax_engine.py loads this after the
// MathJax components). No loader, no startup module, no DOM: MathJax's
// liteDOM adaptor builds the tree, and this file writes it.
//
// What is closed here (the TeX itself was checked against the allow-list
// before it got here):
// * Nothing is loaded: MathJax.loader does not exist, so no component can
//   fetch a file, and \require is not defined (its package is not loaded).
// * No state carries over: every formula gets a fresh TeX input jax, so a
//   definition (\def, \DeclarePairedDelimiter, \definecolor, a \label) made
//   by one formula is gone for the next.
// * The SVG is written by `write` below, not by liteDOM's serializer (which
//   writes `href` and `style` values unescaped): only the elements and
//   attributes a formula needs, every attribute value and text escaped.
var AnkigenMathJax = (function () {
  'use strict';
  var _ = MathJax._;
  var adaptor = _.adaptors.liteAdaptor.liteAdaptor();
  _.handlers.html_ts.RegisterHTMLHandler(adaptor);
  var font = new _.output.svg.fonts.tex_ts.TeXFont();
  var output = new _.output.svg_ts.SVG({fontCache: 'none', font: font});
  var PACKAGES = ['base', 'ams', 'boldsymbol', 'cancel', 'color', 'mathtools'];

  // What a drawn formula may hold. Anything else is refused (an error), so a
  // MathJax change that adds an element is noticed, never shipped unread.
  var ELEMENTS = {svg: 1, g: 1, path: 1, rect: 1, line: 1, ellipse: 1, polygon: 1, text: 1};
  var ATTRIBUTES = {
    xmlns: 1, width: 1, height: 1, viewBox: 1, preserveAspectRatio: 1, transform: 1,
    d: 1, x: 1, y: 1, x1: 1, y1: 1, x2: 1, y2: 1, cx: 1, cy: 1, rx: 1, ry: 1, points: 1,
    fill: 1, stroke: 1, 'stroke-width': 1, 'stroke-dasharray': 1,
    'font-family': 1, 'font-size': 1, 'font-style': 1, 'font-weight': 1
  };
  // Formulas are black on transparent (card.css inverts them in night mode).
  var INK = '#000000';

  function escape(value) {
    return String(value)
      .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  }

  function write(node, out) {
    var kind = adaptor.kind(node);
    if (kind === '#text') {
      out.push(escape(adaptor.value(node)));
      return;
    }
    if (kind === '#comment') return;
    if (!ELEMENTS.hasOwnProperty(kind)) throw new Error('MathJax drew an unexpected <' + kind + '>');
    out.push('<' + kind);
    adaptor.allAttributes(node).forEach(function (attribute) {
      if (!ATTRIBUTES.hasOwnProperty(attribute.name)) return;
      var value = attribute.value === 'currentColor' ? INK : attribute.value;
      out.push(' ' + attribute.name + '="' + escape(value) + '"');
    });
    out.push('>');
    adaptor.childNodes(node).forEach(function (child) { write(child, out); });
    out.push('</' + kind + '>');
  }

  function draw(source, display) {
    var input = new _.input.tex_ts.TeX({
      packages: PACKAGES,
      formatError: function (jax, error) { throw error; }
    });
    var doc = _.mathjax.mathjax.document('', {InputJax: input, OutputJax: output});
    var container = doc.convert(source, {display: display, em: 16, ex: 8, containerWidth: 1280});
    var svg = adaptor.firstChild(container);
    var out = [];
    write(svg, out);
    return JSON.stringify({
      svg: out.join(''),
      width: adaptor.getAttribute(svg, 'width'),
      height: adaptor.getAttribute(svg, 'height'),
      align: adaptor.getStyle(svg, 'vertical-align') || '0ex'
    });
  }

  return {
    draw: function (source, display) {
      try {
        return draw(source, display);
      } catch (error) {
        // TeX errors carry their message; anything else is a bug, said as such.
        var message = error && error.message ? error.message : String(error);
        if (error instanceof TypeError || error instanceof ReferenceError) {
          message = 'MathJax stopped on an internal error (' + message + "): check the formula's " +
            'commands and braces';
        }
        throw new Error('MathJax: ' + message);
      }
    },
    // The writer alone, for the tests of its escaping (tests/render/test_mathjax_engine.py).
    write: function (node) {
      var out = [];
      write(node, out);
      return out.join('');
    },
    version: MathJax.version
  };
})();
