"""Figures: ``figures/<id>.py`` scripts drawn with matplotlib.

Figure scripts are the only code a build runs. Each is loaded from the
figures folder by its id (which cannot name a path elsewhere) and drawn once
per build for each set of formulas; results are cached by content hash.
Each drawing runs in a child process, a fresh interpreter that is killed at
the figure time limit, so a script that ignores every exception (even the
time limit's) cannot hang the build; the child's bytes are the same as
drawing in-process would give (``ankigen.sandbox.figure`` draws, with the
deck's formulas sent as data). The child confines itself
(``ankigen.sandbox.confine``) before it imports matplotlib or reads the
script: memory and CPU limits, a working folder of its own and, where Linux
allows, no network, no file outside the project and Python's folders, no
process left behind. The figures of one deck share a time budget
(``figure-deck-time-limit``).
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ankigen.build.paths import display_path
from ankigen.build.timelimit import TimeLimitExceeded, TimeLimits
from ankigen.diagnostics import Code
from ankigen.render._media import Failed, MediaCache, Place, Shipped, ShipResult, content_hash
from ankigen.render._media_type import MediaProblem, judge_media
from ankigen.render._svg_safety import RefusedSvg, sanitise_svg
from ankigen.sandbox.child import ChildFailed, Task, call_in_child
from ankigen.sandbox.confine import Confinement
from ankigen.sandbox.figure import FIGURE_FONT_SIZE
from ankigen.sandbox.formulas import formulas_to_wire

_FIGURE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
#: Bump when the way figures are saved changes, so old cache entries are not reused.
_RENDER_VERSION = "fig-3"  # fig-3: SVG figures pass the same allow-list as SVG images

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Formulas = Mapping[str, Callable[..., float]]

#: Seconds a figure script may take before the build gives up on it (the default
#: of ``figure-time-limit`` in ``[tool.ankigen]``).
FIGURE_TIME_LIMIT = TimeLimits.figure

#: Address space (bytes) a figure's child may add to what a fresh interpreter holds
#: (matplotlib's import and the script's work count against it): its ``RLIMIT_AS``.
FIGURE_MEMORY = 1 << 30

#: The smallest text (px on a 360 px phone card) a figure should have.
MIN_TEXT_PX = 11.0
#: The width the card leaves a figure on a 360 px phone (1 em padding each side).
PHONE_CONTENT_PX = 320.0
#: The function that draws a figure in its child (``ankigen.sandbox.figure.draw``).
_DRAW_TASK = "ankigen.sandbox.figure:draw"


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
        if not _FIGURE_ID.match(figure_id):  # `figure:../x` names no script: never a path
            expected = "such script: a figure id is a name of letters, digits, '-' and '_'"
        message = Code.UNKNOWN_FIGURE.message(figure=figure_id, expected=expected)
        return place.failed(message, code=Code.UNKNOWN_FIGURE)
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
    seconds = min(time_limit, budget)
    task = Task(
        _DRAW_TASK,
        {
            "script": str(script),
            "shown": display_path(script),
            "format": image_format,
            "formulas": formulas_to_wire(formulas),
        },
    )
    readable = (
        *(project_reads(project) if project is not None else ()),
        figures_dir,
        *_matplotlib_folders(),
    )
    try:
        with _workdir() as workdir:
            confinement = Confinement(FIGURE_MEMORY, seconds, readable, workdir)
            outcome = _image_or_error(call_in_child(task, seconds, confinement))
    except TimeLimitExceeded:
        if seconds < time_limit:
            return _budget_spent(figure_id, place)
        return place.failed(
            Code.FIGURE_TIME_LIMIT.message(figure=figure_id, limit=time_limit),
            code=Code.FIGURE_TIME_LIMIT,
        )
    except ChildFailed as exc:
        hint = _LIMITS_HINT if "killed by signal" in str(exc) else ""
        message = Code.FIGURE_NO_RESULT.message(figure=figure_id, why=exc, hint=hint)
        return place.failed(message, code=Code.FIGURE_NO_RESULT)
    if isinstance(outcome, bytes):
        return _ship(figure_id, name, outcome, image_format, cache, script, place)
    message, trace = outcome
    if not trace:  # a formula the figure uses is broken or unknown: its message says so
        message = Code.FIGURE_FORMULA_NAME.message(figure=figure_id, problem=message)
        return place.failed(message, code=Code.FIGURE_FORMULA_NAME)
    message = Code.FIGURE_RAISED.message(figure=figure_id, error=message)
    return place.failed(message, trace, code=Code.FIGURE_RAISED)


@functools.cache
def project_reads(project: Path) -> tuple[Path, ...]:
    """What of the project a figure may read: each entry at its top but the hidden ones.

    ``.git`` holds a CI checkout's token in its config, ``.env`` files hold secrets;
    no figure needs them. A link at the top is left out too: Landlock would grant
    what it points to, wherever that is (beneath a granted folder, a link that
    leaves it stays refused).
    """
    try:
        entries = sorted(project.iterdir())
    except OSError:
        return ()
    return tuple(e for e in entries if not e.name.startswith(".") and not e.is_symlink())


def _matplotlib_folders() -> tuple[Path, ...]:
    """matplotlib's data and its font cache, which a figure's child reads."""
    import matplotlib

    return (Path(matplotlib.get_data_path()), Path(matplotlib.get_cachedir()))


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
    message = Code.FIGURE_DECK_TIME_LIMIT.message(figure=figure_id)
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
            message = Code.UNSAFE_SVG.message(what=f"figure '{figure_id}'", reason=cleaned.reason)
            return place.failed(message, code=Code.UNSAFE_SVG)
        drawn = cleaned.data
    return Shipped(cache.put(name, drawn), script, drawn=True)


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
