"""Line charts drawn on the server as SVG geometry; the template writes the elements."""

from dataclasses import dataclass

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 36, 10, 10, 24
SPREAD = 4  # px between lines of equal value (their dots, 7 px across, still show)


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
    every = max(1, -(-len(labels) // 8))
    return {
        "title": title,
        "width": WIDTH,
        "height": HEIGHT,
        "lines": lines,
        "grid": [
            {"y": y(v), "label": v} for v in ((bottom, 0, top) if bottom else (0, top // 2, top))
        ],
        "ticks": [{"x": x(i), "label": label} for i, label in enumerate(labels) if i % every == 0],
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "baseline": HEIGHT - BOTTOM,
    }
