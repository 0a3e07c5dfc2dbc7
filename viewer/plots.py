"""Server-rendered SVG plots: bars, bars with a line, a score histogram with the gate drawn,
a scatter. No style attributes (the pages' Content-Security-Policy allows only the shipped
stylesheet): colours come from classes in viewer.css. Every label is escaped."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

WIDTH = 640
HEIGHT = 200
PAD_LEFT = 44
PAD_RIGHT = 44
PAD_TOP = 14
PAD_BOTTOM = 30


def _svg(width: int, height: int, body: list[str], label: str) -> str:
    return (
        f'<svg class="plot" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>'
        + "".join(body)
        + "</svg>"
    )


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if value <= step * magnitude:
            return float(step * magnitude)
    return float(10 * magnitude)


def _fmt(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def spark_bars(values: Sequence[int], labels: Sequence[str], label: str) -> str:
    """A tiny bar chart (one bar per value, a tooltip on each)."""
    width, height, gap = 12 * len(values), 28, 2
    top = max(values, default=0) or 1
    body = []
    for position, (value, name) in enumerate(zip(values, labels, strict=True)):
        bar = round((height - 2) * value / top) if value else 0
        x = position * 12
        body.append(
            f'<rect class="bar" x="{x}" y="{height - bar}" width="{12 - gap}" height="{bar}">'
            f"<title>{escape(name)}: {value}</title></rect>"
        )
    body.append(f'<line class="axis" x1="0" y1="{height}" x2="{width}" y2="{height}"/>')
    return _svg(width, height, body, label)


def bars(
    values: Sequence[float],
    labels: Sequence[str],
    label: str,
    line: Sequence[float] | None = None,
    line_label: str = "",
) -> str:
    """Bars (left axis), optionally with a line on its own right axis."""
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    top = _nice_max(max(values, default=0))
    slot = inner_w / max(1, len(values))
    body = [_axes(inner_w, inner_h), _tick(PAD_LEFT - 4, PAD_TOP + 4, _fmt(top), "end")]
    body.append(_tick(PAD_LEFT - 4, PAD_TOP + inner_h, "0", "end"))
    every = max(1, math.ceil(len(labels) / 12))
    for position, (value, name) in enumerate(zip(values, labels, strict=True)):
        bar = inner_h * value / top
        x = PAD_LEFT + position * slot + slot * 0.15
        y = PAD_TOP + inner_h - bar
        body.append(
            f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" '
            f'height="{bar:.1f}"><title>{escape(name)}: {_fmt(value)}</title></rect>'
        )
        if position % every == 0:
            body.append(_tick(x + slot * 0.35, HEIGHT - 10, name, "middle"))
    if line is not None and line:
        high = _nice_max(max(line))
        points = " ".join(
            f"{PAD_LEFT + (i + 0.5) * slot:.1f},{PAD_TOP + inner_h - inner_h * v / high:.1f}"
            for i, v in enumerate(line)
        )
        body.append(f'<polyline class="line" points="{points}"/>')
        for i, v in enumerate(line):
            x, y = PAD_LEFT + (i + 0.5) * slot, PAD_TOP + inner_h - inner_h * v / high
            body.append(
                f'<circle class="dot" cx="{x:.1f}" cy="{y:.1f}" r="2.5">'
                f"<title>{escape(line_label)} {escape(labels[i])}: {_fmt(v)}</title></circle>"
            )
        body.append(_tick(WIDTH - PAD_RIGHT + 4, PAD_TOP + 4, _fmt(high), "start", "line-label"))
    return _svg(WIDTH, HEIGHT, body, label)


def histogram(
    scores: Sequence[float],
    label: str,
    marks: Sequence[tuple[float, str, str]] = (),
    bins: int = 24,
) -> str:
    """A histogram of `scores` with vertical marks (value, caption, css class)."""
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    values = [*scores, *(value for value, _, _ in marks)]
    low = min(values, default=0.0)
    high = max(values, default=1.0)
    low, high = math.floor(low * 10) / 10, math.ceil(high * 10) / 10
    if high <= low:
        high = low + 0.1
    step = (high - low) / bins
    counts = [0] * bins
    for score in scores:
        counts[min(bins - 1, int((score - low) / step))] += 1
    top = _nice_max(max(counts, default=0))

    def x_of(value: float) -> float:
        return PAD_LEFT + inner_w * (value - low) / (high - low)

    body = [_axes(inner_w, inner_h), _tick(PAD_LEFT - 4, PAD_TOP + 4, _fmt(top), "end")]
    for position, count in enumerate(counts):
        bar = inner_h * count / top
        start = low + position * step
        body.append(
            f'<rect class="bar" x="{x_of(start) + 1:.1f}" y="{PAD_TOP + inner_h - bar:.1f}" '
            f'width="{inner_w / bins - 2:.1f}" height="{bar:.1f}"><title>'
            f"{start:.3f} to {start + step:.3f}: {count}</title></rect>"
        )
    for tick in range(6):
        value = low + (high - low) * tick / 5
        body.append(_tick(x_of(value), HEIGHT - 10, f"{value:.2f}", "middle"))
    for row, (value, caption, css) in enumerate(marks):
        x = x_of(value)
        body.append(
            f'<line class="mark {escape(css)}" x1="{x:.1f}" y1="{PAD_TOP}" x2="{x:.1f}" '
            f'y2="{PAD_TOP + inner_h}"><title>{escape(caption)}</title></line>'
        )
        right = x > PAD_LEFT + inner_w * 0.7  # a caption near the right edge reads leftwards
        body.append(
            _tick(
                x - 3 if right else x + 3,
                PAD_TOP + 10 + 12 * row,
                f"{caption} {value:.3f}",
                "end" if right else "start",
                f"mark {css}",
            )
        )
    return _svg(WIDTH, HEIGHT, body, label)


def scatter(
    points: Sequence[tuple[float, float, str]], label: str, x_name: str, y_name: str
) -> str:
    """A scatter of (x, y, tooltip) points, both axes from 0."""
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    x_top = _nice_max(max((x for x, _, _ in points), default=0))
    y_top = _nice_max(max((y for _, y, _ in points), default=0))
    body = [_axes(inner_w, inner_h)]
    body.append(_tick(PAD_LEFT - 4, PAD_TOP + 4, _fmt(y_top), "end"))
    body.append(_tick(PAD_LEFT - 4, PAD_TOP + inner_h, "0", "end"))
    body.append(_tick(PAD_LEFT + inner_w, HEIGHT - 10, f"{_fmt(x_top)} {x_name}", "end"))
    body.append(_tick(PAD_LEFT, HEIGHT - 10, "0", "middle"))
    body.append(_tick(PAD_LEFT + 4, PAD_TOP + 4, y_name, "start"))
    for x, y, tip in points:
        cx = PAD_LEFT + inner_w * x / x_top
        cy = PAD_TOP + inner_h - inner_h * y / y_top
        body.append(
            f'<circle class="dot" cx="{cx:.1f}" cy="{cy:.1f}" r="3.5">'
            f"<title>{escape(tip)}</title></circle>"
        )
    return _svg(WIDTH, HEIGHT, body, label)


def _axes(inner_w: float, inner_h: float) -> str:
    bottom = PAD_TOP + inner_h
    return (
        f'<line class="axis" x1="{PAD_LEFT}" y1="{bottom}" x2="{PAD_LEFT + inner_w}" '
        f'y2="{bottom}"/><line class="axis" x1="{PAD_LEFT}" y1="{PAD_TOP}" x2="{PAD_LEFT}" '
        f'y2="{bottom}"/>'
    )


def _tick(x: float, y: float, text: str, anchor: str, css: str = "tick") -> str:
    return (
        f'<text class="{escape(css)}" x="{x:.1f}" y="{y:.1f}" '
        f'text-anchor="{anchor}">{escape(text)}</text>'
    )
