"""Vision-necessity controls (blank, noise, lowres): what each replacement keeps and loses."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from cogvis_tasks.core import controls


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _checker(width: int, height: int, period: int) -> Image.Image:
    y, x = np.mgrid[0:height, 0:width]
    cells = ((x // period + y // period) % 2 * 255).astype(np.uint8)
    return Image.fromarray(np.stack([cells] * 3, axis=-1))


@pytest.mark.parametrize("control", controls.CONTROLS)
@pytest.mark.parametrize("size", [(1, 1), (7, 3), (300, 200), (1024, 1024)])
def test_every_replacement_keeps_the_size_and_is_rgb(control: str, size: tuple[int, int]) -> None:
    src = _png(_checker(*size, period=2))
    out = controls.decoded(src, control, "s/1#0")
    assert out.size == size and out.mode == "RGB"
    again = Image.open(io.BytesIO(controls.encoded(src, control, "s/1#0")))
    assert again.size == size and np.array_equal(np.asarray(again.convert("RGB")), np.asarray(out))


def test_blank_is_uniform_grey_whatever_the_image() -> None:
    for image in (_checker(40, 30, 3), Image.new("RGB", (40, 30), (0, 0, 0))):
        px = np.asarray(controls.decoded(_png(image), "blank", "k"))
        assert (px == controls.BLANK_GREY).all()


def test_noise_is_seeded_by_key_and_ignores_the_image() -> None:
    a, b = _png(_checker(64, 48, 4)), _png(Image.new("RGB", (64, 48), (255, 0, 0)))
    first = np.asarray(controls.decoded(a, "noise", "item/3#0"))
    assert np.array_equal(first, np.asarray(controls.decoded(b, "noise", "item/3#0")))  # content-free
    assert not np.array_equal(first, np.asarray(controls.decoded(a, "noise", "item/3#1")))  # per image
    assert controls.encoded(a, "noise", "item/3#0") == controls.encoded(a, "noise", "item/3#0")  # byte-identical
    grey = first[..., 0].astype(float)
    assert (first[..., 0] == first[..., 1]).all() and 110 < grey.mean() < 145 and grey.std() > 60  # uniform 0..255


def test_lowres_removes_detail_finer_than_its_factor_and_keeps_coarse_structure() -> None:
    fine = np.asarray(controls.decoded(_png(_checker(300, 300, 1)), "lowres", "k")).astype(float)
    assert fine.std() < 30  # a one-pixel checkerboard becomes near-uniform grey
    coarse_src = _checker(300, 300, 60)
    coarse = np.asarray(controls.decoded(_png(coarse_src), "lowres", "k")).astype(float)
    assert np.abs(coarse - np.asarray(coarse_src).astype(float)).mean() < 12  # 60-pixel cells survive


def test_no_control_passes_bytes_through() -> None:
    src = _png(_checker(10, 10, 2))
    assert controls.encoded(src, None, "k") is src
    assert np.array_equal(np.asarray(controls.decoded(src, None, "k")), np.asarray(_checker(10, 10, 2)))


@pytest.mark.parametrize("name", ["Blank", "grey", "low_res", "x"])
def test_unknown_control_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="image control"):
        controls.check(name)
    assert controls.check(None) is None and controls.check("none") is None and controls.check("noise") == "noise"


@pytest.mark.slow
def test_controls_reach_the_model_in_both_harnesses(tmp_path, minds_eye_root, stub) -> None:  # noqa: ANN001
    """Both stock CLIs send the control's replacement (same pixels in both), the prompt text unchanged."""
    import json

    from helpers.harness import (
        evalscope_openai,
        evalscope_report,
        harness_env,
        lmms_openai,
        lmms_results,
        report_metric,
        run,
    )
    from helpers.openai_stub import decode_data_url_image, message_parts

    from cogvis_tasks.minds_eye import benchmark as minds_eye

    samples = {s.id: s for s in minds_eye.samples(local_path=minds_eye_root)}

    def expected(sample, control: str) -> bytes:  # noqa: ANN001
        return controls.replace(
            controls.decoded(sample.images[0], None, ""), control, controls.image_key(sample.id, 0)
        ).tobytes()

    seen: dict[str, list[tuple[str, bytes]]] = {}

    def responder(body: dict) -> str:
        parts = message_parts(body)
        assert [k for k, _ in parts] == ["image", "text"]
        image = decode_data_url_image(parts[0][1]).convert("RGB")
        seen.setdefault(body["model"], []).append((parts[1][1], image.tobytes()))
        return "Answer: A"

    stub.responder = responder
    env = harness_env(tmp_path, minds_eye_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    lmms = lmms_openai(stub.url, "minds_eye_blank,minds_eye_lowres", tmp_path / "out", model="lm", num_concurrent=4)
    run(lmms, env, tmp_path)
    res = lmms_results(tmp_path / "out")["results"]
    work = tmp_path / "work"
    args = json.dumps(
        {"minds_eye": {"local_path": str(minds_eye_root / "minds_eye"), "extra_params": {"control": "lowres"}}}
    )
    run(evalscope_openai(stub.url, ["minds_eye"], work, "--dataset-args", args, model="es"), env, tmp_path)
    assert len(seen["lm"]) == 48 and len(seen["es"]) == 24
    # Prompts repeat across items (the item is in the image), so compare the multisets of images sent.
    want = {c: sorted(expected(s, c) for s in samples.values()) for c in ("blank", "lowres")}
    assert sorted(p for _, p in seen["lm"]) == sorted(want["blank"] + want["lowres"])
    assert sorted(p for _, p in seen["es"]) == want["lowres"]  # the same pixels as lmms-eval's lowres
    assert sorted(t for t, _ in seen["es"]) == sorted(s.text() for s in samples.values())  # text unchanged
    for task in ("minds_eye_blank", "minds_eye_lowres"):
        assert res[task]["items,none"] == 24
    overall = report_metric(evalscope_report(work, "es", "minds_eye"), "accuracy", "macro_mean", {"scope": "subtests"})
    assert overall["num"] == 24
    mt_a = sum(s.answer == "A" for s in samples.values() if s.subtest == "MT")
    assert res["minds_eye_lowres_mt"]["accuracy,none"] == pytest.approx(mt_a / 3)
