"""The report's matplotlib figures: one figure per section, every bar labelled with its number,
embedded as a base64 PNG (matplotlib is imported only when a figure is drawn)."""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure


KEPT, REJECTED = "#009E73", "#D55E00"


def png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def figure(width: float = 8.0, height: float = 4.0, ncols: int = 1) -> tuple[Figure, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, ncols, figsize=(width, height))
    return fig, axes


def label_bars(ax: Any, bars: Any, fmt: str = "{:g}") -> None:
    """Write each non-empty bar's number at its end (every bar of the report carries one)."""
    ax.bar_label(
        bars, labels=[fmt.format(v) if v else "" for v in bars.datavalues], padding=2, fontsize=8
    )


def label_stacks(ax: Any, ys: list[Any], parts: list[list[int]]) -> None:
    """Numbers of stacked horizontal bars, as "kept + rejected" at the end of each row (a
    number inside a thin segment is unreadable)."""
    for y, values in zip(ys, parts, strict=True):
        text = " + ".join(str(v) for v in values if v)
        if text:
            ax.annotate(
                text,
                (sum(values), y),
                xytext=(3, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
            )


def hist(ax: Any, values: list[float], title: str, bins: Any, color: str) -> None:
    if not values:
        ax.text(0.5, 0.5, "no data yet", ha="center", transform=ax.transAxes)
        ax.set_title(title, fontsize=10)
        return
    _, _, bars = ax.hist(values, bins=bins, color=color, edgecolor="white")
    label_bars(ax, bars, "{:.0f}")
    mean = sum(values) / len(values)
    ax.set_title(f"{title}\nn={len(values)}, mean {mean:.2f}", fontsize=10)
    ax.set_ylabel("count", fontsize=8)


def int_bins(values: list[float], most: int = 20) -> Any:
    """Bins one integer wide, or `most` equal bins for a wide range."""
    if not values:
        return 10
    low, high = int(min(values)), int(max(values))
    if high - low + 1 <= most:
        return [b - 0.5 for b in range(low, high + 2)]
    return most
