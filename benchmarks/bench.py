#!/usr/bin/env python
"""Benchmark ankigen against ankdown and the plain-genanki floor (issue 12).

What it measures
----------------
For each size N in ``--sizes`` (default 1k, 10k, 100k) it generates one
deterministic question bank (seeded random) and, from the same notes, the
same bank in ankdown's syntax and the floor's note list. Every build runs in
a fresh subprocess (interpreter start-up and imports included, as for any CLI
run); the tools are interleaved round by round (``--repeat`` rounds) and the
median of each metric is reported. Work measured:

* ``mathjax cold``: ankigen ``--math mathjax`` into an empty output folder;
  ankdown; genanki (the floor: the same notes, raw markdown as field text,
  no parsing, no rendering, no checks).
* ``image cold``: ankigen ``--math image`` into an empty folder (once above
  ``--image-repeat-limit`` items). Its floor is computed: the genanki floor +
  images drawn x mathtext's bare parse per formula / cores.
* ``up-to-date``: the image build again, nothing changed (must say so).
* ``one-answer edit`` / ``one-formula edit``: one answer's words / one inline
  formula changed, rebuilt from the image build's output folder (the formula
  edit must draw exactly one image). Floor: genanki with the same notes and
  the SVGs the image build shipped; ankdown rebuilds everything, as always.
* ``2,500 media``: a bank of 2,500 items, each showing its own image file,
  cold and after a one-answer edit (mathjax mode), against genanki (and
  ankdown, cold) shipping the same 2,500 files.

Per run: wall time, CPU time (user+sys of the whole process tree, from
``wait4``), and peak RSS of the whole tree (summed over its processes,
sampled from /proc every 50 ms; or the largest single process from
``/usr/bin/time``, if that is higher).

ankdown is not an ankigen dependency: ``pip install ankdown`` into the same
environment to include it (it is skipped otherwise).

Usage::

    python benchmarks/bench.py --readme benchmarks/README.md --json results/run.json
    python benchmarks/bench.py --sizes 1000 --repeat 1       # a quick look

Plain script (argparse), no pytest.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import itertools
import json
import os
import platform
import queue
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

#: A results tree as written to (and read back from) results/run.json.
Json = dict[str, Any]

PY = sys.executable
SEED = 20240601
STEM = "bench"  # every bank file is bench.md, so every build writes bench.apkg
MEDIA_ITEMS = 2500  # items (and distinct image files) of the media bank

# --------------------------------------------------------------------------
# Question bank generator
# --------------------------------------------------------------------------

TOPICS = [
    "data parallelism",
    "tensor parallelism",
    "pipeline parallelism",
    "ring all-reduce",
    "gradient accumulation",
    "mixed precision",
    "loss scaling",
    "activation checkpointing",
    "the learning-rate warm-up",
    "weight decay",
    "the Adam optimizer",
    "batch normalization",
    "layer normalization",
    "the attention softmax",
    "the KV cache",
    "ZeRO-2 sharding",
    "sharded optimizer state",
    "the parameter server",
    "gradient clipping",
    "label smoothing",
    "dropout",
    "the cosine schedule",
    "the linear scaling rule",
    "straggler workers",
    "NCCL collectives",
    "the interconnect bandwidth",
    "the micro-batch size",
    "the pipeline bubble",
    "expert parallelism",
    "the router load balance",
]
VERBS = [
    "reduces",
    "increases",
    "hides",
    "doubles",
    "halves",
    "amortizes",
    "dominates",
    "changes",
    "bounds",
    "shifts",
    "saturates",
    "stabilizes",
    "couples",
    "decouples",
]
OBJECTS = [
    "the step time",
    "peak memory",
    "the communication volume",
    "the effective batch",
    "the gradient noise",
    "the number of optimizer steps",
    "throughput per device",
    "the bubble fraction",
    "the final accuracy",
    "the all-reduce latency",
    "the activation memory",
    "the convergence rate",
    "the tokens per second",
]
FILLER = [
    "because every device still has to wait for the slowest one",
    "as long as the compute per device stays larger than the time spent talking",
    "only if the global batch is kept constant while devices are added",
    "which is why the curve flattens once the network is the bottleneck",
    "since the optimizer state is three times the size of the weights in fp32",
    "unless the learning rate is rescaled to match the larger batch",
    "and the saving disappears when the sequence length grows",
    "so measure it on the real cluster before trusting the back-of-envelope number",
    "but only for the forward pass; the backward pass needs the activations again",
    "while the total number of tokens seen stays exactly the same",
]
CODE = [
    "`all_reduce`",
    "`torch.cuda.amp`",
    "`grad_accum_steps`",
    "`no_sync()`",
    "`DistributedDataParallel`",
    "`clip_grad_norm_`",
    "`micro_batch`",
]


def _inline_formula(r: random.Random, i: int) -> str:
    """A realistic ML formula, distinct per item i (i appears in it)."""
    n = 100 + i  # guarantees distinctness across items
    k = r.choice([2, 4, 8, 16, 32, 64, 128, 256])
    lr = r.choice(["0.1", "0.01", "0.001", "3 \\times 10^{-4}", "6 \\times 10^{-4}"])
    b = r.choice(["0.9", "0.95", "0.99", "0.999"])
    templates = [
        rf"\eta_t = \eta_0 \cdot {b}^{{\lfloor t/{n} \rfloor}}",
        rf"\mathcal{{L}} = -\frac{{1}}{{{n}}}\sum_{{i=1}}^{{{n}}} y_i \log \hat{{y}}_i",
        rf"\theta_{{t+1}} = \theta_t - {lr}\,\nabla_\theta \mathcal{{L}}_{{{n}}}(\theta_t)",
        rf"m_t = {b}\, m_{{t-1}} + (1 - {b})\, g_t^{{({n})}}",
        rf"\hat{{v}}_{{{n}}} = \frac{{v_{{{n}}}}}{{1 - {b}^{{{n}}}}}",
        rf"\mathrm{{softmax}}(z)_j = \frac{{e^{{z_j}}}}{{\sum_{{k=1}}^{{{n}}} e^{{z_k}}}}",
        rf"S({k}) = \frac{{T_{{compute}}}}{{T_{{compute}}/{k} + {n}\,\mu s}}",
        rf"T_{{ring}} = 2({k}-1)\left(\alpha + \frac{{{n}\,\mathrm{{MB}}}}{{{k}\beta}}\right)",
        rf"B_{{eff}} = {k} \times {n} = {k * n}",
        rf"\sigma(x) = \frac{{1}}{{1 + e^{{-{n} x}}}}",
        rf"\mathrm{{PPL}} = \exp\left(-\frac{{1}}{{{n}}} \sum_i \log p(w_i)\right)",
        rf"\mathbb{{E}}_{{x \sim p}}[f(x)] \approx \frac{{1}}{{{n}}} \sum_{{i=1}}^{{{n}}} f(x_i)",
        rf"M_{{opt}} = {k} \cdot {n}\,\Phi \;\mathrm{{bytes}}",
        rf"\Vert g \Vert_2 \leq {n}",
    ]
    return r.choice(templates)


def _display_formula(r: random.Random, i: int) -> str:
    n = 100 + i
    k = r.choice([2, 4, 8, 16, 32, 64])
    templates = [
        rf"\mathrm{{Attention}}(Q,K,V) = \mathrm{{softmax}}\left(\frac{{QK^T}}{{\sqrt{{{n}}}}}\right)V",  # noqa: E501
        rf"\mathrm{{LayerNorm}}(x) = \gamma \odot \frac{{x - \mu}}{{\sqrt{{\sigma^2 + 10^{{-5}}}}}} + \beta_{{{n}}}",  # noqa: E501
        rf"\mathrm{{KL}}(p \,\Vert\, q_{{{n}}}) = \sum_x p(x) \log \frac{{p(x)}}{{q_{{{n}}}(x)}}",
        rf"h_t = \tanh(W_{{hh}} h_{{t-1}} + W_{{xh}} x_t + b_{{{n}}})",
        rf"\mathcal{{L}}_{{{n}}} = \frac{{1}}{{N}}\sum_{{i=1}}^{{N}} \ell(f_\theta(x_i), y_i) + \frac{{\lambda}}{{2}} \Vert \theta \Vert_2^2",  # noqa: E501
        rf"S({k}) = \frac{{T_{{compute}}}}{{T_{{compute}}/{k} + 2\frac{{{k}-1}}{{{k}}}\frac{{{n}\,\mathrm{{MB}}}}{{\beta}}}}",  # noqa: E501
    ]
    return r.choice(templates)


def _sentence(r: random.Random, i: int, words: int, tag: bool = True) -> str:
    """Prose of about ``words`` words; ``tag`` ends it with "(case i)", which keeps
    questions and cloze texts (the GUID sources) unique. Answers go untagged: a
    bare number in an answer is a claim that wants a check block."""
    parts = [f"{r.choice(TOPICS).capitalize()} {r.choice(VERBS)} {r.choice(OBJECTS)}"]
    while sum(len(p.split()) for p in parts) < words:
        parts.append(r.choice(FILLER))
    if r.random() < 0.25:
        parts.append(f"see {r.choice(CODE)}")
    if r.random() < 0.25:
        parts[0] = f"**{parts[0]}**"
    return ", ".join(parts) + (f" (case {i})." if tag else ".")


@dataclass
class Bank:
    """A generated bank: its markdown, its notes' raw fields (for the floor) and an edit."""

    text: str
    items: int
    inline_math_items: int
    display_math_items: int
    formulas: list[tuple[str, bool]]
    floor_notes: list[dict[str, object]]
    edit_old: str
    edit_new: str
    answer_old: str = ""


