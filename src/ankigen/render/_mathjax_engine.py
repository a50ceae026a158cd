"""MathJax 3 in an embedded V8: the engine that draws every formula image.

Image mode draws with the same MathJax (3.2.2, from the ``django-static-mathjax``
wheel) that Anki uses in mathjax mode, so both modes accept the same TeX and
look alike. MathJax's own components (core, liteDOM adaptor, TeX input with
the base, AMS, boldsymbol, cancel, color and mathtools packages, SVG output
with the TeX font) are evaluated once per process into one V8 context from the
``mini-racer`` wheel; ``mathjax_svg.js`` then turns TeX into SVG (a fresh TeX
input jax per formula, so no definition carries over; its own writer, which
escapes every attribute value and keeps only what a formula needs).

Limits: the TeX was checked against the allow-list first (``_tex_policy``);
V8 gets a hard heap limit and each formula a time limit; the SVG is capped at
``MAX_SVG_BYTES``. The context is closed explicitly at exit (mini-racer can
hang there otherwise). V8 runs with its own threads (``V8_FLAGS``), which do
not survive a fork: a process forked after V8 started would hang at its first
formula, so it is refused with a message instead (nothing in ankigen forks
without exec: its pool spawns).
"""

from __future__ import annotations

import atexit
import json
import os
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

#: MathJax's components, in load order (each needs the ones before it).
_COMPONENTS = (
    "core.js",
    "adaptors/liteDOM.js",
    "input/tex-base.js",
    "input/tex/extensions/ams.js",
    "input/tex/extensions/boldsymbol.js",
    "input/tex/extensions/enclose.js",  # \cancel draws with enclose
    "input/tex/extensions/cancel.js",
    "input/tex/extensions/color.js",
    "input/tex/extensions/newcommand.js",  # code mathtools uses; not a package here
    "input/tex/extensions/mathtools.js",
    "output/svg.js",
    "output/svg/fonts/tex.js",
)

#: V8's flags for this process. mini-racer's default, ``--single-threaded``, keeps
#: V8 from starting threads so that a process may fork after using it; ankigen
#: never forks (its pool spawns, its child processes start with exec), and with
#: its compiler and collector threads V8 draws a formula about 0.5 ms sooner
#: and with less CPU (``benchmarks/README.md``). The drawing is the same bytes
#: either way (``tests/render/test_mathjax_engine.py``).
V8_FLAGS: tuple[str, ...] = ()
#: V8's heap may not grow past this (MathJax itself takes about 60 MB).
V8_HEAP_LIMIT = 512 * 1024 * 1024
#: A drawn formula's SVG may not be larger than this.
MAX_SVG_BYTES = 1_000_000
#: TeX longer than this is never handed to V8 (the allow-list's limit is lower:
#: this one holds for any caller).
MAX_TEX_CHARS = 10_000

#: What the SVG allow-list's writer starts a document with (its output is then the same bytes).
_XML_DECLARATION = "<?xml version='1.0' encoding='utf-8'?>\n"


class MathJaxError(Exception):
    """MathJax refused the TeX (its message) or the drawing broke a limit."""


class MathJaxTimeout(MathJaxError):
    """Drawing one formula took longer than its time limit."""


class MathJaxTooDeep(MathJaxError):
    """The formula nests deeper than V8's stack lets MathJax go."""


class MathJaxOutOfHeap(MathJaxError):
    """V8's heap reached its limit while drawing; ``fresh``: on an engine that had drawn
    nothing before (else the heap may hold what earlier formulas left)."""

    def __init__(self, message: str, *, fresh: bool) -> None:
        super().__init__(message)
        self.fresh = fresh


@dataclass(frozen=True)
class MathJaxSvg:
    """One formula as MathJax drew it: SVG text and its sizes in ex of MathJax's font."""

    svg: str
    width_ex: float
    height_ex: float
    #: How far the baseline sits above the image's bottom edge (MathJax's vertical-align, negated).
    depth_ex: float


