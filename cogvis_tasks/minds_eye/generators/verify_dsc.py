"""Independent check of DSC answers: replay each shape's motion to t = 1 and compare outlines.

* Each motion formula is written again here, from its parameters, as a 3x3 affine
  matrix (translation after rotation after scale after shear) built in numpy; the
  generator's pose code is never called.
* The top row is replayed too (t = 0, .25, .5, .75): a scene whose drawn frames do not
  follow its stated motions is rejected.
* An option matches when both shapes' outlines at the option's recorded poses lie within
  ``TOLERANCE`` (Hausdorff distance, world units) of the replayed t = 1 outlines, so an
  option that merely looks the same (a symmetric shape turned onto itself) also matches
  and exactly one option may match.

Only ``scene["shapes"]`` (start pose and motion), the recorded poses and the shape
outlines (a shared constant: what is drawn) are used, never option types or the answer.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import base
from .dsc import SHAPES  # shared constant: the outlines that are drawn

TOLERANCE = 0.03  # world units (about 3 px)
ANSWER_T = 1.0


def _affine(cx: float, cy: float, angle_deg: float, sx: float, sy: float, shear: float) -> np.ndarray:
    a = math.radians(angle_deg)
    move = np.array([[1.0, 0.0, cx], [0.0, 1.0, cy], [0.0, 0.0, 1.0]])
    turn = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]])
    stretch = np.diag([sx, sy, 1.0])
    slant = np.array([[1.0, shear, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    return move @ turn @ stretch @ slant


def _osc(p: dict[str, float], t: float) -> float:
    """An oscillation's value at t: the motion records its period (time units per cycle) and phase (degrees)."""
    return math.sin(math.radians(360.0 * t / p["period"] + p["phase"]))


def _replay(shape: dict[str, Any], t: float) -> np.ndarray:
    """The shape's matrix at time t, from its start pose and its motion's formula."""
    s = shape["start"]
    centre = complex(s["cx"], s["cy"])
    angle, kx, ky, shear = s["angle"], 1.0, 1.0, 0.0
    motion = shape["motion"]
    if motion is not None:
        kind, p = motion["type"], motion["params"]
        if kind in ("rotate", "spin_pulsate", "rotate_and_drift"):
            angle += p["speed"] * t
        if kind in ("scale", "scale_and_drift"):
            kx = ky = 1.0 + p["rate"] * (t - 0.5)
        if kind in (
            "translate",
            "zigzag",
            "rotate_and_drift",
            "scale_and_drift",
            "rotate_back_and_forth",
            "compress_and_stretch",
            "spin_pulsate",
        ):
            drift = complex(p["vx"], p["vy"])
            centre += drift * (t - 0.5)
            if kind == "zigzag":  # sideways swing: the drift direction turned a quarter turn left
                centre += 1j * drift / abs(drift) * p["amp"] * _osc(p, t)
        if kind == "bounce":
            phase = math.fmod(t / p["period"] + p["start"], 1.0)
            centre += 1j * p["height"] * (4.0 * phase * (1.0 - phase) - 0.5)
        if kind == "wiggle":
            centre += p["amp"] * _osc(p, t)
        if kind in ("pulsate", "spin_pulsate"):
            kx = ky = 1.0 + p["amp"] * _osc(p, t)
        if kind == "shear":
            shear = p["amp"] * _osc(p, t)
        if kind == "stretch_x":
            kx = 1.0 + p["amp"] * _osc(p, t)
        if kind == "compress_and_stretch":
            kx, ky = 1.0 + p["amp"] * _osc(p, t), 1.0 - p["amp"] * _osc(p, t)
        if kind == "rotate_back_and_forth":
            angle += p["amp"] * _osc(p, t)
        if kind == "swirl":  # orbit about a fixed point while spinning at the orbit's rate
            start, now = np.exp(1j * math.radians(p["start"])), np.exp(1j * math.radians(p["start"] + p["speed"] * t))
            centre += p["radius"] * (now - start)
            angle += p["speed"] * t
    size = s["size"]
    return _affine(centre.real, centre.imag, angle, size * kx, size * ky, shear)


def _outline(name: str, matrix: np.ndarray) -> np.ndarray:
    """Points every 0.04 unit along the shape's polylines, mapped by the matrix."""
    parts = []
    for polyline in SHAPES[name]:
        pts = np.asarray(polyline, dtype=float)
        for a, b in zip(pts[:-1], pts[1:], strict=True):
            n = max(2, math.ceil(float(np.linalg.norm(b - a)) / 0.04))
            parts.append(a + np.linspace(0.0, 1.0, n)[:, None] * (b - a))
    local = np.concatenate(parts)
    return (matrix @ np.vstack([local.T, np.ones(len(local))]))[:2].T


def _recorded(pose: dict[str, float]) -> np.ndarray:
    return _affine(pose["cx"], pose["cy"], pose["angle"], pose["sx"], pose["sy"], pose["shear"])


def _hausdorff(a: np.ndarray, b: np.ndarray) -> float:
    d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    return float(max(d.min(axis=0).max(), d.min(axis=1).max()))


def _looks_like(shapes: list[dict[str, Any]], t: float, poses: list[dict[str, float]]) -> bool:
    return all(
        _hausdorff(_outline(sh["name"], _replay(sh, t)), _outline(sh["name"], _recorded(pose))) <= TOLERANCE
        for sh, pose in zip(shapes, poses, strict=True)
    )


def solve(item: base.GeneratedItem) -> int:
    """The answer index re-derived from the item's scene alone (:func:`solve_scene`)."""
    return solve_scene(item.scene)


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` finds the stored answer."""
    base.verify(item, solve)


def solve_scene(scene: dict[str, Any]) -> int:
    """The one option whose poses the replayed motions reach at t = 1; ValueError if the top row does not follow
    the motions or not exactly one option matches."""
    shapes = scene["shapes"]
    for frame in scene["frames"]:
        if not _looks_like(shapes, frame["t"], frame["poses"]):
            raise ValueError(f"the frame at t={frame['t']} does not follow the stated motions")
    matches = [i for i, option in enumerate(scene["options"]) if _looks_like(shapes, ANSWER_T, option["poses"])]
    if len(matches) != 1:
        raise ValueError(f"{len(matches)} options show the t=1 frame: {matches}")
    return matches[0]
