"""Figure s01: time per training step for k = 1, 2, 4, 8 data-parallel devices.

Each row is one step: a lavender compute segment T_compute/k, which halves
every time k doubles, then a coral communication segment T_comm of the same
width in every row. The dashed line at T_comm marks the floor no number of
devices can push the step time below: the ceiling on speedup.

Both segments come from the deck's checked formulas: the step time
``formulas["T_step"]`` (compute alone with no sync, sync alone with no
compute) and the coral bar's width ``formulas["T_comm_s01"]``, the same
T_comm the item's checks use.
"""

from ankigen.palette import PALETTE

T_COMPUTE = 1.0  # single-device compute time per step (arbitrary units)
DEVICE_COUNTS = (1, 2, 4, 8)


def draw(fig, formulas):
    step = formulas["T_step"]
    t_comm = formulas["T_comm_s01"]()
    fig.set_size_inches(4.8, 3.4)
    fig.patch.set_alpha(0.0)
    ax = fig.add_subplot()
    ax.patch.set_alpha(0.0)
    slate = PALETTE["slate"]

    for row, k in enumerate(DEVICE_COUNTS):
        compute = step(T_compute=T_COMPUTE, k=k, T_comm=0.0)
        comm = step(T_compute=0.0, k=k, T_comm=t_comm)
        ax.barh(
            row,
            compute,
            height=0.62,
            color=PALETTE["lavender"],
            edgecolor=slate,
            linewidth=1.2,
            label="compute  $T_{compute}/k$" if row == 0 else None,
        )
        ax.barh(
            row,
            comm,
            left=compute,
            height=0.62,
            color=PALETTE["coral"],
            edgecolor=slate,
            linewidth=1.2,
            label="communication  $T_{comm}$" if row == 0 else None,
        )

    ax.axvline(t_comm, color=slate, linestyle="--", linewidth=2)
    ax.text(
        t_comm + 0.03,
        -0.72,
        "no step is ever shorter than $T_{comm}$",
        color=slate,
        fontsize=13,
        va="center",
    )

    ax.set_yticks(range(len(DEVICE_COUNTS)), [f"k = {k}" for k in DEVICE_COUNTS], fontsize=13)
    ax.invert_yaxis()
    ax.set_ylim(len(DEVICE_COUNTS) - 0.5, -0.9)
    ax.set_xlim(0, T_COMPUTE + t_comm + 0.05)
    ax.set_xlabel("time per step", fontsize=13, color=slate)
    ax.tick_params(axis="x", labelsize=13, colors=slate)
    ax.tick_params(axis="y", colors=slate, length=0)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.spines["bottom"].set_color(slate)
    ax.legend(loc="lower right", fontsize=13, frameon=False, labelcolor=slate)
    fig.tight_layout()
