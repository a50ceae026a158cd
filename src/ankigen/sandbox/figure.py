"""Drawing one figure script: what runs inside the figure's confined child.

The child (``ankigen.sandbox.runner``) has confined itself before it calls
:func:`draw`; only then are matplotlib imported and the script read. The
build sends the script's path, the path its messages show, the image format
and the deck's formulas as data (``ankigen.sandbox.formulas``); the answer is
the image's bytes, or the error's message and the script's traceback.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib.util
import io
import traceback
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from types import ModuleType
from typing import Any

from ankigen.errors import FormulaNotCompiled
from ankigen.sandbox.formulas import formulas_from_wire

__all__ = ["FIGURE_FONT_SIZE", "FIGURE_SIZE", "draw", "figure_rc"]

Formulas = Mapping[str, Callable[..., float]]

#: A figure is drawn for a card 360-500 px wide (phone to desktop). At this
#: size (4.8 x 3.2 in, shown 1 in = 96 px) it shows at natural size on a 500 px
#: card and at 69 % on a 360 px phone, where 13 pt text is still 12 px high.
FIGURE_SIZE = (4.8, 3.2)
#: Default text size (pt) of every figure: titles, labels, ticks and legends.
FIGURE_FONT_SIZE = 13.0
_FIGURE_RC: dict[Any, Any] = {
    "font.size": FIGURE_FONT_SIZE,
    "axes.titlesize": "large",
    "axes.labelsize": "medium",
    "xtick.labelsize": "medium",
    "ytick.labelsize": "medium",
    "legend.fontsize": "medium",
    "lines.linewidth": 2.0,
}
_FORMATS = ("svg", "png")


def draw(request: object) -> bytes | tuple[str, str]:
    """The figure a request asks for: its bytes, or its error message and traceback.

    ``request`` is ``{"script", "shown", "format", "formulas"}`` as the build
    sent it (``ankigen.render``); a malformed one is a ValueError.
    """
    if not isinstance(request, dict):
        raise ValueError("a figure request must be an object")
    script, shown, image_format = (request.get(k) for k in ("script", "shown", "format"))
    if not (isinstance(script, str) and isinstance(shown, str) and image_format in _FORMATS):
        raise ValueError("a figure request names a script, its shown path and a format")
    formulas = formulas_from_wire(request.get("formulas"))
    return draw_quietly(Path(script), shown, formulas, str(image_format))


def draw_quietly(
    script: Path, shown: str, formulas: Formulas, image_format: str
) -> bytes | tuple[str, str]:
    """The figure's bytes, or its error message and traceback.

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
    with figure_rc():
        fig = Figure(figsize=FIGURE_SIZE, dpi=100)
        draw(fig, formulas)
    buffer = io.BytesIO()
    # ticks are made while saving: they take their size from the same defaults
    with figure_rc(), _deterministic_rc():
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


def figure_rc() -> AbstractContextManager[None]:
    """matplotlib's settings while a figure is drawn: its text sizes and line width."""
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
