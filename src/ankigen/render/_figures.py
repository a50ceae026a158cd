"""Figures: ``figures/<id>.py`` scripts drawn with matplotlib.

Figure scripts are the only code a build runs. Each is loaded from the
figures folder by its id (which cannot name a path elsewhere) and drawn once
per build for each set of formulas; results are cached by content hash.
Each drawing runs in a child process that is killed at the figure time limit,
so a script that ignores every exception (even the time limit's) cannot hang
the build; the child's bytes are the same as drawing in-process would give.
The child is confined (``ankigen.sandbox.confine``): memory and CPU limits, a working
folder of its own and, where Linux allows, no network, no file outside the
project and Python's folders, no process left behind. The figures of one
deck share a time budget (``figure-deck-time-limit``).
"""

from __future__ import annotations

import contextlib
import difflib
import importlib.util
import io
import math
import re
import shutil
import tempfile
import traceback
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ankigen.build.paths import display_path
from ankigen.build.timelimit import TimeLimitExceeded, TimeLimits
from ankigen.diagnostics import Code
from ankigen.errors import FormulaNotCompiled
from ankigen.render._media import Failed, MediaCache, Place, Shipped, ShipResult, content_hash
from ankigen.render._media_type import MediaProblem, judge_media
from ankigen.render._svg_safety import RefusedSvg, sanitise_svg
from ankigen.sandbox.child import ChildFailed, call_in_child
from ankigen.sandbox.confine import Confinement

_FIGURE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
#: Bump when the way figures are saved changes, so old cache entries are not reused.
_RENDER_VERSION = "fig-3"  # fig-3: SVG figures pass the same allow-list as SVG images

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Formulas = Mapping[str, Callable[..., float]]

#: Seconds a figure script may take before the build gives up on it (the default
#: of ``figure-time-limit`` in ``[tool.ankigen]``).
FIGURE_TIME_LIMIT = TimeLimits.figure

#: Address space (bytes) a figure script may add to the build's: its ``RLIMIT_AS``.
FIGURE_MEMORY = 1 << 30

#: A figure is drawn for a card 360-500 px wide (phone to desktop). At this
#: size (4.8 x 3.2 in, shown 1 in = 96 px) it shows at natural size on a 500 px
#: card and at 69 % on a 360 px phone, where 13 pt text is still 12 px high.
FIGURE_SIZE = (4.8, 3.2)
#: Default text size (pt) of every figure: titles, labels, ticks and legends.
FIGURE_FONT_SIZE = 13.0
#: The smallest text (px on a 360 px phone card) a figure should have.
MIN_TEXT_PX = 11.0
#: The width the card leaves a figure on a 360 px phone (1 em padding each side).
PHONE_CONTENT_PX = 320.0
_FIGURE_RC: dict[Any, Any] = {
    "font.size": FIGURE_FONT_SIZE,
    "axes.titlesize": "large",
    "axes.labelsize": "medium",
    "xtick.labelsize": "medium",
    "ytick.labelsize": "medium",
    "legend.fontsize": "medium",
    "lines.linewidth": 2.0,
}


def figure_script(figure_id: str, figures_dir: Path) -> Path | None:
    """The script for ``figure_id`` inside ``figures_dir``, or None if there is none."""
    if not _FIGURE_ID.match(figure_id):
        return None
    try:
        script = (figures_dir / f"{figure_id}.py").resolve()
    except RuntimeError:  # a symbolic link loop
        return None
    if not script.is_relative_to(figures_dir.resolve()) or not script.is_file():
        return None
    return script


