"""Independent check of SS3 answers: count shortest routes exactly and test buildings geometrically.

The street graph is rebuilt from the scene (grid size and closed segments). Two
breadth-first searches (from each end) give distances; the number of shortest
routes is counted exactly by dynamic programming over the distance layers, and the
segments on some shortest route are those with d_start(u) + 1 + d_end(v) = d. If
the count is one, those segments are the route. A building is passed when one side
of its quarter-block square (stored coordinates) overlaps a route segment with
positive length, and merely touched when a corner of the square is a route
crossing otherwise. The answer is "?" unless exactly one building is passed and none
is touched. The generator's route, parents and building-to-street table are not used.
"""

from __future__ import annotations

import re
from collections import deque

from . import base


def _graph(scene: dict) -> dict[tuple[int, int], set[tuple[int, int]]]:
    rows, cols = scene["rows"], scene["cols"]
    adj = {(x, y): set() for x in range(cols + 1) for y in range(rows + 1)}
    for x, y in adj:
        for nb in ((x + 1, y), (x, y + 1)):
            if nb in adj:
                adj[(x, y)].add(nb)
                adj[nb].add((x, y))
    for a, b in scene["blocked"]:
        adj[tuple(a)].discard(tuple(b))
        adj[tuple(b)].discard(tuple(a))
    return adj


def _distances(adj: dict, source: tuple[int, int]) -> dict:
    dist = {source: 0}
    queue = deque([source])
    while queue:
        v = queue.popleft()
        for w in adj[v]:
            if w not in dist:
                dist[w] = dist[v] + 1
                queue.append(w)
    return dist


def _overlap(seg: tuple, side: tuple) -> bool:
    """Do two axis-parallel segments share a piece of positive length?"""
    (a, b), (c, d) = seg, side
    if a[0] == b[0] == c[0] == d[0]:
        lo, hi = max(min(a[1], b[1]), min(c[1], d[1])), min(max(a[1], b[1]), max(c[1], d[1]))
        return hi - lo > 1e-9
    if a[1] == b[1] == c[1] == d[1]:
        lo, hi = max(min(a[0], b[0]), min(c[0], d[0])), min(max(a[0], b[0]), max(c[0], d[0]))
        return hi - lo > 1e-9
    return False


def answer(scene: dict, start: str, end: str) -> str:
    adj = _graph(scene)
    s, t = tuple(scene["labels"][start]), tuple(scene["labels"][end])
    ds, dt = _distances(adj, s), _distances(adj, t)
    if t not in ds:
        return "?"
    d = ds[t]
    ways = {s: 1}
    for v in sorted(ds, key=ds.get)[1:]:
        ways[v] = sum(ways[u] for u in adj[v] if ds.get(u) == ds[v] - 1)
    if ways[t] != 1:
        return "?"
    segments = [(u, v) for u in ds for v in adj[u] if v in dt and ds[u] + 1 + dt[v] == d]
    crossings = {u for seg in segments for u in seg}
    passed, touched = [], []
    for b in scene["buildings"]:
        x0, y0, x1, y1 = b["square"]
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        sides = list(zip(corners, corners[1:] + corners[:1], strict=True))
        if any(_overlap(seg, side) for seg in segments for side in sides):
            passed.append(b["number"])
        elif any(c in crossings for c in corners):
            touched.append(b["number"])
    return str(passed[0]) if len(passed) == 1 and not touched else "?"


_ROUTE = re.compile(r"from ([A-Z]+) to ([A-Z]+)")


def solve(item: base.GeneratedItem) -> list[str]:
    """Each row's answer, with start and end read from the row's own question text."""
    scene = item.metadata["scene"]
    return [answer(scene, *_ROUTE.search(row.question).groups()) for row in item.rows]


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)
