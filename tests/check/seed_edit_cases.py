r"""Single edits to the seed deck's cards and figures, as a careful reviewer makes them (issue 22).

Each edit is an exact text replacement in ``content/distributed-training.md``
or in a figure script, leaving every ``check`` block alone. ``WRONG`` edits
change what a card or figure says (a digit, a formula, a unit, a word-number,
code, a figure's data); ``check --strict`` must fail on them. ``HARMLESS``
edits write the same thing another way (TeX notation, spacing, ``50 %``,
``one``); ``check --strict`` must pass them. The escape classes of the issue
come first in each list.
"""

from __future__ import annotations

SEED = "content/distributed-training.md"
S01 = "figures/s01.py"
S02 = "figures/s02.py"

#: (file, before, after): edits that make a card or figure wrong.
WRONG: list[tuple[str, str, str]] = [
    # premises in the question
    (SEED, '"We use 4 GPUs data-parallel', '"We use 8 GPUs data-parallel'),
    (SEED, "With $k = 1$ device, what", "With $k = 2$ device, what"),
    (SEED, "local batch 32, so we keep", "local batch 64, so we keep"),
    (SEED, "4\u00d7 speedup on 4 GPUs", "4\u00d7 speedup on 8 GPUs"),
    (
        SEED,
        "Scaling efficiency above 1 (super-linear)",
        "Scaling efficiency above 2 (super-linear)",
    ),
    (SEED, "data parallelism across 8\nGPUs", "data parallelism across 16\nGPUs"),
    (SEED, "pipeline parallelism across 2 GPUs", "pipeline parallelism across 3 GPUs"),
    # a quote satisfied by another copy of its text
    (SEED, "needs about $\\log_2 k$ communication", "needs about $\\ln k$ communication"),
    (SEED, "vs 3.3\u00d7 on 100 Gb InfiniBand", "vs 3.3\u00d7 on 10 Gb InfiniBand"),
    # quoted numbers rearranged or reused
    (SEED, "the effective batch is now 128, not 32", "the effective batch is now 32, not 128"),
    (SEED, "(and warm it up).", "(and warm it up); 128 is also the warm-up length."),
    # a minus sign before a quoted number
    (SEED, "the effective batch is now 128, not 32", "the effective batch is now -128, not 32"),
    (SEED, "1.3\u00d7 on 10 Gb Ethernet vs", "\u22121.3\u00d7 on 10 Gb Ethernet vs"),
    # a formula with no digit and no relation
    (SEED, "saturates\nnear $M/\\beta$ while", "saturates\nnear $\\beta/M$ while"),
    (SEED, "the multiplier is $k$.", "the multiplier is $\\sqrt{k}$."),
    (SEED, "communication\ncost $T_{comm}$ stays", "communication\ncost $k\\,T_{comm}$ stays"),
    (SEED, "from $\\sigma$ to $\\sigma/\\sqrt{k}$", "from $\\sigma$ to $\\sigma/k$"),
    # visible text the claim reader used to skip
    (SEED, "{{c1::k}} \\cdot \\eta_{base}", "{{c1::k::2 for 4 GPUs}} \\cdot \\eta_{base}"),
    (SEED, "Core vocabulary: the three words", "Core vocabulary: the four words"),
    (SEED, "apply the linear scaling rule", "apply (`--lr 0.8`) the linear scaling rule"),
    (SEED, "count k = 1, 2, 4, 8: a lavender", "count k = 1, 2, 4, 16: a lavender"),
    (SEED, "![Four horizontal time bars", "![Five horizontal time bars"),
    (SEED, "Four horizontal time-bars, one", "Three horizontal time-bars, one"),
    (SEED, "1.3\u00d7 on 10 Gb Ethernet vs", "1.3\u00d7 on 10² Gb Ethernet vs"),
    (SEED, "efficiency — half\nyour devices'", "efficiency — a third of\nyour devices'"),
    (SEED, "first few hundred steps", "first few thousand steps"),
    (SEED, "and the three coloured curves", "and the four coloured curves"),
    # units
    (SEED, "1.3\u00d7 on 10 Gb Ethernet vs", "1.3\u00d7 on 10 GB Ethernet vs"),
    (SEED, "10 Gb Ethernet and\n100 Gb InfiniBand", "10 Gb Ethernet and\n100 Mb InfiniBand"),
    # figures
    (
        S01,
        'device_counts = [int(k) for k in formulas["device_counts"]()]',
        "device_counts = [1, 2, 4, 16]",
    ),
    (S01, 't_compute = formulas["T_compute_toy"]()', "t_compute = 2.0"),
    (
        S01,
        "comm = step(T_compute=0.0, k=k, T_comm=t_comm)",
        "comm = step(T_compute=0.0, k=k, T_comm=2 * t_comm)",
    ),
    (S01, "for row, k in enumerate(device_counts):", "for row, k in enumerate(device_counts[:2]):"),
    (S02, '("fast link", "T_comm_fast", "mint")', '("fast link", "T_comm_slow", "mint")'),
    (S01, 't_comm = formulas["T_comm_s01"]()', "t_comm = 0.5"),
    # digits and formulas of answers
    (SEED, "the effective batch is now 128, not 32", "the effective batch is now 256, not 32"),
    (SEED, "rule $\\eta_{new} = 4\\, \\eta_{base}$", "rule $\\eta_{new} = 8\\, \\eta_{base}$"),
    (SEED, "= k/2$, i.e.", "= k/3$, i.e."),
    (SEED, "only 50% efficiency", "only 25% efficiency"),
    (SEED, "::: 1.3\u00d7 on 10 Gb", "::: 1.5\u00d7 on 10 Gb"),
    (SEED, "i.e. exactly 100%", "i.e. exactly 90%"),
    (SEED, "is efficiency $= 1$", "is efficiency $= 2$"),
    (SEED, "is $S/k = 4/4 = 1$", "is $S/k = 4/8 = 1$"),
    (SEED, "only exceed 100% if $S > 4$", "only exceed 100% if $S < 4$"),
    (SEED, "$\\frac{k - 1}{k} = 0$)", "$\\frac{k - 1}{k} = 1$)"),
    (SEED, "$\\log_2 k = 0$ and", "$\\log_2 k = 1$ and"),
    (SEED, "$S = T_{compute}/T_{compute} = 1$ —", "$S = T_{compute}/T_{compute} = 2$ —"),
    (SEED, "climbs from $0$ at $k = 1$", "climbs from $0$ at $k = 2$"),
    (SEED, "through $\\frac{1}{2}$ at", "through $\\frac{1}{3}$ at"),
    (SEED, "at $k = 2$, toward $1$", "at $k = 2$, toward $2$"),
    (SEED, "grows\nfrom 1 without bound", "grows\nfrom 2 without bound"),
    (SEED, "shrinks toward 1 (or", "shrinks toward 2 (or"),
    (SEED, "applied to $\\theta_{t + 5}$", "applied to $\\theta_{t + 50}$"),
    (SEED, "batch is $bk$, so", "batch is $b + k$, so"),
    (SEED, "at batch $b \\times k$.", "at batch $b + k$."),
    (SEED, "roughly\n$k\\times$ longer", "roughly\n$2k\\times$ longer"),
    (SEED, "+ M/\\beta$: the bandwidth", "+ 2 M/\\beta$: the bandwidth"),
    (
        SEED,
        "$\\frac{T_{compute}}{k} + T_{comm}$: the",
        "$\\frac{T_{compute}}{2 k} + T_{comm}$: the",
    ),
    (
        SEED,
        "$$S = \\frac{T_{compute}}{\\frac{T_{compute}}{k} + T_{comm}}$$ <!--",
        "$$S = \\frac{T_{compute}}{\\frac{T_{compute}}{k} - T_{comm}}$$ <!--",
    ),
    (SEED, "{{c2::\\frac{k - 1}{k} \\cdot", "{{c2::\\frac{k + 1}{k} \\cdot"),
    (
        SEED,
        "$\\eta_{new} = {{c1::k}} \\cdot \\eta_{base}$",
        "$\\eta_{new} = {{c1::\\sqrt{k} }} \\cdot \\eta_{base}$",
    ),
    (SEED, "from $\\sigma$ to", "from $2 \\sigma$ to"),
    (SEED, "is the factor $\\frac{k - 1}{k}$?", "is the factor $\\frac{k + 1}{k}$?"),
    (SEED, "$-\\eta_{base}\\, g_{i}$, where", "$-2\\eta_{base}\\, g_{i}$, where"),
    (SEED, "(latency $\\sim \\log_2 k$,", "(latency $\\sim k$,"),
    (SEED, "the ideal $S = k$ (free", "the ideal $S = 2k$ (free"),
    # more like them: a number in words added, a formula made a lone symbol, ...
    (SEED, "one per device count $k", "two per device count $k"),
    (SEED, "shrinks like $T_{compute}/k$, but", "shrinks like $T_{compute}/k^2$, but"),
    (
        SEED,
        "\\frac{k - 1}{k} \\cdot \\frac{M}{\\beta}}_{\\text{bandwidth term}}$$\n\nwith",
        "\\frac{k}{k - 1} \\cdot \\frac{M}{\\beta}}_{\\text{bandwidth term}}$$\n\nwith",
    ),
    (SEED, "Efficiency\nis $S/k", "Efficiency\nis $k/S"),
    (SEED, "only 50% efficiency — half", "only 50% efficiency — most"),
    (SEED, "about $\\log_2 k$ communication rounds", "about $k$ communication rounds"),
    (SEED, "10 Gb Ethernet and\n100 Gb", "1 Gb Ethernet and\n100 Gb"),
    (SEED, "from $\\sigma$ to", "from $\\sigma^2$ to"),
    (SEED, "$\\eta_{new} = k\\, \\eta_{base}$ or", "$\\eta_{new} = \\sqrt{k}\\, \\eta_{base}$ or"),
    (SEED, "the $k$ devices divide", "the $2k$ devices divide"),
    (
        SEED,
        "Synchronous SGD produces a different model",
        "Synchronous SGD with 2 devices produces a different model",
    ),
    (
        SEED,
        "stale gradients (computed on old weights\n$\\theta_{t}$",
        "stale gradients (computed on old weights\n$\\theta_{t - 1}$",
    ),
]

