"""Figure s01: time per training step for k = 1, 2, 4, 8 data-parallel devices.

Each row is one step: a lavender compute segment T_compute/k, which halves
every time k doubles, then a coral communication segment T_comm of the same
width in every row. The dashed line at T_comm marks the floor no number of
devices can push the step time below: the ceiling on speedup.

Every number comes from the deck's checked formulas, none from this script
(format section 18): the device counts ``formulas["device_counts"]``, the
single-device compute time ``formulas["T_compute_toy"]``, the step time
``formulas["T_step"]`` (compute alone with no sync, sync alone with no
compute) and the coral bar's width ``formulas["T_comm_s01"]``, the same
T_comm the item's checks use. The legend hangs below the axes, so it covers
no bar (the k = 8 row is the last one).
"""

from ankigen.palette import PALETTE


def draw(fig, formulas):
    step = formulas["T_step"]
    t_comm = formulas["T_comm_s01"]()
    t_compute = formulas["T_compute_toy"]()
    device_counts = [int(k) for k in formulas["device_counts"]()]
    fig.set_size_inches(4.8, 4.2)
    fig.patch.set_alpha(0.0)
    ax = fig.add_subplot()
    ax.patch.set_alpha(0.0)
    slate = PALETTE["slate"]

    for row, k in enumerate(device_counts):
        compute = step(T_compute=t_compute, k=k, T_comm=0.0)
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

    rows = len(device_counts)
    ax.set_yticks(range(rows), [f"k = {k}" for k in device_counts], fontsize=13)
    ax.invert_yaxis()
    ax.set_ylim(rows - 0.5, -0.9)
    ax.set_xlim(0, t_compute + t_comm + 0.05)
    ax.set_xlabel("time per step", fontsize=13, color=slate)
    ax.tick_params(axis="x", labelsize=13, colors=slate)
    ax.tick_params(axis="y", colors=slate, length=0)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.spines["bottom"].set_color(slate)
    fig.tight_layout(rect=(0, 0.2, 1, 1))  # the bottom fifth holds the legend
    # below the axes: inside, it covered the k = 8 bar
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(0.0, -0.22),
        fontsize=13,
        frameon=False,
        labelcolor=slate,
    )
