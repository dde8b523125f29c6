"""PNG charts of a benchmark run (matplotlib, drawn off-screen); none without matplotlib."""

from __future__ import annotations

from pathlib import Path

from .corpus import KINDS, REFUSE_KINDS
from .measurements import Bench
from .outcome import OUTCOMES
from .speed import SPEED_CASES

COLORS = {
    "correct": "#2e7d32",
    "whitespace_off": "#9ccc65",
    "refused": "#bdbdbd",
    "misapplied": "#c62828",
}


def draw(bench: Bench, out: Path) -> dict[str, Path]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return {}
    paths = {"outcomes": out / "outcomes.png", "latency": out / "latency.png"}
    _outcomes(bench, plt, paths["outcomes"])
    _latency(bench, plt, paths["latency"])
    return paths


def _outcomes(bench: Bench, plt: object, path: Path) -> None:
    engines = list(bench.accuracy)
    kinds = [k for k in KINDS if any(k in bench.accuracy[e] for e in engines)]
    fig, axes = plt.subplots(  # type: ignore[attr-defined]
        1,
        len(engines),
        figsize=(3.2 * len(engines) + 2.5, 0.32 * len(kinds) + 1.6),
        sharey=True,
        squeeze=False,
    )
    for ax, engine in zip(axes[0], engines, strict=True):
        left = [0.0] * len(kinds)
        for outcome in OUTCOMES:
            shares = []
            for k in kinds:
                c = bench.accuracy[engine].get(k)
                total = sum(c.values()) if c else 0
                shares.append(c[outcome] / total if c and total else 0.0)
            ax.barh(range(len(kinds)), shares, left=left, color=COLORS[outcome], label=outcome)
            left = [a + b for a, b in zip(left, shares, strict=True)]
        ax.set_title(engine)
        ax.set_xlim(0, 1)
        ax.set_xticks([0, 0.5, 1])
        ax.set_xticklabels(["0", "50%", "100%"])
    labels = [f"{k} *" if k in REFUSE_KINDS else k for k in kinds]
    axes[0][0].set_yticks(range(len(kinds)))
    axes[0][0].set_yticklabels(labels, fontsize=8)
    axes[0][0].invert_yaxis()
    axes[0][-1].legend(loc="lower right", fontsize=7)
    fig.suptitle("Outcome per kind of edit (* must be refused)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)  # type: ignore[attr-defined]


def _latency(bench: Bench, plt: object, path: Path) -> None:
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8), squeeze=False)  # type: ignore[attr-defined]
    engines = list(bench.accuracy)
    for ax, case in zip(axes[0], SPEED_CASES, strict=True):
        for engine in engines:
            rows = sorted(
                (r for r in bench.speed if r["engine"] == engine and r["case"] == case),
                key=lambda r: r["lines"],
            )
            xs = [r["lines"] for r in rows if r["ms"] is not None]
            ys = [r["ms"] for r in rows if r["ms"] is not None]
            if xs:
                ax.plot(xs, ys, marker="o", label=engine)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(case)
        ax.set_xlabel("lines in the file")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("ms per call (median)")
    axes[0][-1].legend(fontsize=8)
    fig.suptitle("Latency against file size (log-log)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)  # type: ignore[attr-defined]