def generate_bank(n: int, seed: int = SEED) -> Bank:
    """A deterministic bank of n items.

    Mix: 45% reveal inline form, 15% reveal block form, 25% `{{cN::...}}`
    clozes, 15% `==...==` clozes; 20% of items hold an inline formula, 5% a
    display formula (`$$` on its own lines, in reveal answers and cloze
    extras); 30% carry an id; a `##` section every 50 items; about 1% of the
    math items put a cloze inside the formula.
    """
    r = random.Random(seed)
    out = [
        "---",
        f'deck: "Benchmark::{n} items"',
        f"key: bench-{n}",
        "tags: [bench]",
        "---",
        "",
        f"# Benchmark bank of {n} items",
        "",
        "Generated by benchmarks/bench.py. Prose before the first section makes no card.",
        "",
    ]
    formulas: list[tuple[str, bool]] = []
    floor: list[dict[str, object]] = []
    inline_count = display_count = 0
    edit_old = edit_new = answer_old = ""
    for i in range(n):
        if i % 50 == 0:
            out += [f"## Section {i // 50 + 1}: {r.choice(TOPICS)}", ""]
        has_inline = r.random() < 0.20
        has_display = r.random() < 0.05
        kind_roll = r.random()
        kind = (
            "reveal"
            if kind_roll < 0.45
            else "block"
            if kind_roll < 0.60
            else "cloze"
            if kind_roll < 0.85
            else "mark"
        )
        meta = f" <!-- id: bench-{i} -->" if r.random() < 0.30 else ""
        if has_display:
            meta = ""  # an id comment must end the item's last paragraph; keep it simple
        inline = ""
        # Every claim on the card (format section 12) is quoted by a statement of
        # the item's check block: a number or formula as the card writes it.
        claims: list[str] = []
        if has_inline:
            tex = _inline_formula(r, i)
            math_cloze = kind == "cloze" and r.random() < 0.05
            if math_cloze:
                tex = rf"\eta_{{new}} = {{{{c2::{(i % 7) + 2}}}}}\,\eta_{{base,{100 + i}}}"
            else:
                formulas.append((tex, False))
                if not edit_old and kind in ("reveal", "block"):  # a premise: no quote to break
                    edit_old = f"${tex}$"
                    edit_new = f"${tex} + 1$"
            inline = f" Assume ${tex}$."
            inline_count += 1
            if kind in ("cloze", "mark"):  # in the cloze text: a claim, not a premise
                shown = re.sub(r"\{\{c\d+::(.*?)\}\}", r"\1", tex)
                claims.append(f"cite ${shown}$ # notation from the lecture notes")
        display_block = ""
        if has_display:
            dtex = _display_formula(r, i)
            formulas.append((dtex, True))
            # a formula in an answer is a claim: its check block quotes it, as authors must;
            # half of them also prove a number written inside it
            k, m = r.randint(2, 64), 100 + i
            claims.append(f"cite ${dtex}$ # definition from the lecture notes")
            if r.random() < 0.5:
                claims.append(f"assert `{m}`/{k} ~= {m / k:.6g} within 1%")
            display_block = f"\n\n$$\n{dtex}\n$$"
            display_count += 1
        q = _sentence(r, i, r.randint(8, 22)).rstrip(".") + "?"
        a = _sentence(r, i, r.randint(14, 45), tag=False)
        if kind == "reveal":
            answer_old = answer_old or a
            front = f"{q}{inline}"
            back = f"{a}{meta}{display_block}"
            out += [f"{front} ::: {back}", ""]
        elif kind == "block":
            words = q.split()
            half = len(words) // 2
            front = " ".join(words[:half]) + "\n" + " ".join(words[half:]) + inline
            extra = _sentence(r, i, r.randint(10, 30), tag=False)
            back = f"{a}\n\n{extra}{meta}{display_block}"
            out += [front, f"::: {back}", ""]
        else:
            words = (a.replace("**", "").rstrip(".") + f" (case {i})").split()
            plain = [w for w, word in enumerate(words) if re.fullmatch(r"[A-Za-z-]+", word)]
            j = r.choice(plain[1:] or plain)
            length = 1
            while length < 3 and j + length in plain and r.random() < 0.5:
                length += 1
            span = " ".join(words[j : j + length])
            rest = " ".join(words[j + length :])
            if kind == "cloze":
                hint = "::hint" if r.random() < 0.2 else ""
                body = f"{' '.join(words[:j])} {{{{c1::{span}{hint}}}}} {rest}"
            else:
                body = f"{' '.join(words[:j])} =={span}== {rest}"
            claims.append(f"assert `{i}` == {i} # the case number, as written")
            front = f"{body.rstrip()}.{inline}"
            extra = ""
            if display_block or r.random() < 0.3:
                extra = " ::: " + _sentence(r, i, r.randint(6, 16), tag=False) + display_block
            back = extra
            out += [f"{front}{extra}{meta}", ""]
        if claims:
            out += ["```check", *claims, "```", ""]
        floor.append(
            {
                "cloze": kind in ("cloze", "mark"),
                "front": front,
                "back": back,
                "guid": f"bench-{n}-{i}",
            }
        )
        if i % 17 == 16:
            out += ["---", "", "A line of prose between items: no card.", ""]
    return Bank(
        "\n".join(out) + "\n",
        n,
        inline_count,
        display_count,
        formulas,
        floor,
        edit_old,
        edit_new,
        answer_old,
    )


