"""The audit on released layouts: Mind's Eye folders cut by the grid layout, VisFactor files, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image, ImageDraw

pytest.importorskip("sklearn")

from test_audit import polygon  # noqa: E402

from cogvis_tasks.audit import run  # noqa: E402
from cogvis_tasks.minds_eye.audit import released_items as minds_eye_released  # noqa: E402

Q = "Analyze the six figures labeled A, B, C, D, E, and F in the image. Reason step by step for answering."


def write_vra(root, n: int, planted: bool, seed: int = 0) -> None:
    """``root/minds_eye/abstract``: 1200 x 800 images, a 2 x 3 grid with the letter above each figure, like the release."""
    rng = np.random.default_rng(seed)
    folder = root / "minds_eye" / "abstract"
    folder.mkdir(parents=True)
    records = {}
    for i in range(n):
        scales = rng.uniform(0.35, 1.0, 6)
        answer = int(np.argmax(scales)) if planted else int(rng.integers(6))
        img = Image.new("RGB", (1200, 800), "white")
        draw = ImageDraw.Draw(img)
        for k, s in enumerate(scales):
            r, c = divmod(k, 3)
            draw.text((c * 400 + 200, r * 400 + 15), "ABCDEF"[k], fill="black")
            pts = [(c * 400 + 80 + 2.2 * x, r * 400 + 100 + 2.2 * y) for x, y in polygon(rng, s, False)]
            draw.polygon(pts, outline="black", width=4)
        name = f"{i:05d}_AP.png"
        img.save(folder / name)
        records[name] = {"question": Q, "answer": "ABCDEF"[answer], "reason": "planted"}
    (folder / "annotations.json").write_text(json.dumps(records))


def test_released_minds_eye_is_cut_by_the_grid_layout(tmp_path):
    """Cell k holds a bar of width 20(k+1) under a red letter: crops come in cell order, letters cut off."""
    folder = tmp_path / "minds_eye" / "abstract"
    folder.mkdir(parents=True)
    img = Image.new("RGB", (1200, 800), "white")
    draw = ImageDraw.Draw(img)
    for k in range(6):
        r, c = divmod(k, 3)
        draw.text((c * 400 + 200, r * 400 + 12), "ABCDEF"[k], fill=(255, 0, 0))
        draw.rectangle([c * 400 + 100, r * 400 + 150, c * 400 + 100 + 20 * (k + 1), r * 400 + 300], fill="black")
    img.save(folder / "a.png")
    (folder / "annotations.json").write_text(json.dumps({"a.png": {"question": Q, "answer": "c"}}))
    (item,) = minds_eye_released(tmp_path)
    assert item.group == "minds_eye/VRA" and item.answer == 2 and len(item.options) == 6
    ink = [(o.astype(int).sum(axis=2) < 200).mean() for o in item.options]
    assert ink == sorted(ink) and ink[0] > 0
    red = [((o[..., 0] > 150) & (o[..., 1] < 100)).sum() for o in item.options]
    assert red == [0] * 6


@pytest.mark.parametrize("planted", [True, False])
def test_released_minds_eye_leak_is_found_and_control_is_clean(tmp_path, planted):
    write_vra(tmp_path, 80, planted=planted, seed=1)
    (result,) = run("minds_eye", data=tmp_path, quiet=True)
    assert result.group == "minds_eye/VRA" and result.preset == "released" and result.n_items == 80
    assert result.leak is planted, [(s.name, s.accuracy, s.low) for s in result.pickers]


def test_cli_audits_a_released_visfactor_file(tmp_path):
    gen = [
        sys.executable,
        "-m",
        "cogvis_tasks",
        "generate",
        "--subtests",
        "VZ2,CS1",
        "--n",
        "12",
        "--format",
        "tsv",
        "--out",
        str(tmp_path),
        "--quiet",
    ]
    subprocess.run(gen, check=True, capture_output=True)
    out = tmp_path / "audit.html"
    cmd = [
        sys.executable,
        "-m",
        "cogvis_tasks",
        "audit",
        "visfactor",
        "--data",
        str(tmp_path / "visfactor" / "VisFactor.tsv"),
        "--out",
        str(out),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert "<td>VZ2</td><td>released</td><td>choice</td><td>12</td>" in text
    assert "<td>CS1</td><td>released</td><td>not audited</td>" in text and "open-vocabulary" in text


def test_cli_refuses_unknown_presets_and_bad_layouts(tmp_path):
    bad = tmp_path / "layout.json"
    bad.write_text("{not json")
    write_vra(tmp_path, 2, planted=False)
    cmd = [sys.executable, "-m", "cogvis_tasks", "audit", "minds_eye", "--data", str(tmp_path), "--layout", str(bad)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode != 0 and "layout.json" in proc.stderr and "malformed JSON" in proc.stderr
    cmd = [
        sys.executable,
        "-m",
        "cogvis_tasks",
        "audit",
        "visfactor",
        "--difficulty",
        "medium",
        "--n",
        "5",
        "--subtests",
        "VZ2",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode != 0 and "medium" in proc.stderr


def test_mixed_generated_set_is_audited_per_preset():
    results = run("minds_eye", ["SS"], ["mixed"], 6, 7, quiet=True)
    assert [(r.group, r.preset, r.n_items) for r in results] == [
        ("minds_eye/SS", p, 2) for p in ("easy", "medium", "hard")
    ]