#: (file, before, after): the same card written another way.
HARMLESS: list[tuple[str, str, str]] = [
    (SEED, "needs about $\\log_2 k$ communication", "needs about $\\log_{2} k$ communication"),
    (SEED, "$\\eta_{new} = k\\, \\eta_{base}$ or", "$\\eta_{new} = k \\eta_{base}$ or"),
    (SEED, "$-\\eta_{base}\\, g_{i}$, where", "$-\\eta_{base}\\, g_i$, where"),
    (
        SEED,
        "$\\frac{k - 1}{k} \\cdot M/\\beta$ bandwidth",
        "$\\frac{k - 1}{k} \\times M/\\beta$ bandwidth",
    ),
    (SEED, "$\\frac{T_{compute}}{k} + T_{comm}$: the", "$\\dfrac{T_{compute}}{k} + T_{comm}$: the"),
    (SEED, "$\\frac{T_{compute}}{k} + T_{comm}$: the", "$T_{comm} + \\frac{T_{compute}}{k}$: the"),
    (SEED, "only 50% efficiency", "only 50 % efficiency"),
    (SEED, 'divide by\n1" is a no-op', 'divide by\none" is a no-op'),
    (SEED, "through $\\frac{1}{2}$ at", "through $\\tfrac{1}{2}$ at"),
    (SEED, "to $\\sigma/\\sqrt{k}$.", "to $\\sigma / \\sqrt{k}$."),
    (SEED, "is $S/k = 4/4 = 1$", "is $S/k=4/4=1$"),
    (SEED, "time, $T_{comm} = T_{compute}/k$?", "time, $T_{comm} = \\frac{T_{compute}}{k}$?"),
    (SEED, "i.e. exactly 100%", "i.e. exactly 100 %"),
    (SEED, "rule $\\eta_{new} = 4\\, \\eta_{base}$", "rule $\\eta_{new} = 4 \\cdot \\eta_{base}$"),
    (SEED, "batch is $bk$, so", "batch is $b k$, so"),
    (SEED, "got 4\u00d7 speedup", "got 4x speedup"),
    (SEED, "Compute phase $T_{compute}/k$ (the", "Compute phase $\\frac{T_{compute}}{k}$ (the"),
    (SEED, "shrinks the $M/\\beta$ part", "shrinks the $\\frac{M}{\\beta}$ part"),
    (SEED, "$\\log_2 k = 0$ and", "$\\log_{2}k = 0$ and"),
    (SEED, "and $\\frac{k - 1}{k} = 0$)", "and $\\frac{k-1}{k}=0$)"),
    (SEED, '"We use 4 GPUs data-parallel', '"We use four GPUs data-parallel'),
    (SEED, "Four horizontal time-bars, one", "4 horizontal time-bars, one"),
    (SEED, "1.3\u00d7 on 10 Gb Ethernet vs", "1.3\u00d7 on 10 Gbit Ethernet vs"),
    (SEED, "$k \\in \\{1, 2, 4, 8\\}$. The", "$k \\in \\{1,2,4,8\\}$. The"),
    (
        SEED,
        "$\\frac{k - 1}{k} \\cdot \\frac{M}{\\beta}$, what",
        "$\\frac{M}{\\beta} \\cdot \\frac{k - 1}{k}$, what",
    ),
]