def _media_svg(i: int) -> bytes:
    """A small, distinct SVG (about the size of a drawn formula, ~3 KB)."""
    r = random.Random(SEED + 7 + i)
    bars = "".join(
        f'<rect x="{x * 12}" y="{100 - h}" width="10" height="{h}" fill="#{r.randrange(1 << 24):06x}"/>'  # noqa: E501
        for x, h in enumerate(r.randint(5, 95) for _ in range(40))
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="480" height="100">'
        f"<title>figure {i}</title>{bars}</svg>\n"
    ).encode()


def write_media_bank(folder: Path, n: int) -> tuple[Path, list[dict[str, object]], list[str]]:
    """A bank of n reveal items, each answer showing its own image file (img/NNNNN.svg).

    Returns the bank path, the floor's notes and the image paths (the floor's media).
    """
    (folder / "img").mkdir(parents=True, exist_ok=True)
    r = random.Random(SEED + 3)
    lines = ["---", f"key: media-{n}", "---", "", f"# {n} images", ""]
    notes: list[dict[str, object]] = []
    media: list[str] = []
    for i in range(n):
        if i % 50 == 0:
            lines += [f"## Part {i // 50 + 1}", ""]
        image = folder / "img" / f"{i:05d}.svg"
        image.write_bytes(_media_svg(i))
        media.append(str(image))
        q = _sentence(r, i, r.randint(8, 16)).rstrip(".") + "?"
        a = _sentence(r, i, r.randint(10, 20), tag=False)
        back = f"{a} ![bar chart](img/{i:05d}.svg)"
        lines += [f"{q} ::: {back}", ""]
        notes.append(
            {
                "cloze": False,
                "front": q,
                "back": back.replace(f"![bar chart](img/{i:05d}.svg)", f'<img src="{i:05d}.svg">'),
                "guid": f"media-{n}-{i}",
            }
        )
    bank = folder / "media.md"
    bank.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return bank, notes, media


# --------------------------------------------------------------------------
# The floor: plain genanki in a subprocess
# --------------------------------------------------------------------------

FLOOR_SCRIPT = r"""
import json, sys, genanki
spec = json.load(open(sys.argv[1], encoding="utf-8"))
basic = genanki.Model(1607392319, "floor basic",
    fields=[{"name": "Front"}, {"name": "Back"}],
    templates=[{"name": "Card 1", "qfmt": "{{Front}}",
                "afmt": "{{FrontSide}}<hr id=answer>{{Back}}"}])
cloze = genanki.Model(1607392320, "floor cloze", model_type=genanki.Model.CLOZE,
    fields=[{"name": "Text"}, {"name": "Extra"}],
    templates=[{"name": "Cloze", "qfmt": "{{cloze:Text}}", "afmt": "{{cloze:Text}}<br>{{Extra}}"}])
deck = genanki.Deck(2059400110, "floor")
for note in spec["notes"]:
    model = cloze if note["cloze"] else basic
    deck.add_note(genanki.Note(model=model, fields=[note["front"], note["back"]],
                               guid=note["guid"]))
genanki.Package(deck, media_files=spec["media"]).write_to_file(sys.argv[2])
"""

#: markdown-it-py alone: stock CommonMark tokens of the bank, nothing else (no
#: walk, no checks, no HTML, no package). ankigen must parse with markdown-it-py,
#: so this is the least any build of the bank can cost on one core.
MARKDOWN_IT_SCRIPT = r"""
import sys
from markdown_it import MarkdownIt
MarkdownIt("commonmark").parse(open(sys.argv[1], encoding="utf-8").read())
"""


# --------------------------------------------------------------------------
# Running one measured subprocess
# --------------------------------------------------------------------------


@dataclass
class Run:
    label: str
    wall_s: float
    cpu_s: float
    maxrss_mb: float
    tree_rss_mb: float
    tree_pss_mb: float
    rendered: int | None = None
    cached: int | None = None
    up_to_date: bool | None = None
    extra: dict[str, object] = field(default_factory=dict)


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                kids += [int(x) for x in fh.read().split()]
    except OSError:
        pass
    return kids


