"""Line charts drawn on the server as SVG geometry; the template writes the elements."""

from dataclasses import dataclass

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 36, 10, 10, 24
SPREAD = 4  # px between lines of equal value (their dots, 7 px across, still show)
# The axis labels' text (static/css/app.css: 11 px) is at most this wide a character, in the
# chart's own units (its width is the phone's, 360): a label's width is reckoned from it.
CHAR_WIDTH = 6.6
LABEL_GAP = 8  # px at least between two labels of the axis


@dataclass
class Line:
    name: str
    colour: str
    points: str  # "x,y x,y …" for <polyline>
    last: tuple  # where the line ends, for its dot


def _nice_ceiling(value: float) -> int:
    """A round number at or above value, for the top of the axis."""
    if value <= 10:
        return 10
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if value <= step * 10:
            return int(-(-value // step) * step)
    return int(value)


def line_chart(series, labels, title: str) -> dict:
    """Geometry for a chart of `series` [(name, colour, [value or None, …])] over `labels`."""
    values = [v for _, _, vs in series for v in vs if v is not None]
    top = _nice_ceiling(max(values, default=0))
    low = min(values, default=0)
    bottom = -_nice_ceiling(-low) if low < 0 else 0  # below zero only where a value is (ratings)
    count = len(labels)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    inset = 8  # the first point clear of the axis and its labels

    def x(i):
        if count < 2:
            return round(LEFT + plot_w / 2, 1)  # one point: in the middle, not on the axis
        return round(LEFT + inset + (plot_w - inset) * i / (count - 1), 1)

    def y(v):
        if bottom:
            return round(TOP + plot_h * (top - v) / (top - bottom), 1)
        return round(TOP + plot_h * (1 - v / top), 1) if top else TOP + plot_h

    # Lines through equal values would hide one another: at each point the series of equal
    # value are drawn a little apart (SPREAD px), the first above.
    apart = [[0.0] * count for _ in series]
    for i in range(count):
        equal: dict[float, list[int]] = {}
        for k, (_, _, vs) in enumerate(series):
            if i < len(vs) and vs[i] is not None:
                equal.setdefault(vs[i], []).append(k)
        for same in equal.values():
            for j, k in enumerate(same):
                apart[k][i] = (j - (len(same) - 1) / 2) * SPREAD

    lines = []
    for k, (name, colour, vs) in enumerate(series):
        coords = [(x(i), round(y(v) + apart[k][i], 1)) for i, v in enumerate(vs) if v is not None]
        if coords:
            points = " ".join(f"{a},{b}" for a, b in coords)
            lines.append(Line(name, colour, points, coords[-1]))
    ticks = _ticks(labels, x)
    return {
        "title": title,
        "width": WIDTH,
        "height": HEIGHT,
        "lines": lines,
        "grid": [
            {"y": y(v), "label": v} for v in ((bottom, 0, top) if bottom else (0, top // 2, top))
        ],
        "ticks": ticks,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "baseline": HEIGHT - BOTTOM,
    }


def label_width(label: str) -> float:
    return len(str(label)) * CHAR_WIDTH


def _ticks(labels, x) -> list[dict]:
    """The axis's labels: every so many points, as many as fit side by side without touching
    (a date's label is wider than a round's number), each kept within the chart's width (one
    at an end is drawn from its point inwards)."""
    count = len(labels)
    if not count:
        return []
    widest = max(label_width(label) for label in labels)
    step = (x(count - 1) - x(0)) / (count - 1) if count > 1 else widest
    every = max(1, -int(-(widest + LABEL_GAP) // step)) if step else 1
    ticks, kept_to = [], None
    for i in range(0, count, every):
        at, width = x(i), label_width(labels[i])
        anchor, left = "middle", at - width / 2
        if at + width / 2 > WIDTH:
            anchor, left = "end", at - width
        elif left < 0:
            anchor, left = "start", at
        if kept_to is not None and left < kept_to + LABEL_GAP:
            continue  # drawn inwards at the end, it would touch the label before
        ticks.append({"x": at, "label": labels[i], "anchor": anchor})
        kept_to = left + width
    return ticks