def draw_figure(
    figure_id: str,
    figures_dir: Path,
    formulas: Formulas,
    formulas_source: str,
    image_format: str,
    cache: MediaCache,
    time_limit: float = FIGURE_TIME_LIMIT,
    *,
    place: Place,
    budget: float = math.inf,
    project: Path | None = None,
) -> ShipResult:
    """Draw one figure (or take it from the cache) as SVG or PNG, within ``time_limit`` s.

    ``budget`` is what is left of the deck's figure time (``figure-deck-time-limit``);
    ``project`` the folder the script may read besides ``figures_dir``. A failure is
    an error at ``place``, with the script's traceback as its detail.
    """
    script = figure_script(figure_id, figures_dir)
    if script is None:
        expected = display_path(figures_dir / f"{figure_id}.py")
        return place.failed(
            f"unknown figure '{figure_id}': there is no {expected}", code=Code.UNKNOWN_FIGURE
        )
    source = script.read_bytes()
    name = (
        f"ag-fig-{figure_id}-"
        f"{content_hash(_RENDER_VERSION, source, formulas_source, image_format)}"
        f".{image_format}"
    )
    if cache.has(name):
        return Shipped(cache.get(name), script)
    if budget <= 0:
        return _budget_spent(figure_id, place)
    import matplotlib.figure  # noqa: F401  # imported once here, not in every child

    seconds = min(time_limit, budget)
    work = partial(_draw_quietly, script, display_path(script), formulas, image_format)
    readable = tuple(p for p in (project, figures_dir) if p is not None)
    try:
        with _workdir() as workdir:
            confinement = Confinement(FIGURE_MEMORY, seconds, readable, workdir)
            outcome = _image_or_error(call_in_child(work, seconds, confinement))
    except TimeLimitExceeded:
        if seconds < time_limit:
            return _budget_spent(figure_id, place)
        return place.failed(
            f"figure '{figure_id}' did not finish within the figure time limit of "
            f"{time_limit:g} s; make it faster, or raise figure-time-limit in [tool.ankigen]",
            code=Code.FIGURE_TIME_LIMIT,
        )
    except ChildFailed as exc:
        hint = _LIMITS_HINT if "killed by signal" in str(exc) else ""
        return place.failed(f"figure '{figure_id}' failed: {exc}{hint}", code=Code.FIGURE_NO_RESULT)
    if isinstance(outcome, bytes):
        return _ship(figure_id, name, outcome, image_format, cache, script, place)
    message, trace = outcome
    if not trace:  # a formula the figure uses is broken or unknown: its message says so
        return place.failed(f"figure '{figure_id}' {message}", code=Code.FIGURE_FORMULA_NAME)
    return place.failed(f"figure '{figure_id}' failed: {message}", trace, code=Code.FIGURE_RAISED)


def _image_or_error(answer: object) -> bytes | tuple[str, str]:
    """The child's answer, which comes from the script's process: its shape is checked."""
    if isinstance(answer, bytes):
        return answer
    if isinstance(answer, list) and len(answer) == 2 and all(isinstance(t, str) for t in answer):
        return answer[0], answer[1]
    raise ChildFailed("its process gave no image")


_LIMITS_HINT = (
    f" (a figure may use {FIGURE_MEMORY >> 20} MiB of memory and its time limit of CPU time)"
)


def _budget_spent(figure_id: str, place: Place) -> Failed:
    message = (
        f"figure '{figure_id}' is not drawn: the figures of this file used up their "
        "time together (figure-deck-time-limit in [tool.ankigen]); make them faster, "
        "use fewer, or raise the limit"
    )
    return place.failed(message, code=Code.FIGURE_DECK_TIME_LIMIT)


