#!/usr/bin/env python
"""Benchmark ankigen builds against the plain-genanki floor (issues 4 and 5).

What it measures
----------------
For each size N in ``--sizes`` (default 1000 10000) it generates a
deterministic question bank (seeded random) and runs, each in a fresh
subprocess (``python -m ankigen build BANK --out DIR --math MODE``, so
interpreter start-up and imports are included, as for any CLI run):

* ``cold``   - empty output/cache folder,
* ``warm``   - the same build again, nothing changed (the output folder and
  its cache are kept; the build must say "already up to date", else the
  benchmark stops),
* ``edit``   - one formula in one item changed, then rebuilt (the build must
  not be up to date and, in image mode, must draw exactly one image),

in both math modes (``image`` and ``mathjax``), plus the FLOOR: a plain
genanki script, also in a subprocess, writing the same number of notes with
the same field text (the raw markdown, no parsing, no rendering) to an
``.apkg``. In image mode a second floor, ``floor+media``, also packs the SVG
files the image build shipped, which isolates the cost of zipping media.

For every run it records wall time, peak RSS of the largest single process
(``os.wait4`` rusage; on Linux it covers the child and the pool workers it
reaped) and the peak summed RSS of the whole process tree (sampled from
/proc every 50 ms, so render workers count together).

It also times mathtext's own cost per formula on a sample of the generated
formulas (``matplotlib.mathtext.math_to_image`` to SVG, and the bare
``MathTextParser("path").parse``) against ankigen's ``render_formula``, each
in a fresh subprocess so no parse cache is shared.

``--growth`` builds (mathjax mode) 1,000 / 10,000 / 100,000 items and prints
time per item, to show there is no quadratic slowdown (issue 5).

Usage::

    python benchmarks/bench.py                      # sizes 1000 10000
    python benchmarks/bench.py --sizes 1000 --growth --json results.json

Plain script (argparse), no pytest. Needs only ankigen's own dependencies.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

PY = sys.executable
SEED = 20240601
STEM = "bench"  # every bank file is bench.md, so every build writes bench.apkg

# --------------------------------------------------------------------------
# Question bank generator
# --------------------------------------------------------------------------

TOPICS = [
    "data parallelism", "tensor parallelism", "pipeline parallelism", "ring all-reduce",
    "gradient accumulation", "mixed precision", "loss scaling", "activation checkpointing",
    "the learning-rate warm-up", "weight decay", "the Adam optimizer", "batch normalization",
    "layer normalization", "the attention softmax", "the KV cache", "ZeRO-2 sharding",
    "sharded optimizer state", "the parameter server", "gradient clipping", "label smoothing",
    "dropout", "the cosine schedule", "the linear scaling rule", "straggler workers",
    "NCCL collectives", "the interconnect bandwidth", "the micro-batch size",
    "the pipeline bubble", "expert parallelism", "the router load balance",
]
VERBS = [
    "reduces", "increases", "hides", "doubles", "halves", "amortizes", "dominates",
    "changes", "bounds", "shifts", "saturates", "stabilizes", "couples", "decouples",
]
OBJECTS = [
    "the step time", "peak memory", "the communication volume", "the effective batch",
    "the gradient noise", "the number of optimizer steps", "throughput per device",
    "the bubble fraction", "the final accuracy", "the all-reduce latency",
    "the activation memory", "the convergence rate", "the tokens per second",
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
CODE = ["`all_reduce`", "`torch.cuda.amp`", "`grad_accum_steps`", "`no_sync()`",
        "`DistributedDataParallel`", "`clip_grad_norm_`", "`micro_batch`"]


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
    edit_old = edit_new = ""
    for i in range(n):
        if i % 50 == 0:
            out += [f"## Section {i // 50 + 1}: {r.choice(TOPICS)}", ""]
        has_inline = r.random() < 0.20
        has_display = r.random() < 0.05
        kind_roll = r.random()
        kind = ("reveal" if kind_roll < 0.45 else "block" if kind_roll < 0.60
                else "cloze" if kind_roll < 0.85 else "mark")
        meta = f" <!-- id: bench-{i} -->" if r.random() < 0.30 else ""
        if has_display:
            meta = ""  # an id comment must end the item's last paragraph; keep it simple
        inline = ""
        if has_inline:
            tex = _inline_formula(r, i)
            math_cloze = kind == "cloze" and r.random() < 0.05
            if math_cloze:
                tex = rf"\eta_{{new}} = {{{{c2::{(i % 7) + 2}}}}}\,\eta_{{base,{100 + i}}}"
            else:
                formulas.append((tex, False))
                if not edit_old:
                    edit_old = f"${tex}$"
                    edit_new = f"${tex} + 1$"
            inline = f" Assume ${tex}$."
            inline_count += 1
        display_block = ""
        if has_display:
            dtex = _display_formula(r, i)
            formulas.append((dtex, True))
            # a formula in an answer is a claim: give it a check block, as authors must
            k, m = r.randint(2, 64), 100 + i
            check = (f"assert {m}/{k} ~= {m / k:.6g} within 1%" if r.random() < 0.5
                     else "# definition from the lecture notes; nothing to prove")
            display_block = f"\n\n$$\n{dtex}\n$$\n\n```check\n{check}\n```"
            display_count += 1
        q = _sentence(r, i, r.randint(8, 22)).rstrip(".") + "?"
        a = _sentence(r, i, r.randint(14, 45), tag=False)
        if kind == "reveal":
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
            while (length < 3 and j + length in plain and r.random() < 0.5):
                length += 1
            span = " ".join(words[j:j + length])
            rest = " ".join(words[j + length:])
            if kind == "cloze":
                hint = "::hint" if r.random() < 0.2 else ""
                body = f"{' '.join(words[:j])} {{{{c1::{span}{hint}}}}} {rest}"
            else:
                body = f"{' '.join(words[:j])} =={span}== {rest}"
            front = f"{body.rstrip()}.{inline}"
            extra = ""
            if display_block or r.random() < 0.3:
                extra = " ::: " + _sentence(r, i, r.randint(6, 16), tag=False) + display_block
            back = extra
            out += [f"{front}{extra}{meta}", ""]
        floor.append({"cloze": kind in ("cloze", "mark"), "front": front, "back": back,
                      "guid": f"bench-{n}-{i}"})
        if i % 17 == 16:
            out += ["---", "", "A line of prose between items: no card.", ""]
    return Bank("\n".join(out) + "\n", n, inline_count, display_count, formulas, floor,
                edit_old, edit_new)


# --------------------------------------------------------------------------
# The floor: plain genanki in a subprocess
# --------------------------------------------------------------------------

FLOOR_SCRIPT = r'''
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
'''


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
    proc = subprocess.Popen(full, cwd=cwd, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
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
    run = Run(label, wall, usage.ru_utime + usage.ru_stime, maxrss_kb / 1024, peak[0] / 2**20,
              peak[1] / 2**20)
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
        raise SystemExit(f"{run.label}: expected {'an' if up_to_date else 'no'} "
                         f"'already up to date' build\n{output[-2000:]}")
    if drawn is not None and run.rendered is not None and run.rendered != drawn:
        raise SystemExit(f"{run.label}: expected {drawn} images drawn, got {run.rendered}\n"
                         f"{output[-2000:]}")
    return run


def build_cmd(bank: Path, out: Path, mode: str, figures: Path) -> list[str]:
    return [PY, "-m", "ankigen", "build", str(bank), "--out", str(out),
            "--math", mode, "--figures", str(figures)]


def best(runs: list[Run]) -> Run:
    """Median of repeats by wall time (a single run is returned as is)."""
    ordered = sorted(runs, key=lambda r: r.wall_s)
    return ordered[len(ordered) // 2]


# --------------------------------------------------------------------------
# Per-size benchmark
# --------------------------------------------------------------------------


def warm_up(work: Path) -> None:
    """One small image build and one floor run, unmeasured: fills the bytecode
    cache and the OS file cache, so the first measured run pays no one-off cost."""
    folder = work / "warm-up"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "figures").mkdir(exist_ok=True)
    bank = generate_bank(60, seed=SEED + 2)
    src = folder / f"{STEM}.md"
    src.write_text(bank.text, encoding="utf-8")
    for mode in ("image", "mathjax"):
        measure(build_cmd(src, folder / f"out-{mode}", mode, folder / "figures"), folder,
                "warm-up")
    spec = folder / "floor.json"
    spec.write_text(json.dumps({"notes": bank.floor_notes, "media": []}), "utf-8")
    (folder / "floor.py").write_text(FLOOR_SCRIPT, "utf-8")
    measure([PY, str(folder / "floor.py"), str(spec), str(folder / "floor.apkg")], folder,
            "warm-up")
    shutil.rmtree(folder, ignore_errors=True)


def bench_size(n: int, work: Path, repeat: int, modes: list[str]) -> dict[str, object]:
    bank = generate_bank(n)
    folder = work / f"bank-{n}"
    folder.mkdir(parents=True, exist_ok=True)
    figures = folder / "figures"
    figures.mkdir(exist_ok=True)
    src = folder / f"{STEM}.md"
    src.write_text(bank.text, encoding="utf-8")
    print(f"\n== {n} items: {bank.inline_math_items} with inline math, "
          f"{bank.display_math_items} with display math, "
          f"{len(bank.text) / 1e6:.1f} MB of markdown", flush=True)

    runs: dict[str, Run] = {}

    def floor(media: list[str], label: str) -> Run:
        spec = folder / f"floor-{label}.json"
        spec.write_text(json.dumps({"notes": bank.floor_notes, "media": media}), "utf-8")
        script = folder / "floor.py"
        script.write_text(FLOOR_SCRIPT, "utf-8")
        results = []
        for _ in range(repeat):
            run, _ = measure([PY, str(script), str(spec), str(folder / "floor.apkg")],
                             folder, label)
            results.append(run)
        return best(results)

    runs["floor"] = floor([], "floor")
    print(f"  floor (genanki, no media): {runs['floor'].wall_s:.2f} s", flush=True)
    runs["ankigen start-up"] = best(
        [measure([PY, "-m", "ankigen", "--version"], folder, "start-up")[0]
         for _ in range(repeat)])
    print(f"  ankigen --version (imports only): {runs['ankigen start-up'].wall_s:.2f} s",
          flush=True)

    for mode in modes:
        out = folder / f"out-{mode}"
        src.write_text(bank.text, encoding="utf-8")
        cold: list[Run] = []
        for _ in range(repeat):
            shutil.rmtree(out, ignore_errors=True)  # cold: no deck, no stamp, no image cache
            cold.append(expect(*measure(build_cmd(src, out, mode, figures), folder,
                                        f"{mode} cold"), up_to_date=False))
        runs[f"{mode} cold"] = best(cold)
        # warm: the output folder (deck, stamp, image cache) of the last cold build is
        # kept and the bank is not touched, so every repeat is a no-change rebuild
        warm = [expect(*measure(build_cmd(src, out, mode, figures), folder, f"{mode} warm"),
                       up_to_date=True, drawn=0)
                for _ in range(repeat)]
        runs[f"{mode} warm"] = best(warm)
        edits: list[Run] = []
        for k in range(repeat):
            # a fresh change each time, so every repeat really renders one new formula
            new = bank.edit_new.replace("+ 1$", f"+ {k + 1}$")
            src.write_text(bank.text.replace(bank.edit_old, new, 1), encoding="utf-8")
            edits.append(expect(*measure(build_cmd(src, out, mode, figures), folder,
                                         f"{mode} edit"),
                                up_to_date=False, drawn=1 if mode == "image" else 0))
        runs[f"{mode} edit"] = best(edits)
        src.write_text(bank.text, encoding="utf-8")
        for phase in ("cold", "warm", "edit"):
            r = runs[f"{mode} {phase}"]
            imgs = "" if r.rendered is None else f", images {r.rendered} drawn/{r.cached} cached"
            imgs += ", already up to date" if r.up_to_date else ""
            print(f"  {mode:7s} {phase:4s}: {r.wall_s:6.2f} s (cpu {r.cpu_s:6.2f} s), peak {r.maxrss_mb:5.0f} MB "  # noqa: E501
                  f"(tree RSS {r.tree_rss_mb:5.0f} MB, PSS {r.tree_pss_mb:5.0f} MB){imgs}",
                  flush=True)
        if mode == "image":
            media = sorted(str(p) for p in (out / ".cache").glob("*.svg"))
            runs["floor+media"] = floor(media, "floor+media")
            print(f"  floor+media ({len(media)} SVGs): {runs['floor+media'].wall_s:.2f} s",
                  flush=True)

    return {"items": n, "inline_math_items": bank.inline_math_items,
            "display_math_items": bank.display_math_items,
            "formulas": len(bank.formulas), "markdown_bytes": len(bank.text.encode()),
            "runs": {k: asdict(v) for k, v in runs.items()}}


# --------------------------------------------------------------------------
# mathtext's own cost per formula vs ankigen.render.formula.render_formula
# --------------------------------------------------------------------------

MICRO_SCRIPT = r'''
import io, json, sys, time
method, path = sys.argv[1], sys.argv[2]
sample = json.load(open(path, encoding="utf-8"))
warmup, timed = sample["warmup"], sample["timed"]
if method == "ankigen":
    from ankigen.render.formula import render_formula
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
'''


def bench_micro(work: Path, sample_size: int) -> dict[str, object]:
    bank = generate_bank(max(2000, sample_size * 6), seed=SEED + 1)
    r = random.Random(SEED)
    pool = list(dict.fromkeys(bank.formulas))
    r.shuffle(pool)
    spec = {"warmup": pool[:10], "timed": pool[10:10 + sample_size]}
    path = work / "micro.json"
    path.write_text(json.dumps(spec), "utf-8")
    script = work / "micro.py"
    script.write_text(MICRO_SCRIPT, "utf-8")
    result: dict[str, object] = {"sample": len(spec["timed"])}
    for method in ("parse", "math_to_image", "ankigen"):
        out = subprocess.run([PY, str(script), method, str(path)], check=True,
                             capture_output=True, text=True).stdout
        times = json.loads(out.strip().splitlines()[-1])
        result[method] = {"mean_ms": 1000 * statistics.fmean(times),
                          "median_ms": 1000 * statistics.median(times)}
        print(f"  {method:14s}: mean {result[method]['mean_ms']:.1f} ms/formula, "
              f"median {result[method]['median_ms']:.1f} ms", flush=True)
    return result


# --------------------------------------------------------------------------
# Growth (issue 5)
# --------------------------------------------------------------------------


def bench_growth(work: Path, sizes: list[int], repeat: int = 1) -> list[dict[str, object]]:
    """Cold mathjax builds (a fresh output folder each run), median of ``repeat``."""
    rows = []
    startup = best([measure([PY, "-m", "ankigen", "--version"], work, "startup")[0]
                    for _ in range(repeat)])
    for n in sizes:
        folder = work / f"growth-{n}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "figures").mkdir(exist_ok=True)
        src = folder / f"{STEM}.md"
        src.write_text(generate_bank(n).text, encoding="utf-8")
        runs = []
        for _ in range(repeat):
            shutil.rmtree(folder / "out", ignore_errors=True)  # else the repeat is up to date
            runs.append(expect(*measure(build_cmd(src, folder / "out", "mathjax",
                                                  folder / "figures"), folder, f"growth {n}"),
                               up_to_date=False))
        run = best(runs)
        per_item = (run.wall_s - startup.wall_s) / n * 1e6
        cpu_per_item = (run.cpu_s - startup.cpu_s) / n * 1e6
        rows.append({"items": n, "wall_s": run.wall_s, "cpu_s": run.cpu_s,
                     "startup_s": startup.wall_s, "startup_cpu_s": startup.cpu_s,
                     "us_per_item": per_item, "cpu_us_per_item": cpu_per_item,
                     "maxrss_mb": run.maxrss_mb})
        print(f"  {n:>7} items: {run.wall_s:7.2f} s (cpu {run.cpu_s:7.2f} s), "
              f"{per_item:5.0f} us/item wall, {cpu_per_item:5.0f} us/item CPU "
              f"(start-up excluded), peak {run.maxrss_mb:.0f} MB", flush=True)
    return rows


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


def report(results: dict[str, object]) -> str:
    lines: list[str] = []
    cores = os.cpu_count() or 1
    for size in results["sizes"]:  # type: ignore[union-attr]
        runs = size["runs"]
        floor = runs["floor"]["wall_s"]
        floor_cpu = runs["floor"]["cpu_s"]
        lines += [f"### {size['items']:,} items ({size['inline_math_items']} with inline math, "
                  f"{size['display_math_items']} with display math)", "",
                  "| build | wall (s) | x floor | CPU (s) | CPU x floor "
                  "| peak RSS, largest process (MB) | peak RSS, tree (MB) | peak PSS, tree (MB) "
                  "| images drawn / cached |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for label, run in runs.items():
            imgs = ("" if run["rendered"] is None
                    else f"{run['rendered']} / {run['cached']}")
            lines.append(f"| {label} | {run['wall_s']:.2f} | {run['wall_s'] / floor:.2f} | "
                         f"{run['cpu_s']:.2f} | {run['cpu_s'] / floor_cpu:.2f} | "
                         f"{run['maxrss_mb']:.0f} | {run['tree_rss_mb']:.0f} | "
                         f"{run['tree_pss_mb']:.0f} | {imgs} |")
        lines.append("")
    micro = results.get("micro")
    if micro:
        mt = micro["math_to_image"]["mean_ms"]
        ag = micro["ankigen"]["mean_ms"]
        lines += [f"### Cost per formula ({micro['sample']} generated formulas, one process)", "",
                  "| renderer | mean (ms) | median (ms) | x math_to_image |",
                  "|---|---:|---:|---:|"]
        for method in ("parse", "math_to_image", "ankigen"):
            m = micro[method]
            lines.append(f"| {method} | {m['mean_ms']:.1f} | {m['median_ms']:.1f} | "
                         f"{m['mean_ms'] / mt:.2f} |")
        lines.append("")
        for size in results["sizes"]:  # type: ignore[union-attr]
            runs = size["runs"]
            if "image cold" not in runs or "mathjax cold" not in runs:
                continue
            drawn = runs["image cold"]["rendered"] or 0
            if drawn:
                extra = runs["image cold"]["wall_s"] - runs["mathjax cold"]["wall_s"]
                per = 1000 * extra / drawn
                budget = 1.2 * mt / cores
                cpu = 1000 * (runs["image cold"]["cpu_s"] - runs["mathjax cold"]["cpu_s"]) / drawn
                lines.append(
                    f"- {size['items']:,} items, cold image build: (image cold - mathjax cold) / "
                    f"images drawn = {per:.1f} ms wall per image; target 1.2 x {mt:.1f} ms / "
                    f"{cores} cores = {budget:.1f} ms -> "
                    f"{'met' if per <= budget else 'MISSED'} ({per / (mt / cores):.2f}x); "
                    f"CPU per image (all processes) {cpu:.1f} ms = {cpu / mt:.2f}x math_to_image")
        lines.append(f"- ankigen.render_formula / math_to_image in one process: {ag / mt:.2f}x")
        lines.append("")
    growth = results.get("growth")
    if growth:
        lines += ["### Growth (mathjax mode, one build each)", "",
                  "| items | wall (s) | CPU (s) | wall us/item | CPU us/item | peak RSS (MB) |",
                  "|---:|---:|---:|---:|---:|---:|"]
        for g in growth:
            lines.append(f"| {g['items']:,} | {g['wall_s']:.2f} | {g['cpu_s']:.2f} | "
                         f"{g['us_per_item']:.0f} | {g['cpu_us_per_item']:.0f} | "
                         f"{g['maxrss_mb']:.0f} |")
        lines.append("")
        lines.append("(per item: start-up, `ankigen --version`, subtracted)")
        lines.append("")
    if results["sizes"]:
        lines += targets(results)
    return "\n".join(lines)


def targets(results: dict[str, object]) -> list[str]:
    out = ["### Issue 4 targets (stated for 10,000 items)", ""]
    for size in results["sizes"]:  # type: ignore[union-attr]
        n = f"{size['items']:,}"
        runs = size["runs"]
        floor = runs["floor"]["wall_s"]
        for mode in ("image", "mathjax"):
            key = f"{mode} warm"
            if key in runs:
                ratio = runs[key]["wall_s"] / floor
                cpu = runs[key]["cpu_s"] / runs["floor"]["cpu_s"]
                out.append(f"- warm rebuild, {n} items, {mode}: {ratio:.2f}x floor wall, "
                           f"{cpu:.2f}x floor CPU (target <= 2x) -> "
                           f"{'met' if ratio <= 2 else 'MISSED'} in wall, "
                           f"{'met' if cpu <= 2 else 'MISSED'} in CPU")
        peak = max(r["maxrss_mb"] for r in runs.values())
        tree = max(r["tree_rss_mb"] for r in runs.values())
        pss = max(r["tree_pss_mb"] for r in runs.values())
        out.append(f"- peak memory, {n} items, any build: largest process {peak:.0f} MB, "
                   f"whole tree {pss:.0f} MB PSS / {tree:.0f} MB RSS summed (target < 500 MB) -> "
                   f"{'met' if max(peak, pss) < 500 else 'MISSED'}"
                   f"{' (the RSS sum counts shared pages twice)' if tree >= 500 else ''}")
    out.append("")
    return out


def machine() -> dict[str, object]:
    cpu = ""
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next((line.split(":", 1)[1].strip() for line in fh
                        if line.startswith("model name")), "")
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "platform": platform.platform(), "loadavg_start": os.getloadavg(),
            "date": _dt.datetime.now().astimezone().isoformat(timespec="minutes")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000],
                    help="bank sizes for the cold/warm/edit table (none: skip it)")
    ap.add_argument("--modes", nargs="+", default=["image", "mathjax"],
                    choices=["image", "mathjax"])
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs per measurement; the median is reported (default 1)")
    ap.add_argument("--micro-sample", type=int, default=200,
                    help="formulas timed in the per-formula comparison (0 skips it)")
    ap.add_argument("--growth", action="store_true",
                    help="also build 1k/10k/100k items (mathjax) and print time per item")
    ap.add_argument("--growth-sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--pycache", type=Path,
                    default=Path(tempfile.gettempdir()) / "ankigen-bench-pycache",
                    help="PYTHONPYCACHEPREFIX for the measured processes (default: %(default)s)")
    ap.add_argument("--no-pycache", action="store_true",
                    help="leave the environment's bytecode settings as they are")
    ap.add_argument("--json", type=Path, help="write all results to this JSON file")
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it")
    ap.add_argument("--write-bank", type=int, metavar="N",
                    help="only write the N-item bank to stdout and exit")
    args = ap.parse_args()

    if args.write_bank:
        sys.stdout.write(generate_bank(args.write_bank).text)
        return

    info = machine()
    print(f"machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}, "
          f"{info['platform']}; {info['date']}", flush=True)
    tmp = None
    if args.keep:
        work = args.keep
        work.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="ankigen-bench-")
        work = Path(tmp.name)
    results: dict[str, object] = {"machine": info, "sizes": []}
    use_bytecode_cache(None if args.no_pycache else args.pycache)
    try:
        warm_up(work)
        for n in args.sizes:
            results["sizes"].append(bench_size(n, work, args.repeat, args.modes))  # type: ignore[union-attr]
        if args.micro_sample:
            print("\n== cost per formula", flush=True)
            results["micro"] = bench_micro(work, args.micro_sample)
        if args.growth:
            print("\n== growth (mathjax)", flush=True)
            results["growth"] = bench_growth(work, args.growth_sizes, args.repeat)
    finally:
        if tmp is not None:
            tmp.cleanup()
    info["loadavg_end"] = os.getloadavg()
    print(f"\nload average at start {info['loadavg_start']}, at end {info['loadavg_end']}")
    print("\n" + report(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", "utf-8")


if __name__ == "__main__":
    main()
