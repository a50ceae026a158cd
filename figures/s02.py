"""Figure s02: speedup S against device count k, for fast, medium and slow links.

The dashed slate line is the ideal S = k. The mint, butter and coral curves
evaluate the deck's own checked speedup formula (``formulas["S"]``) with a
small, medium and large T_comm and the deck's ``T_compute_toy``, so the
figure and the checked claim cannot disagree. The three link times are the deck's ``T_comm_fast``,
``T_comm_medium`` and ``T_comm_slow`` formulas, the values the item's checks
use. Illustrative toy numbers, not measured hardware.
"""

from ankigen.palette import PALETTE

LINKS = (  # (label, the formula naming T_comm as a fraction of T_compute, palette colour)
    ("fast link", "T_comm_fast", "mint"),
    ("medium link", "T_comm_medium", "butter"),
    ("slow link", "T_comm_slow", "coral"),
)
K_MAX = 64


def draw(fig, formulas):
    speedup = formulas["S"]
    t_compute = formulas["T_compute_toy"]()
    fig.set_size_inches(4.8, 3.2)
    fig.patch.set_alpha(0.0)
    ax = fig.add_subplot()
    ax.patch.set_alpha(0.0)
    slate = PALETTE["slate"]

    ks = list(range(1, K_MAX + 1))
    ax.plot(ks, ks, color=slate, linestyle="--", linewidth=2, zorder=3, label="ideal  $S = k$")
    for label, name, colour in LINKS:
        t_comm = formulas[name]()
        # one device has nothing to sync (T_comm = 0 at k = 1), so every curve starts at S = 1
        s = [float(speedup(T_compute=t_compute, k=k, T_comm=t_comm if k > 1 else 0.0)) for k in ks]
        ax.plot(
            ks,
            s,
            color=PALETTE[colour],
            linewidth=3,
            label=f"{label}: $T_{{comm}} = {t_comm:g}\\,T_{{compute}}$",
        )

    # log-log: the ideal S = k is a straight diagonal and every curve visibly bends off it
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ticks = [1, 2, 4, 8, 16, 32, 64]
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.set_yticks(ticks, [str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlim(1, K_MAX)
    ax.set_ylim(0.85, K_MAX * 1.15)
    ax.set_xlabel("devices $k$", fontsize=13, color=slate)
    ax.set_ylabel("speedup $S$", fontsize=13, color=slate)
    ax.tick_params(labelsize=13, colors=slate)
    ax.grid(True, color=slate, alpha=0.25, linewidth=0.8)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("bottom", "left"):
        ax.spines[side].set_color(slate)
    ax.text(
        0.98,
        0.03,
        "illustrative toy numbers,\nnot measurements",
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        fontsize=13,
        color=slate,
    )
    fig.tight_layout()  # before the legend, which hangs below the axes
    # below the axes: inside, the long labels would cover the curves on a phone
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(-0.12, -0.2),
        fontsize=13,
        frameon=False,
        labelcolor=slate,
        handlelength=1.6,
    )