def _tree_memory(pid: int) -> tuple[int, int]:
    """Summed RSS and summed PSS (bytes) of pid and all its descendants.

    RSS counts pages a forked worker shares with its parent once per process;
    PSS splits each shared page between the processes sharing it, so the PSS
    sum is the memory the tree really occupies.
    """
    page = os.sysconf("SC_PAGE_SIZE")
    rss = pss = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm") as fh:
                rss += int(fh.read().split()[1]) * page
            with open(f"/proc/{p}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1]) * 1024
                        break
        except (OSError, IndexError, ValueError):
            continue
        todo += _children(p)
    return rss, pss


TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
ENV = dict(os.environ)


def use_bytecode_cache(folder: Path | None) -> None:
    """Let the measured processes keep compiled bytecode (as an installed CLI does).

    With PYTHONDONTWRITEBYTECODE set, every run would recompile ankigen's
    sources. The cache goes to a separate prefix folder, so nothing is written
    beside the sources.
    """
    if folder is None:
        return
    ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    ENV["PYTHONPYCACHEPREFIX"] = str(folder)


def measure(cmd: list[str], cwd: Path, label: str) -> tuple[Run, str]:
    """Run cmd; wall time, CPU time, peak RSS (largest process) and peak tree RSS.

    The largest-process peak comes from /usr/bin/time (%M): a child forked
    straight from this script would report at least this script's RSS, which
    Linux carries over the exec. The tree peak sums every process of the tree.
    """
    rss_file = cwd / ".maxrss"
    full = [TIME, "-f", "%M", "-o", str(rss_file), *cmd] if TIME else cmd
    start = time.perf_counter()
    proc = subprocess.Popen(
        full, cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    peak = [0, 0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            rss, pss = _tree_memory(proc.pid)
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert proc.stdout is not None
    output = proc.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{label}: exit {proc.returncode}\n{output[-3000:]}")
    maxrss_kb = float(usage.ru_maxrss)
    if TIME:
        maxrss_kb = float(rss_file.read_text().split()[-1])
        rss_file.unlink()
    run = Run(
        label,
        wall,
        usage.ru_utime + usage.ru_stime,
        maxrss_kb / 1024,
        peak[0] / 2**20,
        peak[1] / 2**20,
    )
    m = re.search(r"images: (\d+) rendered, (\d+) from cache", output)
    if m:
        run.rendered, run.cached = int(m.group(1)), int(m.group(2))
    if "build" in cmd:
        run.up_to_date = "already up to date" in output
    return run, output


def expect(run: Run, output: str, *, up_to_date: bool, drawn: int | None = None) -> Run:
    """Stop the benchmark when a build did not do what its label says.

    A "warm" build that rebuilt (or a "cold"/"edit" build that was skipped)
    would measure the wrong thing.
    """
    if run.up_to_date != up_to_date:
        raise SystemExit(
            f"{run.label}: expected {'an' if up_to_date else 'no'} "
            f"'already up to date' build\n{output[-2000:]}"
        )
    if drawn is not None and run.rendered is not None and run.rendered != drawn:
        raise SystemExit(
            f"{run.label}: expected {drawn} images drawn, got {run.rendered}\n{output[-2000:]}"
        )
    return run


def build_cmd(bank: Path, out: Path, mode: str, figures: Path) -> list[str]:
    return [
        PY,
        "-m",
        "ankigen",
        "build",
        str(bank),
        "--out",
        str(out),
        "--math",
        mode,
        "--figures",
        str(figures),
    ]


def median_run(runs: list[Run]) -> Run:
    """The median of each metric over interleaved repeats (one run is returned as is)."""
    if len(runs) == 1:
        return runs[0]
    first = runs[0]
    med = Run(
        first.label,
        *(
            statistics.median(getattr(r, f) for r in runs)
            for f in ("wall_s", "cpu_s", "maxrss_mb", "tree_rss_mb", "tree_pss_mb")
        ),
    )
    med.rendered, med.cached, med.up_to_date = first.rendered, first.cached, first.up_to_date
    med.extra = {"runs": len(runs), "wall_s_all": [round(r.wall_s, 3) for r in runs]}
    return med


Step = Callable[[int], Run]


def interleave(repeat: int, steps: list[tuple[str, Step]]) -> dict[str, Run]:
    """Run every tool's step once per round, round after round; medians per tool.

    Interleaving spreads a change in machine load over all tools alike.
    """
    got: dict[str, list[Run]] = {name: [] for name, _ in steps}
    for k in range(repeat):
        for name, step in steps:
            got[name].append(step(k))
    return {name: median_run(runs) for name, runs in got.items()}


# --------------------------------------------------------------------------
# The peers: ankdown (PyPI) and the plain-genanki floor
# --------------------------------------------------------------------------

ANKDOWN = shutil.which("ankdown") or str(Path(PY).with_name("ankdown"))
_DISPLAY = re.compile(r"\$\$\s*(.*?)\s*\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<!\\)\$")


def ankdown_markdown(text: str) -> str:
    """One field in ankdown's syntax: MathJax delimiters instead of dollars."""
    text = _DISPLAY.sub(lambda m: "\\[" + m.group(1) + "\\]", text)
    return _INLINE.sub(lambda m: "\\(" + m.group(1) + "\\)", text)


def write_ankdown_bank(folder: Path, notes: list[dict[str, object]]) -> Path:
    """The same notes as an ankdown file: front, ``%``, back, ``---`` per card."""
    folder.mkdir(parents=True, exist_ok=True)
    cards = [
        f"{ankdown_markdown(str(n['front']))}\n\n%\n\n{ankdown_markdown(str(n['back']))}\n"
        for n in notes
    ]
    (folder / "cards.md").write_text("\n---\n\n".join(cards), encoding="utf-8")
    return folder


def have_ankdown() -> bool:
    return Path(ANKDOWN).exists()


class Peers:
    """Measured steps for the floor and for ankdown on one bank."""

    def __init__(
        self,
        folder: Path,
        notes: list[dict[str, object]],
        ankdown_notes: list[dict[str, object]] | None = None,
    ) -> None:
        self.folder = folder
        self.notes = notes
        self.script = folder / "floor.py"
        self.script.write_text(FLOOR_SCRIPT, "utf-8")
        self.ankdown_dir = write_ankdown_bank(folder / "ankdown", ankdown_notes or notes)

    def floor(self, media: list[str], label: str) -> Step:
        spec = self.folder / f"floor-{label}.json"
        spec.write_text(json.dumps({"notes": self.notes, "media": media}), "utf-8")

        def step(k: int) -> Run:
            return measure(
                [PY, str(self.script), str(spec), str(self.folder / "floor.apkg")],
                self.folder,
                label,
            )[0]

        return step

    def ankdown(self, k: int) -> Run:
        return measure(
            [ANKDOWN, "-r", str(self.ankdown_dir), "-p", str(self.folder / "ankdown.apkg")],
            self.folder,
            "ankdown",
        )[0]

    def markdown_it(self, bank: Path) -> Step:
        """markdown-it-py's bare parse of the bank (the parser floor)."""
        script = self.folder / "markdown_it_only.py"
        script.write_text(MARKDOWN_IT_SCRIPT, "utf-8")
        return lambda k: measure([PY, str(script), str(bank)], self.folder, "markdown-it")[0]

    def steps(self, media: list[str], label: str, ankdown: bool = True) -> list[tuple[str, Step]]:
        steps: list[tuple[str, Step]] = [("genanki", self.floor(media, label))]
        if ankdown and have_ankdown():
            steps.append(("ankdown", self.ankdown))
        return steps


# --------------------------------------------------------------------------
# Per-size benchmark
# --------------------------------------------------------------------------

EDIT_WORDS = ["once", "twice", "again", "anew", "still", "yet", "now", "then", "so"]


def warm_up(work: Path) -> None:
    """One small build of each kind and one floor run, unmeasured: fills the bytecode
    cache and the OS file cache, so the first measured run pays no one-off cost."""
    folder = work / "warm-up"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "figures").mkdir(exist_ok=True)
    bank = generate_bank(60, seed=SEED + 2)
    src = folder / f"{STEM}.md"
    src.write_text(bank.text, encoding="utf-8")
    for mode in ("image", "mathjax"):
        measure(build_cmd(src, folder / f"out-{mode}", mode, folder / "figures"), folder, "warm-up")
    peers = Peers(folder, bank.floor_notes)
    for _, step in peers.steps([], "warm-up"):
        step(0)
    shutil.rmtree(folder, ignore_errors=True)


def bench_size(n: int, work: Path, repeat: int, image_repeat: int) -> Json:
    bank = generate_bank(n)
    folder = work / f"bank-{n}"
    folder.mkdir(parents=True, exist_ok=True)
    figures = folder / "figures"
    figures.mkdir(exist_ok=True)
    src = folder / f"{STEM}.md"
    src.write_text(bank.text, encoding="utf-8")
    print(
        f"\n== {n} items: {bank.inline_math_items} with inline math, "
        f"{bank.display_math_items} with display math, "
        f"{len(bank.text) / 1e6:.1f} MB of markdown",
        flush=True,
    )
    peers = Peers(folder, bank.floor_notes)
    out_mj, out_img = folder / "out-mathjax", folder / "out-image"
    work_rows: dict[str, dict[str, Run]] = {}

    def build(
        out: Path,
        mode: str,
        label: str,
        *,
        cold: bool = False,
        up_to_date: bool = False,
        drawn: int | None = None,
    ) -> Run:
        if cold:
            shutil.rmtree(out, ignore_errors=True)  # no deck, no stamp, no caches
        return expect(
            *measure(build_cmd(src, out, mode, figures), folder, label),
            up_to_date=up_to_date,
            drawn=drawn,
        )

    def row(name: str, runs: dict[str, Run]) -> None:
        work_rows[name] = runs
        shown = ", ".join(
            f"{tool} {r.wall_s:.2f} s (cpu {r.cpu_s:.2f}, {peak_mb(r):.0f} MB)"
            for tool, r in runs.items()
        )
        print(f"  {name:17s}: {shown}", flush=True)

    row(
        "start-up",
        interleave(
            repeat,
            [
                (
                    "ankigen",
                    lambda k: measure([PY, "-m", "ankigen", "--version"], folder, "start-up")[0],
                )
            ],
        ),
    )
    row(
        "mathjax cold",
        interleave(
            repeat,
            [
                *peers.steps([], "floor"),
                ("ankigen", lambda k: build(out_mj, "mathjax", "mathjax cold", cold=True)),
                ("markdown-it", peers.markdown_it(src)),
            ],
        ),
    )
    row(
        "image cold",
        interleave(
            image_repeat, [("ankigen", lambda k: build(out_img, "image", "image cold", cold=True))]
        ),
    )
    media = sorted(str(p) for p in (out_img / ".cache").glob("*.svg"))
    with_media = peers.steps(media, "floor-media")
    row(
        "up-to-date",
        interleave(
            repeat,
            [
                *with_media[:1],
                (
                    "ankigen",
                    lambda k: build(out_img, "image", "up to date", up_to_date=True, drawn=0),
                ),
            ],
        ),
    )

    state = {"text": bank.text}

    def answer_edit(k: int) -> Run:
        old = bank.answer_old
        state["text"] = bank.text.replace(old, f"{old[:-1]} {EDIT_WORDS[k % 9]}.", 1)
        src.write_text(state["text"], encoding="utf-8")
        return build(out_img, "image", "one-answer edit", drawn=0)

    row("one-answer edit", interleave(repeat, [*with_media, ("ankigen", answer_edit)]))
    answered = state["text"]

    def formula_edit(k: int) -> Run:
        new = bank.edit_new.replace("+ 1$", f"+ {k + 1}$")  # a fresh formula every round
        src.write_text(answered.replace(bank.edit_old, new, 1), encoding="utf-8")
        return build(out_img, "image", "one-formula edit", drawn=1)

    row("one-formula edit", interleave(repeat, [*with_media, ("ankigen", formula_edit)]))
    src.write_text(bank.text, encoding="utf-8")
    return {
        "items": n,
        "inline_math_items": bank.inline_math_items,
        "display_math_items": bank.display_math_items,
        "media": len(media),
        "formulas": len(bank.formulas),
        "markdown_bytes": len(bank.text.encode()),
        "work": {w: {t: asdict(r) for t, r in runs.items()} for w, runs in work_rows.items()},
    }


WATCH_WAIT_S = 600  # an upper bound for a loaded machine, not a speed claim


class Watcher:
    """``ankigen watch`` on one bank, its output lines read by a thread (issue 26)."""

    def __init__(self, bank: Path, out: Path, figures: Path) -> None:
        cmd = [PY, "-m", "ankigen", "watch", str(bank), "--out", str(out), "--math", "image"]
        self.process = subprocess.Popen(
            [*cmd, "--figures", str(figures)],
            cwd=bank.parent,
            env={**ENV, "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str) -> list[str]:
        """The lines up to the next one holding ``text``."""
        seen: list[str] = []
        deadline = time.monotonic() + WATCH_WAIT_S
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            seen.append(line)
            if text in line:
                return seen
        raise SystemExit(f"watch: no line with {text!r}; saw {seen[-20:]}")

    def cpu_s(self) -> float:
        """User + system CPU of the watch process so far (clock ticks)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _changed_since(path: Path, before: tuple[int, int] | None) -> bool:
    try:
        info = path.stat()
    except FileNotFoundError:
        return False
    return (info.st_ino, info.st_mtime_ns) != before


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    return info.st_ino, info.st_mtime_ns


def bench_watch(n: int, work: Path, edits: int) -> Json:
    """``ankigen watch`` (image mode): a saved one-answer edit until the new deck is on
    disk, and until the preview page's version file says the page is new (issue 26).

    The watcher is polled every millisecond from here; between edits it has finished
    its round (``waiting for changes``). Its CPU per round is read from ``/proc``."""
    bank = generate_bank(n)
    folder = work / f"watch-{n}"
    figures = folder / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    src = folder / f"{STEM}.md"
    src.write_text(bank.text, encoding="utf-8")
    out = folder / "out"
    deck, version = out / f"{STEM}.apkg", out / "preview" / f"{STEM}.version.js"
    watcher = Watcher(src, out, figures)
    deck_ms: list[float] = []
    page_ms: list[float] = []
    cpu_ms: list[float] = []
    try:
        watcher.wait_for("waiting for changes")  # the first, cold build
        for k in range(edits):
            time.sleep(0.3)  # a quiet watcher, as between an author's saves
            old = bank.answer_old
            text = bank.text.replace(old, f"{old[:-1]} {EDIT_WORDS[k % len(EDIT_WORDS)]}.", 1)
            # Saved as editors save: a hidden temporary file renamed over the bank.
            temporary = folder / f".{STEM}.md.tmp"
            temporary.write_text(text, encoding="utf-8")
            before_deck, before_page, cpu = _identity(deck), _identity(version), watcher.cpu_s()
            start = time.perf_counter()
            os.replace(temporary, src)
            deck_done = page_done = None
            while deck_done is None or page_done is None:
                now = time.perf_counter()
                if deck_done is None and _changed_since(deck, before_deck):
                    deck_done = now - start
                if page_done is None and _changed_since(version, before_page):
                    page_done = now - start
                if now - start > WATCH_WAIT_S:
                    raise SystemExit(f"watch: edit {k} reached no deck or page")
                time.sleep(0.001)
            round_lines = watcher.wait_for("waiting for changes")
            if not any("wrote" in line for line in round_lines):
                raise SystemExit(f"watch: edit {k} wrote no deck: {round_lines}")
            deck_ms.append(deck_done * 1000)
            page_ms.append(page_done * 1000)
            cpu_ms.append((watcher.cpu_s() - cpu) * 1000)
    finally:
        watcher.stop()
        src.write_text(bank.text, encoding="utf-8")
    result = {
        "items": n,
        "edits": edits,
        "deck_ms": deck_ms,
        "page_ms": page_ms,
        "cpu_ms": cpu_ms,
        "deck_median_ms": statistics.median(deck_ms),
        "page_median_ms": statistics.median(page_ms),
        "cpu_median_ms": statistics.median(cpu_ms),
    }
    print(
        f"  watch, one-answer edit ({n:,} items, median of {edits}): deck on disk "
        f"{result['deck_median_ms']:.0f} ms, page {result['page_median_ms']:.0f} ms, "
        f"CPU {result['cpu_median_ms']:.0f} ms",
        flush=True,
    )
    return result


def bench_media(work: Path, repeat: int) -> Json:
    """A bank of 2,500 items, each showing its own image file (mathjax mode)."""
    folder = work / "media"
    bank, notes, media = write_media_bank(folder, MEDIA_ITEMS)
    ankdown_notes = [
        {
            **note,
            "back": str(note["back"]).replace(
                f'<img src="{i:05d}.svg">', f"![bar chart](../img/{i:05d}.svg)"
            ),
        }
        for i, note in enumerate(notes)
    ]
    peers = Peers(folder, notes, ankdown_notes)
    out = folder / "out"
    print(f"\n== {MEDIA_ITEMS:,} items, one image file each", flush=True)

    def cold(k: int) -> Run:
        shutil.rmtree(out, ignore_errors=True)
        return expect(
            *measure(build_cmd(bank, out, "mathjax", folder), folder, "media cold"),
            up_to_date=False,
        )

    text = bank.read_text("utf-8")

    def edit(k: int) -> Run:
        bank.write_text(
            text.replace(" ::: ", f" ::: {EDIT_WORDS[k % 9].capitalize()}, ", 1), "utf-8"
        )
        return expect(
            *measure(build_cmd(bank, out, "mathjax", folder), folder, "media edit"),
            up_to_date=False,
        )

    rows = {
        "2,500 media, cold": interleave(
            repeat, [*peers.steps(media, "floor-media"), ("ankigen", cold)]
        ),
        "2,500 media, one-answer edit": interleave(
            repeat, [*peers.steps(media, "floor-media", ankdown=False), ("ankigen", edit)]
        ),
    }
    bank.write_text(text, "utf-8")
    for name, runs in rows.items():
        shown = ", ".join(
            f"{tool} {r.wall_s:.2f} s (cpu {r.cpu_s:.2f}, {peak_mb(r):.0f} MB)"
            for tool, r in runs.items()
        )
        print(f"  {name}: {shown}", flush=True)
    return {
        "items": MEDIA_ITEMS,
        "work": {w: {t: asdict(r) for t, r in runs.items()} for w, runs in rows.items()},
    }


def peak_mb(run: Run) -> float:
    """Peak RSS of the whole process tree: the sampled sum, or the largest single
    process when a short peak fell between two samples."""
    return max(run.tree_rss_mb, run.maxrss_mb)


# --------------------------------------------------------------------------
# mathtext's own cost per formula (the image floor) vs ankigen's render_formula
# --------------------------------------------------------------------------

MICRO_SCRIPT = r"""
import io, json, sys, time
method, path = sys.argv[1], sys.argv[2]
sample = json.load(open(path, encoding="utf-8"))
warmup, timed = sample["warmup"], sample["timed"]
if method == "ankigen":
    from ankigen.render import render_formula
    def one(tex, display):
        return render_formula(tex, display=display).svg
else:
    import matplotlib
    matplotlib.use("agg")
    from matplotlib.font_manager import FontProperties
    from matplotlib.mathtext import MathTextParser, math_to_image
    prop = FontProperties(size=100, math_fontfamily="dejavusans")
    parser = MathTextParser("path")
    if method == "math_to_image":
        def one(tex, display):
            buf = io.BytesIO()
            math_to_image(f"${tex}$", buf, prop=prop, format="svg")
            return buf.getvalue()
    else:  # parse only: the layout, no drawing
        def one(tex, display):
            return parser.parse(f"${tex}$", dpi=72, prop=prop)
for tex, display in warmup:
    one(tex, display)
times = []
for tex, display in timed:
    t0 = time.perf_counter()
    one(tex, display)
    times.append(time.perf_counter() - t0)
print(json.dumps(times))
"""


def bench_micro(work: Path, sample_size: int) -> Json:
    bank = generate_bank(max(2000, sample_size * 6), seed=SEED + 1)
    r = random.Random(SEED)
    pool = list(dict.fromkeys(bank.formulas))
    r.shuffle(pool)
    spec = {"warmup": pool[:10], "timed": pool[10 : 10 + sample_size]}
    path = work / "micro.json"
    path.write_text(json.dumps(spec), "utf-8")
    script = work / "micro.py"
    script.write_text(MICRO_SCRIPT, "utf-8")
    result: Json = {"sample": len(spec["timed"])}
    for method in ("parse", "math_to_image", "ankigen"):
        proc = subprocess.run([PY, str(script), method, str(path)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"micro {method}: exit {proc.returncode}\n{proc.stderr[-3000:]}")
        out = proc.stdout
        times = json.loads(out.strip().splitlines()[-1])
        result[method] = {
            "mean_ms": 1000 * statistics.fmean(times),
            "median_ms": 1000 * statistics.median(times),
        }
        print(
            f"  {method:14s}: mean {result[method]['mean_ms']:.1f} ms/formula, "
            f"median {result[method]['median_ms']:.1f} ms",
            flush=True,
        )
    return result


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


def _peak(r: dict[str, float]) -> float:
    return max(r["tree_rss_mb"], r["maxrss_mb"])


def _cell(r: dict[str, float] | None) -> str:
    if r is None:
        return "—"
    return f"{r['wall_s']:.2f} / {r['cpu_s']:.2f} / {_peak(r):.0f}"


def _ratio(a: float, b: float | None) -> str:
    return "—" if not b else f"{a / b:.2f}x"


def image_floor(size: Json, micro: Json | None) -> float | None:
    """Floor of a cold image build: the genanki floor + mathtext parse per image / cores."""
    if not micro:
        return None
    work = size["work"]
    drawn = work["image cold"]["ankigen"]["rendered"] or 0
    parse_s = float(micro["parse"]["median_ms"]) / 1000
    genanki_wall = float(work["mathjax cold"]["genanki"]["wall_s"])
    return genanki_wall + drawn * parse_s / (os.cpu_count() or 1)


def report(results: Json) -> str:
    lines: list[str] = []
    micro = results.get("micro")
    header = [
        "| work | genanki: wall s / CPU s / MB | ankdown: wall / CPU / MB "
        "| ankigen: wall / CPU / MB | ankigen ÷ floor (wall, CPU) "
        "| ankigen ÷ ankdown (wall, CPU, MB) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for size in [*results["sizes"], *([results["media"]] if results.get("media") else [])]:
        title = (
            f"### {size['items']:,} items ({size['inline_math_items']} with inline math, "
            f"{size['display_math_items']} with display math; {size['media']} formula "
            "images)"
            if "media" in size and "inline_math_items" in size
            else f"### {size['items']:,} items, one image file each (mathjax mode)"
        )
        lines += [title, "", *header]
        for work, runs in size["work"].items():
            ag, floor, ad = runs.get("ankigen"), runs.get("genanki"), runs.get("ankdown")
            floor_wall = floor["wall_s"] if floor else None
            floor_cpu = floor["cpu_s"] if floor else None
            if work == "image cold":
                floor_wall = image_floor(size, micro)
                floor_cpu = None
            vs_floor = (
                f"{_ratio(ag['wall_s'], floor_wall)}, {_ratio(ag['cpu_s'], floor_cpu)}"
                if floor_wall
                else "—"
            )
            vs_ad = (
                f"{_ratio(ag['wall_s'], ad['wall_s'])}, {_ratio(ag['cpu_s'], ad['cpu_s'])}, "
                f"{_ratio(_peak(ag), _peak(ad))}"
                if ad
                else "—"
            )
            floor_text = _cell(floor)
            if work == "image cold" and floor_wall:
                floor_text = f"{floor_wall:.2f} (computed)"
            lines.append(
                f"| {work} | {floor_text} | {_cell(ad)} | {_cell(ag)} | {vs_floor} | {vs_ad} |"
            )
            parser = runs.get("markdown-it")
            if parser and ad:
                lines.append(
                    f"| markdown-it-py parse alone (no checks, no deck) | — | — "
                    f"| {_cell(parser)} | — | {_ratio(parser['wall_s'], ad['wall_s'])}, "
                    f"{_ratio(parser['cpu_s'], ad['cpu_s'])}, "
                    f"{_ratio(_peak(parser), _peak(ad))} |"
                )
        lines.append("")
    if micro:
        mt = micro["math_to_image"]["mean_ms"]
        lines += [
            f"Cost per formula ({micro['sample']} generated formulas, one process each):",
            "",
            "| renderer | mean (ms) | median (ms) | x math_to_image |",
            "|---|---:|---:|---:|",
        ]
        for method in ("parse", "math_to_image", "ankigen"):
            m = micro[method]
            lines.append(
                f"| {method} | {m['mean_ms']:.1f} | {m['median_ms']:.1f} | "
                f"{m['mean_ms'] / mt:.2f} |"
            )
        lines.append("")
    lines += watch_table(results.get("watch") or [])
    lines += targets(results)
    return "\n".join(lines)


#: Issue 26's goals: a saved one-answer edit until the new deck is on disk.
WATCH_GOAL_MS = {1000: 75, 10000: 250}


def watch_table(rows: list[Json]) -> list[str]:
    """The watch-latency rows (issue 26): medians over the edits of each bank."""
    if not rows:
        return []
    lines = [
        "`ankigen watch`, a saved one-answer edit (image mode; median of "
        f"{rows[0]['edits']} edits):",
        "",
        "| items | until the new .apkg is on disk | until the preview page is new "
        "| CPU of the round | goal (deck) |",
        "|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        goal = WATCH_GOAL_MS.get(row["items"])
        verdict = f"≤ {goal} ms: {_verdict(row['deck_median_ms'] <= goal)}" if goal else "—"
        lines.append(
            f"| {row['items']:,} | {row['deck_median_ms']:.0f} ms | "
            f"{row['page_median_ms']:.0f} ms | {row['cpu_median_ms']:.0f} ms | {verdict} |"
        )
    return [*lines, ""]


def _verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def targets(results: Json) -> list[str]:
    out = ["Targets (issue 12):", ""]
    sizes = {s["items"]: s["work"] for s in results["sizes"]}
    micro = results.get("micro")
    for n, work in sizes.items():
        ag, ad = work["mathjax cold"]["ankigen"], work["mathjax cold"].get("ankdown")
        if ad and n >= 10000:
            w, c = ag["wall_s"] / ad["wall_s"], ag["cpu_s"] / ad["cpu_s"]
            out.append(
                f"- {n:,}: mathjax cold <= 1.0x ankdown: {w:.2f}x wall "
                f"({_verdict(w <= 1)}), {c:.2f}x CPU ({_verdict(c <= 1)})"
            )
            parser = work["mathjax cold"].get("markdown-it")
            if parser:
                out.append(
                    f"  (markdown-it-py's bare parse of the same bank alone: "
                    f"{parser['cpu_s'] / ad['cpu_s']:.2f}x ankdown's CPU)"
                )
        for name, limit in (("one-answer edit", 1.5), ("one-formula edit", 2.0)):
            r = work[name]["ankigen"]["wall_s"] / work[name]["genanki"]["wall_s"]
            c = work[name]["ankigen"]["cpu_s"] / work[name]["genanki"]["cpu_s"]
            out.append(
                f"- {n:,}: {name} <= {limit}x floor (genanki with the same media): "
                f"{r:.2f}x wall ({_verdict(r <= limit)}), {c:.2f}x CPU"
            )
        floor = image_floor({"work": work}, micro)
        if floor:
            r = work["image cold"]["ankigen"]["wall_s"] / floor
            out.append(
                f"- {n:,}: image cold <= 1.2x (floor + mathtext parse per image / cores "
                f"= {floor:.2f} s): {r:.2f}x ({_verdict(r <= 1.2)})"
            )
        if ad and n >= 100000:
            r = _peak(ag) / _peak(ad)
            out.append(
                f"- {n:,}: peak memory (mathjax cold) <= 1.5x ankdown: "
                f"{_peak(ag):.0f} MB vs {_peak(ad):.0f} MB = {r:.2f}x "
                f"({_verdict(r <= 1.5)})"
            )
            # Summed RSS counts each page a forked worker shares with its parent twice;
            # summed PSS splits shared pages between the processes that share them.
            p = ag["tree_pss_mb"] / ad["tree_pss_mb"]
            out.append(
                f"  (summed PSS, shared pages counted once: {ag['tree_pss_mb']:.0f} MB vs "
                f"{ad['tree_pss_mb']:.0f} MB = {p:.2f}x, {_verdict(p <= 1.5)})"
            )
    media = results.get("media")
    if media:
        runs = media["work"]["2,500 media, cold"]
        r = runs["ankigen"]["wall_s"] / runs["genanki"]["wall_s"]
        out.append(
            f"- 2,500 shipped images (cold) <= 1.5x genanki with the same media: "
            f"{r:.2f}x wall ({_verdict(r <= 1.5)})"
        )
        runs = media["work"]["2,500 media, one-answer edit"]
        r = runs["ankigen"]["wall_s"] / runs["genanki"]["wall_s"]
        out.append(
            f"- 2,500 shipped images (one answer edited): {r:.2f}x wall ({_verdict(r <= 1.5)})"
        )
    per_item = {}
    for n, work in sizes.items():
        start = work["start-up"]["ankigen"]["cpu_s"]
        per_item[n] = (work["mathjax cold"]["ankigen"]["cpu_s"] - start) / n * 1e6
    if len(per_item) > 1:
        top = max(per_item.values())
        low = min(per_item.values())
        spread = (top - low) / low
        shown = ", ".join(f"{n:,}: {v:.0f} us" for n, v in per_item.items())
        out.append(
            f"- CPU per item (mathjax cold, start-up subtracted) within ±5% "
            f"(largest / smallest <= 1.10): {shown}; spread {100 * spread:.0f}% "
            f"({_verdict(spread <= 0.10)})"
        )
        out.extend(_drift(sizes))
    out.append("")
    return out


def _drift(sizes: dict[int, dict[str, dict[str, dict[str, float]]]]) -> list[str]:
    """Marginal CPU per item between sizes, ankigen's beside ankdown's.

    Sizes run minutes apart, and this VM's speed drifts over minutes. ankdown
    does the same work per item at every size, so its marginal cost per item
    (start-up cancels out) shows the drift, and ankigen's over ankdown's shows
    how ankigen scales with the drift taken out.
    """
    ordered = sorted(sizes)
    if len(ordered) < 3 or any("ankdown" not in sizes[n]["mathjax cold"] for n in ordered):
        return []
    pairs = list(itertools.pairwise(ordered))

    def marginal(tool: str) -> list[float]:
        cpu = {n: sizes[n]["mathjax cold"][tool]["cpu_s"] for n in ordered}
        return [(cpu[big] - cpu[small]) / (big - small) * 1e6 for small, big in pairs]

    def shown(costs: list[float]) -> str:
        steps = zip(pairs, costs, strict=True)
        return ", ".join(f"{small:,}->{big:,}: {v:.0f} us" for (small, big), v in steps)

    ankigen, ankdown = marginal("ankigen"), marginal("ankdown")
    ratios = [a / b for a, b in zip(ankigen, ankdown, strict=True)]
    spread = (max(ratios) - min(ratios)) / min(ratios)
    return [
        f"  (marginal CPU per item, start-up cancelled: ankdown {shown(ankdown)}; "
        f"ankigen {shown(ankigen)}; ankigen ÷ ankdown "
        + ", ".join(f"{r:.2f}x" for r in ratios)
        + f", spread {100 * spread:.0f}%: ankdown's own cost per item moves with the machine)"
    ]


def machine() -> Json:
    cpu = ""
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(
                (line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), ""
            )
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "loadavg_start": os.getloadavg(),
        "date": _dt.datetime.now().astimezone().isoformat(timespec="minutes"),
    }


BEGIN, END = "<!-- bench:results:begin -->", "<!-- bench:results:end -->"


def write_readme(path: Path, table: str, info: Json) -> None:
    """Put the tables between the result markers of the README."""
    text = path.read_text("utf-8")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    load = f"load average {info['loadavg_start']} at the start, {info['loadavg_end']} at the end"
    stamp = (
        f"Measured {info['date']} on {info['nproc']} cores ({info['cpu']}), Python "
        f"{info['python']}; {load}. Cells are wall s / CPU s / peak MB (RSS of the whole "
        "process tree), medians of interleaved runs."
    )
    path.write_text(f"{head}{BEGIN}\n{stamp}\n\n{table}\n{END}{tail}", "utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--sizes",
        type=int,
        nargs="*",
        default=[1000, 10000, 100000],
        help="bank sizes (default: 1k, 10k, 100k)",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="interleaved rounds per measurement; medians are reported",
    )
    ap.add_argument(
        "--image-repeat-limit",
        type=int,
        default=50000,
        metavar="N",
        help="banks above N items build image cold once (it takes minutes)",
    )
    ap.add_argument(
        "--micro-sample",
        type=int,
        default=200,
        help="formulas timed in the per-formula comparison (0 skips it)",
    )
    ap.add_argument("--no-media", action="store_true", help="skip the 2,500-image bank")
    ap.add_argument(
        "--watch-sizes",
        type=int,
        nargs="*",
        default=[1000, 10000],
        help="bank sizes of the watch-latency rows (default: 1k, 10k; none: skip them)",
    )
    ap.add_argument(
        "--watch-edits", type=int, default=7, help="one-answer edits per watch row (median)"
    )
    ap.add_argument(
        "--pycache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "ankigen-bench-pycache",
        help="PYTHONPYCACHEPREFIX for the measured processes (default: %(default)s)",
    )
    ap.add_argument(
        "--no-pycache",
        action="store_true",
        help="leave the environment's bytecode settings as they are",
    )
    ap.add_argument("--json", type=Path, help="write all results to this JSON file")
    ap.add_argument(
        "--readme", type=Path, help="write the tables between the result markers of this README"
    )
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it")
    ap.add_argument(
        "--write-bank", type=int, metavar="N", help="only write the N-item bank to stdout and exit"
    )
    ap.add_argument(
        "--write-media-bank",
        type=Path,
        metavar="DIR",
        help="only write the 2,500-image bank (media.md, img/) into DIR and exit",
    )
    args = ap.parse_args()

    if args.write_bank:
        sys.stdout.write(generate_bank(args.write_bank).text)
        return
    if args.write_media_bank:
        write_media_bank(args.write_media_bank, MEDIA_ITEMS)
        return

    info = machine()
    print(
        f"machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}, "
        f"{info['platform']}; {info['date']}; ankdown: "
        f"{ANKDOWN if have_ankdown() else 'not installed (pip install ankdown)'}",
        flush=True,
    )
    tmp = None
    if args.keep:
        work = args.keep
        work.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="ankigen-bench-")
        work = Path(tmp.name)
    results: Json = {"machine": info, "sizes": []}
    use_bytecode_cache(None if args.no_pycache else args.pycache)
    try:
        warm_up(work)
        if args.micro_sample:
            print("\n== cost per formula", flush=True)
            results["micro"] = bench_micro(work, args.micro_sample)
        for n in args.sizes:
            image_repeat = 1 if n > args.image_repeat_limit else args.repeat
            results["sizes"].append(bench_size(n, work, args.repeat, image_repeat))
            shutil.rmtree(work / f"bank-{n}", ignore_errors=True)
        if args.watch_sizes:
            print("\n== watch latency", flush=True)
            results["watch"] = [bench_watch(n, work, args.watch_edits) for n in args.watch_sizes]
        if not args.no_media:
            results["media"] = bench_media(work, args.repeat)
    finally:
        if tmp is not None:
            tmp.cleanup()
    info["loadavg_end"] = os.getloadavg()
    print(f"\nload average at start {info['loadavg_start']}, at end {info['loadavg_end']}")
    table = report(results)
    print("\n" + table)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    if args.readme:
        write_readme(args.readme, table, info)


if __name__ == "__main__":
    main()