class MathJaxEngine:
    """One V8 context holding MathJax; ``draw`` turns TeX into SVG. Close it when done."""

    def __init__(self) -> None:
        from py_mini_racer import MiniRacer, init_mini_racer  # V8: only when a formula is drawn

        global _v8_pid
        if _v8_pid not in (0, os.getpid()):
            raise RuntimeError(
                "V8 was started before this process was forked from its parent, and its "
                "threads stayed behind: start processes that draw formulas with "
                "multiprocessing's 'spawn' method, as ankigen's own pool does"
            )
        # Only the first call sets the flags; later ones (a second engine) change nothing.
        init_mini_racer(flags=V8_FLAGS, ignore_duplicate_init=True)
        _v8_pid = os.getpid()
        self._context = MiniRacer()
        try:
            self._context.set_hard_memory_limit(V8_HEAP_LIMIT)
            self._context.eval("var MathJax = {};")
            folder = _components_folder()
            for name in _COMPONENTS:
                self._context.eval((folder / name).read_text("utf-8"))
            script = resources.files("ankigen.render").joinpath("mathjax_svg.js")
            self._context.eval(script.read_text("utf-8"))
        except BaseException:
            self._context.close()
            raise
        self._lock = threading.Lock()
        #: V8 ran out of heap once: this context is not trusted again (``engine`` makes another).
        self.spent = False
        #: Formulas this engine has drawn (its heap grows with them: ``MathJaxOutOfHeap``).
        self.drawn = 0

    def draw(self, tex: str, *, display: bool, time_limit: float) -> MathJaxSvg:
        """Draw ``tex`` (already checked) as SVG; raise MathJaxError or MathJaxTimeout."""
        from py_mini_racer import JSEvalException, JSTimeoutException

        if len(tex) > MAX_TEX_CHARS:
            raise MathJaxError(f"formula is too long ({len(tex):,} characters): split it up")
        call = f"AnkigenMathJax.draw({json.dumps(tex)}, {json.dumps(display)})"
        with self._lock:
            try:
                raw = self._context.eval(call, timeout_sec=time_limit)
            except JSTimeoutException:
                raise MathJaxTimeout(f"drawing took over {time_limit:g} s") from None
            except JSEvalException as exc:
                if self._context.was_hard_memory_limit_reached():
                    self.spent = True
                    raise MathJaxOutOfHeap(
                        "drawing it needs too much memory: split it up", fresh=not self.drawn
                    ) from None
                message = _message(str(exc))
                if "Maximum call stack size exceeded" in message:
                    raise MathJaxTooDeep(message) from None
                raise MathJaxError(message) from None
        self.drawn += 1
        drawn = json.loads(str(raw))
        svg = _XML_DECLARATION + str(drawn["svg"])
        if len(svg) > MAX_SVG_BYTES:
            raise MathJaxError(
                f"its image would be {len(svg):,} bytes (at most {MAX_SVG_BYTES:,}): split it up"
            )
        return MathJaxSvg(
            svg=svg,
            width_ex=_ex(drawn["width"]),
            height_ex=_ex(drawn["height"]),
            depth_ex=-_ex(drawn["align"]),
        )

    def close(self) -> None:
        """Let V8 go (mini-racer can hang at interpreter exit with a context left open)."""
        self._context.close()


def _components_folder() -> Path:
    root = resources.files("mathjax").joinpath("static", "mathjax", "es5")
    return Path(str(root))


def _ex(value: object) -> float:
    text = str(value)
    if text == "0":  # MathJax's spelling of a size under 0.001 ex
        return 0.0
    if not text.endswith("ex"):
        raise MathJaxError(f"MathJax gave a size of {text!r}, not in ex")
    return float(text[:-2])


def _message(raw: str) -> str:
    """MathJax's own message for the TeX (its first line, without V8's prefix)."""
    first = raw.strip().splitlines()[0] if raw.strip() else raw
    marker = "MathJax: "
    return first.split(marker, 1)[1] if marker in first else first


# --- one engine per process ---------------------------------------------------

_engine: MathJaxEngine | None = None
_engine_pid = 0
_engine_lock = threading.Lock()
#: The process that started V8 (0: none yet); a child forked from it inherits the value.
_v8_pid = 0


def engine() -> MathJaxEngine:
    """This process's engine, started on first use (RuntimeError in a process forked
    after V8 started: see the module's docstring)."""
    global _engine, _engine_pid
    with _engine_lock:
        if _engine is not None and _engine_pid == os.getpid() and _engine.spent:
            _engine.close()
            _engine = None
        if _engine is None or _engine_pid != os.getpid():
            # An engine inherited through fork is left alone: its V8 threads are gone.
            _engine = MathJaxEngine()  # refused there
            _engine_pid = os.getpid()
            # registered after mini-racer's own exit handlers, so it runs before them
            atexit.register(close_engine)
        return _engine


def close_engine() -> None:
    """Close this process's engine, if it started one (also run at exit)."""
    global _engine
    with _engine_lock:
        if _engine is not None and _engine_pid == os.getpid():
            _engine.close()
        _engine = None