@contextlib.contextmanager
def _workdir() -> Iterator[Path]:
    """A fresh folder for one figure script to work (and write) in, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="ankigen-figure-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _ship(
    figure_id: str,
    name: str,
    drawn: bytes,
    image_format: str,
    cache: MediaCache,
    script: Path,
    place: Place,
) -> ShipResult:
    """Cache a drawn figure; an SVG first passes the allow-list every SVG image passes.

    A script is the author's code: matplotlib's ``set_url`` or ``gid`` can put a
    ``javascript:`` link or markup into the SVG it writes.
    """
    kind = judge_media(drawn, f".{image_format}", exact=True)  # a script may write anything
    if isinstance(kind, MediaProblem):
        return place.failed(f"figure '{figure_id}' {kind.message}", code=kind.code)
    if image_format == "svg":
        cleaned = sanitise_svg(drawn)
        if isinstance(cleaned, RefusedSvg):
            return place.failed(f"figure '{figure_id}' {cleaned.reason}", code=Code.UNSAFE_SVG)
        drawn = cleaned.data
    return Shipped(cache.put(name, drawn), script, drawn=True)


def _draw_quietly(
    script: Path, shown: str, formulas: Formulas, image_format: str
) -> bytes | tuple[str, str]:
    """The figure's bytes, or its error message and traceback (runs in the child).

    ``shown`` is the script's path as messages show it (from the build's folder:
    the child works in a folder of its own). A formula the script uses that
    failed, or that no ``formulas`` block defines, is the author's mistake in
    the content, not in the script: its message comes without a traceback.
    """
    # A script's prints would break the tool's output; what it says is dropped.
    chatter = io.StringIO()
    try:
        with contextlib.redirect_stdout(chatter), contextlib.redirect_stderr(chatter):
            return _run_script(script, _FigureFormulas(formulas), image_format)
    except (FormulaNotCompiled, UnknownFormula) as exc:
        return str(exc), ""
    except BaseException as exc:  # a script may raise anything, even exit
        return f"{type(exc).__name__}: {exc}", _script_traceback(exc, script, shown)


class UnknownFormula(KeyError):
    """A figure asked for a name that no ``formulas`` block of its file defines."""

    def __str__(self) -> str:
        return str(self.args[0])


class _FigureFormulas(Mapping[str, Callable[..., float]]):
    """A figure's ``formulas``: an unknown name is an error that names the known ones."""

    def __init__(self, formulas: Formulas) -> None:
        self._formulas = formulas

    def __getitem__(self, name: str) -> Callable[..., float]:
        try:
            return self._formulas[name]
        except KeyError:
            known = sorted(self._formulas)
            near = difflib.get_close_matches(str(name), known, n=1)
            hint = (
                f"did you mean '{near[0]}'?"
                if near
                else f"the file defines {', '.join(known)}"
                if known
                else "the file has no formulas block"
            )
            raise UnknownFormula(
                f"uses formula '{name}', which no formulas block of this file defines: {hint}"
            ) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._formulas)

    def __len__(self) -> int:
        return len(self._formulas)


def _run_script(script: Path, formulas: Formulas, image_format: str) -> bytes:
    from matplotlib.figure import Figure  # heavy: only when a figure is drawn

    module = _load(script)
    draw = getattr(module, "draw", None)
    if not callable(draw):
        raise TypeError(f"{script.name} defines no draw(fig, formulas) function")
    with _figure_rc():
        fig = Figure(figsize=FIGURE_SIZE, dpi=100)
        draw(fig, formulas)
    buffer = io.BytesIO()
    # ticks are made while saving: they take their size from the same defaults
    with _figure_rc(), _deterministic_rc():
        fig.savefig(
            buffer,
            format=image_format,
            metadata=_metadata(image_format),
            dpi=200 if image_format == "png" else "figure",
            transparent=False,
            bbox_inches="tight",
        )
    return buffer.getvalue()


def _load(script: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"ankigen_figure_{script.stem}", script)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {script}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _metadata(image_format: str) -> dict[str, str | None]:
    # No dates and no software version: the same figure gives the same bytes.
    if image_format == "svg":
        return {"Date": None, "Creator": None}
    return {"Software": None}


def smallest_text_px(fig: Figure, card_px: float = PHONE_CONTENT_PX) -> float:
    """The height in px of the figure's smallest visible text, shown ``card_px`` wide at most.

    The saved SVG is the figure's tight box (1 in = 96 px in a browser); a card
    narrower than that scales it down, and its text with it.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]
    width_px = (fig.get_tightbbox(renderer).width + 0.2) * 96  # savefig pads 0.1 in
    scale = min(1.0, card_px / width_px)
    sizes = [
        float(t.get_fontsize())
        for t in fig.findobj(Text)
        if t.get_visible() and t.get_text().strip() and t.get_window_extent(renderer).width > 0
    ]
    return min(sizes, default=FIGURE_FONT_SIZE) * 96 / 72 * scale


def _figure_rc() -> AbstractContextManager[None]:
    import matplotlib

    return matplotlib.rc_context(_FIGURE_RC)


def _deterministic_rc() -> AbstractContextManager[None]:
    import matplotlib

    return matplotlib.rc_context({"svg.hashsalt": "ankigen", "svg.fonttype": "path"})


def _script_traceback(exc: BaseException, script: Path, shown: str) -> str:
    """The traceback frames that belong to the figure script, not to ankigen."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if Path(f.filename).resolve() == script]
    lines = traceback.format_list(own or frames[-1:])
    lines.extend(traceback.format_exception_only(type(exc), exc))
    text = "Traceback (most recent call last):\n" + "".join(lines)
    return text.replace(f'"{script}"', f'"{shown}"')
