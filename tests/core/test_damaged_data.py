"""Damaged and hostile data files fail at load with a located DataError, in every loader (issue 12, items 2-5).

* Item 2: an image whose header is valid but whose body is cut off (or corrupt) is
  refused at load, also while ``ImageFile.LOAD_TRUNCATED_IMAGES`` is on (lmms-eval
  turns it on for the whole process), and through both stock CLIs no request is sent.
* Item 3: two VisualPuzzles records with one id are an error (they merged into one item).
* Item 4: a data file or folder that resolves outside the data root is refused.
* Item 5: invalid UTF-8, a NUL byte in an image path, a jsonl line that is not an
  object and an unreadable parquet name the file, row and field.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers.harness import harness_env, lmms_openai, run
from helpers.openai_stub import StubServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFile

from cogvis_tasks.core import images as imgs
from cogvis_tasks.core.errors import DataError
from cogvis_tasks.minds_eye import data as me_data
from cogvis_tasks.minds_eye.synthetic import write_release as write_minds_eye
from cogvis_tasks.mme_cc import data as mme_data
from cogvis_tasks.mme_cc.synthetic import write_release as write_mme_cc
from cogvis_tasks.visfactor import data as vf_data
from cogvis_tasks.visfactor.files import write_parquet as write_vf_parquet
from cogvis_tasks.visfactor.files import write_tsv as write_vf_tsv
from cogvis_tasks.visfactor.synthetic import synthetic_rows
from cogvis_tasks.visualpuzzles import data as vp_data
from cogvis_tasks.visualpuzzles.synthetic import records as vp_records
from cogvis_tasks.visualpuzzles.synthetic import write_jsonl as write_vp_jsonl
from cogvis_tasks.visualpuzzles.synthetic import write_parquet as write_vp_parquet

FORMATS = [("PNG", {}), ("JPEG", {}), ("JPEG", {"progressive": True}), ("GIF", {}), ("WEBP", {}), ("BMP", {})]
FORMAT_IDS = ["png", "jpeg", "jpeg-progressive", "gif", "webp", "bmp"]


def encode(fmt: str, options: dict[str, Any], size: tuple[int, int] = (96, 72), seed: int = 0) -> bytes:
    """A noisy drawing (so the compressed body is many bytes long) in one format."""
    rng = random.Random(seed)
    img = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(img)
    for _ in range(size[0] * size[1] // 20):
        draw.point((rng.randrange(size[0]), rng.randrange(size[1])), fill=(rng.randrange(256), rng.randrange(256), 0))
    buf = io.BytesIO()
    img.save(buf, format=fmt, **options)
    return buf.getvalue()


def cut(data: bytes) -> bytes:
    """The image with its last third (at least 13 bytes) cut off: the header stays valid."""
    short = data[: len(data) - max(13, len(data) // 3)]
    if not short.startswith(b"RIFF"):  # PIL cannot even open a cut WebP; for the others header checks pass
        imgs.check_header(short, "<cut>", 0, "image")
    return short


@pytest.fixture(params=[False, True], ids=["pil-strict", "pil-lenient-as-in-lmms-eval"])
def pil_flag(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", request.param)
    return request.param


@pytest.fixture
def lenient_pil(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process-wide setting lmms-eval makes at import (lmms_eval/api/task.py)."""
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)


def located(err: pytest.ExceptionInfo[DataError], file: str | Path, row: object, field: str | None) -> None:
    assert (Path(err.value.file).name, err.value.row, err.value.field) == (Path(file).name, row, field), str(err.value)


# ----------------------------------------------------------------------------- item 2: the image check


@pytest.mark.parametrize(("fmt", "options"), FORMATS, ids=FORMAT_IDS)
def test_whole_images_pass_and_cut_ones_are_refused(fmt: str, options: dict[str, Any], pil_flag: bool) -> None:
    data = encode(fmt, options)
    assert imgs.verify(data, "a.tsv", 4, "image") == fmt
    for short in (cut(data), data[:-1]):
        with pytest.raises(DataError) as err:
            imgs.verify(short, "a.tsv", 4, "image")
        assert (err.value.file, err.value.row, err.value.field) == ("a.tsv", 4, "image")
        with pytest.raises(DataError):
            imgs.decode(short)  # the request path is as strict
    assert ImageFile.LOAD_TRUNCATED_IMAGES is pil_flag  # the process-wide flag is left alone


@pytest.mark.parametrize(("fmt", "options"), FORMATS[:3], ids=FORMAT_IDS[:3])
def test_lenient_pil_alone_would_decode_the_cut_image(fmt: str, options: dict[str, Any], lenient_pil: None) -> None:
    """The premise of the defect: with lmms-eval's setting PIL decodes a cut body without a word."""
    with Image.open(io.BytesIO(cut(encode(fmt, options)))) as img:
        img.load()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    which=st.integers(0, len(FORMATS) - 1),
    width=st.integers(1, 80),
    height=st.integers(1, 60),
    seed=st.integers(0, 1000),
    keep=st.floats(0.0, 1.0, exclude_max=True),
)
def test_any_cut_of_any_image_is_a_data_error(
    which: int, width: int, height: int, seed: int, keep: float, lenient_pil: None
) -> None:
    fmt, options = FORMATS[which]
    data = encode(fmt, options, (width, height), seed)
    short = data[: int(len(data) * keep)]
    with pytest.raises(DataError):  # never another exception, never a pass
        imgs.verify(short, "f", 0, "image")


def test_verification_leaves_other_threads_lenient(lenient_pil: None) -> None:
    """Strictness is local: a thread decoding the lenient way (as lmms-eval does) never sees an error meanwhile."""
    whole = encode("JPEG", {}, (200, 150))
    short = cut(whole)
    errors: list[Exception] = []
    stop = threading.Event()

    def lenient_reader() -> None:
        while not stop.is_set():
            try:
                with Image.open(io.BytesIO(short)) as img:
                    img.load()
            except Exception as exc:  # any error here means the flag was switched under us
                errors.append(exc)

    def accepted(data: bytes) -> bool:
        try:
            imgs.verify(data, "f", 0, "image")
            return True
        except DataError:
            return False

    reader = threading.Thread(target=lenient_reader)
    reader.start()
    try:
        with ThreadPoolExecutor(4) as pool:
            verdicts = list(pool.map(accepted, [short if k % 2 else whole for k in range(200)]))
    finally:
        stop.set()
        reader.join()
    assert errors == []
    assert verdicts == [k % 2 == 0 for k in range(200)]


def test_png_with_a_flipped_body_byte_fails_its_crc(lenient_pil: None) -> None:
    data = bytearray(encode("PNG", {}))
    data[data.find(b"IDAT") + 20] ^= 0x01
    with pytest.raises(DataError, match="CRC"):
        imgs.verify(bytes(data), "f", 0, "image")


def test_jpeg_decoder_error_is_not_hidden_by_the_lenient_flag(lenient_pil: None) -> None:
    """A whole JPEG whose scan names an undefined Huffman table: lenient PIL returns an image, verify refuses."""
    data = bytearray(encode("JPEG", {}))
    sos = data.find(b"\xff\xda")
    data[sos + 6] = 0x33  # first component: DC/AC tables 3, never defined
    with Image.open(io.BytesIO(bytes(data))) as img:
        img.load()  # PIL alone: no error
    with pytest.raises(DataError, match="cannot be decoded"):
        imgs.verify(bytes(data), "f", 0, "image")


def test_formats_we_cannot_verify_are_refused() -> None:
    with pytest.raises(DataError, match="TIFF images are not accepted"):
        imgs.verify(encode("TIFF", {}), "f", 0, "image")


def test_generated_sets_skip_the_image_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Generated images come from our own encoder in memory: no verification, so generation is not slowed."""
    from cogvis_tasks.minds_eye import generated as me_generated
    from cogvis_tasks.visfactor import generated as vf_generated

    def refuse(*args: object) -> str:
        raise AssertionError("a generated image was verified")

    monkeypatch.setattr(imgs, "verify", refuse)
    assert vf_generated.samples(["CF1", "S1"], preset="easy", seed=1, n=1)
    assert me_generated.samples(["PF"], preset="easy", seed=1, n=1)


def _vf_rows_with_a_cut_image(row: int = 3, image: int = 0) -> list[dict[str, Any]]:
    rows = synthetic_rows(items_per_subtest=1, seed=5)
    images = list(rows[row]["image"])
    images[image] = cut(images[image])
    rows[row] = {**rows[row], "image": images}
    return rows


@pytest.mark.parametrize("fmt", ["tsv", "parquet"])
def test_visfactor_cut_image_is_located(tmp_path: Path, fmt: str, lenient_pil: None) -> None:
    rows = _vf_rows_with_a_cut_image()
    writer = write_vf_tsv if fmt == "tsv" else write_vf_parquet
    path = writer(rows, tmp_path / "visfactor" / ("VisFactor.tsv" if fmt == "tsv" else "test.parquet"))
    with pytest.raises(DataError) as err:
        vf_data.load_rows(tmp_path)
    located(err, path, 3, "image")


def test_minds_eye_cut_image_is_located(tmp_path: Path, lenient_pil: None) -> None:
    write_minds_eye(tmp_path, items_per_task=2, seed=3)
    folder = tmp_path / "minds_eye" / "paper_folding"
    key = sorted(json.loads((folder / "annotations.json").read_text()))[1]
    (folder / key).write_bytes(cut((folder / key).read_bytes()))
    with pytest.raises(DataError) as err:
        me_data.load(["PF"], tmp_path)
    located(err, folder / "annotations.json", key, "image")


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_visualpuzzles_cut_image_is_located(tmp_path: Path, fmt: str, lenient_pil: None) -> None:
    if fmt == "parquet":
        recs = vp_records(4, seed=2)
        recs[2] = {**recs[2], "image": {"bytes": cut(recs[2]["image"]), "path": None}}
        rows = [
            r if isinstance(r["image"], dict) else {**r, "image": {"bytes": r["image"], "path": None}} for r in recs
        ]
        path = tmp_path / "visualpuzzles" / "test.parquet"
        path.parent.mkdir(parents=True)
        pq.write_table(pa.Table.from_pylist(rows), path)
    else:
        write_vp_jsonl(tmp_path, n=4, seed=2)
        path = tmp_path / "visualpuzzles" / "test.jsonl"
        image = tmp_path / "visualpuzzles" / json.loads(path.read_text().splitlines()[2])["image"]
        image.write_bytes(cut(image.read_bytes()))
    with pytest.raises(DataError) as err:
        vp_data.load(tmp_path)
    located(err, path, 2, "image")


def test_mme_cc_cut_image_is_located(tmp_path: Path, lenient_pil: None) -> None:
    write_mme_cc(tmp_path, per_file=2, seed=1)
    path = tmp_path / "mme_cc" / "Unblock_Me.json"
    rel = json.loads(path.read_text())[1]["image_list"][-1]
    image = tmp_path / "mme_cc" / rel
    image.write_bytes(cut(image.read_bytes()))
    with pytest.raises(DataError) as err:
        mme_data.load(tmp_path)
    located(err, path, 1, "image_list")


# ----------------------------------------------------------------------------- item 2 through the stock CLIs


@pytest.fixture(scope="module")
def cut_image_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A COGVIS_DATA_DIR whose visfactor/test.parquet has one cut image (row 3, a CF1 row)."""
    root = tmp_path_factory.mktemp("cut_image")
    write_vf_parquet(_vf_rows_with_a_cut_image(), root / "visfactor" / "test.parquet")
    return root


def _assert_located_and_nothing_sent(proc: Any, stub: StubServer, root: Path) -> None:
    text = proc.stdout + proc.stderr
    assert f"{root / 'visfactor' / 'test.parquet'}, row 3, field 'image': image refused" in text, text[-3000:]
    assert stub.requests == []


@pytest.mark.slow
def test_lmms_eval_run_with_a_cut_image_fails_before_any_request(tmp_path: Path, cut_image_root: Path) -> None:
    with StubServer(lambda body: '{"answer": "T"}') as stub:
        env = harness_env(tmp_path, cut_image_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
        proc = run(lmms_openai(stub.url, "visfactor_cf1", tmp_path / "out", model="stub"), env, tmp_path)
        _assert_located_and_nothing_sent(proc, stub, cut_image_root)
    assert not list(
        (tmp_path / "out").glob("**/*_results.json")
    )  # lmms-eval exits 0 on failure: no results is the signal


@pytest.mark.slow
def test_evalscope_run_with_a_cut_image_fails_before_any_request(tmp_path: Path, cut_image_root: Path) -> None:
    with StubServer(lambda body: '{"answer": "T"}') as stub:
        env = harness_env(tmp_path, cut_image_root)
        proc = run(["evalscope", "eval", "--model", "stub", "--api-url", stub.url, "--api-key", "EMPTY", "--eval-type", "openai_api",
                    "--datasets", "visfactor", "--dataset-args", json.dumps({"visfactor": {"subset_list": ["CF1"]}}),
                    "--work-dir", str(tmp_path / "work"), "--no-timestamp"], env, tmp_path)  # fmt: skip
        _assert_located_and_nothing_sent(proc, stub, cut_image_root)
    assert proc.returncode != 0


# ----------------------------------------------------------------------------- item 3: VisualPuzzles duplicate ids


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_visualpuzzles_duplicate_id_in_one_file(tmp_path: Path, fmt: str) -> None:
    recs = vp_records(3, seed=1)
    recs[2] = {**recs[2], "id": recs[0]["id"]}  # a different puzzle under the first one's id
    if fmt == "parquet":
        path = tmp_path / "visualpuzzles" / "test.parquet"
        path.parent.mkdir(parents=True)
        pq.write_table(pa.Table.from_pylist([{**r, "image": {"bytes": r["image"], "path": None}} for r in recs]), path)
    else:
        folder = tmp_path / "visualpuzzles"
        (folder / "images").mkdir(parents=True)
        lines = []
        for n, r in enumerate(recs):
            (folder / "images" / f"{n}.png").write_bytes(r["image"])
            lines.append(json.dumps({**r, "image": f"images/{n}.png"}))
        path = folder / "test.jsonl"
        path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match="duplicate puzzle id") as err:
        vp_data.load(tmp_path)
    located(err, path, 2, "id")


def test_visualpuzzles_duplicate_id_across_shards(tmp_path: Path) -> None:
    folder = tmp_path / "visualpuzzles" / "data"
    folder.mkdir(parents=True)
    a, b = vp_records(2, seed=1), vp_records(2, seed=2)  # both start at id 1000
    for name, recs in (("test-00000-of-00002.parquet", a), ("test-00001-of-00002.parquet", b)):
        pq.write_table(
            pa.Table.from_pylist([{**r, "image": {"bytes": r["image"], "path": None}} for r in recs]), folder / name
        )
    with pytest.raises(DataError, match="first in .*test-00000-of-00002.parquet, row 0") as err:
        vp_data.load(tmp_path)
    located(err, folder / "test-00001-of-00002.parquet", 0, "id")


def test_visualpuzzles_duplicate_id_from_the_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    """No network: the hub download is replaced by a Dataset in the hub's schema."""
    import datasets

    recs = vp_records(3, seed=9)
    recs[1] = {**recs[1], "id": recs[0]["id"]}
    hub = datasets.Dataset.from_list([{**r, "image": {"bytes": r["image"], "path": None}} for r in recs])
    monkeypatch.delenv("COGVIS_DATA_DIR", raising=False)
    monkeypatch.setattr(datasets, "load_dataset", lambda name, split: hub)
    with pytest.raises(DataError, match="duplicate puzzle id") as err:
        vp_data.load()
    assert (err.value.file, err.value.row, err.value.field) == ("hf://neulab/VisualPuzzles", 1, "id")


# ----------------------------------------------------------------------------- item 4: nothing resolves outside the root


def _move_out(path: Path, outside: Path) -> None:
    """Move a file or folder outside the data root and leave a symlink to it in its place."""
    target = outside / path.name
    shutil.move(str(path), str(target))
    os.symlink(target, path)


def test_minds_eye_annotations_symlinked_out_of_the_root(tmp_path: Path) -> None:
    root = write_minds_eye(tmp_path / "data", items_per_task=1, seed=2)
    folder = root / "minds_eye" / "mental_rotation"
    outside = tmp_path / "elsewhere"
    shutil.copytree(folder, outside)  # a complete task folder, images included, outside the root
    (folder / "annotations.json").unlink()
    os.symlink(outside / "annotations.json", folder / "annotations.json")
    with pytest.raises(DataError, match="outside") as err:
        me_data.load(["MT"], root)
    located(err, folder / "annotations.json", "file", None)


def test_minds_eye_task_folder_symlinked_out_of_the_root(tmp_path: Path) -> None:
    root = write_minds_eye(tmp_path / "data", items_per_task=1, seed=2)
    (tmp_path / "elsewhere").mkdir()
    _move_out(root / "minds_eye" / "paper_folding", tmp_path / "elsewhere")
    with pytest.raises(DataError, match="outside") as err:
        me_data.load(None, root)
    located(err, root / "minds_eye" / "paper_folding", "folder", None)


def test_links_inside_the_root_and_a_linked_root_are_fine(tmp_path: Path) -> None:
    real = write_minds_eye(tmp_path / "real", items_per_task=1, seed=2) / "minds_eye"
    os.rename(real / "paper_folding", real / "pf_copy")
    os.symlink(real / "pf_copy", real / "paper_folding")  # a task folder linked to a folder inside the root
    (tmp_path / "data").mkdir()
    os.symlink(real, tmp_path / "data" / "minds_eye")  # the benchmark folder itself is a link: the user chose it
    assert len(me_data.load(["PF"], tmp_path / "data")) == 1
    vf = tmp_path / "vf_real"
    write_vf_parquet(synthetic_rows(items_per_subtest=1, seed=1), vf / "test.parquet")
    os.symlink(vf, tmp_path / "data" / "visfactor")
    assert vf_data.load_rows(tmp_path / "data")


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_visualpuzzles_data_file_symlinked_out_of_the_root(tmp_path: Path, fmt: str) -> None:
    root = (write_vp_jsonl if fmt == "jsonl" else write_vp_parquet)(tmp_path / "data", n=3, seed=1)
    path = root / "visualpuzzles" / ("test.jsonl" if fmt == "jsonl" else "data/test-00000-of-00001.parquet")
    outside = tmp_path / "elsewhere"
    if fmt == "jsonl":
        shutil.copytree(root / "visualpuzzles", outside)  # its images come along, so the outside copy would load
        path.unlink()
        os.symlink(outside / "test.jsonl", path)
    else:
        outside.mkdir()
        _move_out(path, outside)
    with pytest.raises(DataError, match="outside") as err:
        vp_data.load(root)
    located(err, path, "file", None)


@pytest.mark.parametrize("fmt", ["tsv", "parquet"])
@pytest.mark.parametrize("how", ["data-dir", "local-folder"])
def test_visfactor_data_file_symlinked_out_of_the_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, how: str
) -> None:
    name = "VisFactor.tsv" if fmt == "tsv" else "test.parquet"
    path = (write_vf_tsv if fmt == "tsv" else write_vf_parquet)(
        synthetic_rows(items_per_subtest=1, seed=1), tmp_path / "data" / "visfactor" / name
    )
    (tmp_path / "elsewhere").mkdir()
    _move_out(path, tmp_path / "elsewhere")
    if how == "data-dir":
        monkeypatch.setenv("COGVIS_DATA_DIR", str(tmp_path / "data"))
        source = None
    else:
        source = tmp_path / "data" / "visfactor"
    with pytest.raises(DataError, match="outside") as err:
        vf_data.load_rows(source)
    located(err, path, "file", None)
    assert vf_data.load_rows(path)  # naming the file itself is the user's explicit choice


def test_mme_cc_json_symlinked_out_of_the_root(tmp_path: Path) -> None:
    root = write_mme_cc(tmp_path / "data", per_file=1, seed=1)
    (tmp_path / "elsewhere").mkdir()
    path = root / "mme_cc" / "Sandbagging.json"
    _move_out(path, tmp_path / "elsewhere")
    with pytest.raises(DataError, match="outside") as err:
        mme_data.load(root)
    located(err, path, "file", None)


# ----------------------------------------------------------------------------- item 5: located instead of bare errors


def test_tsv_invalid_utf8_in_a_text_cell(tmp_path: Path) -> None:
    path = write_vf_tsv(synthetic_rows(items_per_subtest=1, seed=1), tmp_path / "visfactor" / "VisFactor.tsv")
    lines = path.read_bytes().split(b"\n")
    cells = lines[3].split(b"\t")
    cells[5] = cells[5][:10] + b"\xff\xfe" + cells[5][10:]  # column 5 is the question
    lines[3] = b"\t".join(cells)
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(DataError, match="not valid UTF-8") as err:
        vf_data.load_rows(tmp_path)
    located(err, path, 2, "question")


def test_tsv_invalid_utf8_in_an_image_cell(tmp_path: Path) -> None:
    path = write_vf_tsv(synthetic_rows(items_per_subtest=1, seed=1), tmp_path / "visfactor" / "VisFactor.tsv")
    lines = path.read_bytes().split(b"\n")
    cells = lines[2].split(b"\t")
    cells[4] = cells[4][:40] + b"\xc3" + cells[4][41:]
    lines[2] = b"\t".join(cells)
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(DataError) as err:
        vf_data.load_rows(tmp_path)
    located(err, path, 1, "image")


def _poison_parquet(path: Path, column: str, row: int) -> None:
    """Append an invalid UTF-8 byte to one string cell (Arrow writes it without checking)."""
    table = pq.read_table(path)
    raw = [v.encode() for v in table.column(column).to_pylist()]
    raw[row] += b"\xff"
    bad = pa.array(raw, type=pa.binary()).view(pa.string())
    pq.write_table(table.set_column(table.schema.get_field_index(column), column, bad), path)


def test_parquet_invalid_utf8_cell_visfactor_and_visualpuzzles(tmp_path: Path) -> None:
    vf = write_vf_parquet(synthetic_rows(items_per_subtest=1, seed=1), tmp_path / "a" / "visfactor" / "test.parquet")
    _poison_parquet(vf, "question", 5)
    with pytest.raises(DataError, match="not valid UTF-8") as err:
        vf_data.load_rows(tmp_path / "a")
    located(err, vf, 5, "question")
    vp = write_vp_parquet(tmp_path / "b", n=4, seed=1) / "visualpuzzles" / "data" / "test-00000-of-00001.parquet"
    _poison_parquet(vp, "category", 3)
    with pytest.raises(DataError, match="not valid UTF-8") as err:
        vp_data.load(tmp_path / "b")
    located(err, vp, 3, "category")


@pytest.mark.parametrize(
    ("where", "field"), [("question", "question[0]"), ("nested", "candidate_order[1]"), ("key", None)]
)
def test_annotations_invalid_utf8(tmp_path: Path, where: str, field: str | None) -> None:
    root = write_minds_eye(tmp_path, items_per_task=2, seed=4)
    path = root / "minds_eye" / "mental_rotation" / "annotations.json"
    recs = json.loads(path.read_text())
    key = sorted(recs)[1]
    mark = "@@BAD@@"
    if where == "question":
        recs[key]["question"] = [mark]
    elif where == "nested":
        recs[key]["candidate_order"][1] = mark
    else:
        recs = {(mark if k == key else k): v for k, v in recs.items()}
    path.write_bytes(
        json.dumps(recs).encode().replace(mark.encode(), b"mirror\xe9\x28")
    )  # an unfinished 3-byte sequence
    with pytest.raises(DataError, match="not valid UTF-8") as err:
        me_data.load(["MT"], root)
    located(err, path, "mirror\\xe9(" if where == "key" else key, field)


def test_mme_cc_invalid_utf8_in_a_prompt(tmp_path: Path) -> None:
    root = write_mme_cc(tmp_path, per_file=2, seed=1)
    path = root / "mme_cc" / "Jigsaw_Puzzle.json"
    recs = json.loads(path.read_text())
    old = json.dumps(recs[1]["prompt"]).encode()
    path.write_bytes(path.read_bytes().replace(old, old[:-1] + b'\x80"', 1))
    with pytest.raises(DataError, match="not valid UTF-8") as err:
        mme_data.load(root)
    located(err, path, 1, "prompt")


def test_visualpuzzles_jsonl_invalid_utf8(tmp_path: Path) -> None:
    path = write_vp_jsonl(tmp_path, n=3, seed=1) / "visualpuzzles" / "test.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"question": "', b'"question": "\xfe', 1)
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(DataError, match="not valid UTF-8") as err:
        vp_data.load(tmp_path)
    located(err, path, 1, "question")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=st.binary(min_size=1, max_size=6), line=st.integers(0, 2))
def test_any_bytes_in_a_jsonl_text_field_load_or_fail_located(
    tmp_path_factory: pytest.TempPathFactory, junk: bytes, line: int
) -> None:
    root = tmp_path_factory.mktemp("vp_junk")
    path = write_vp_jsonl(root, n=3, seed=1) / "visualpuzzles" / "test.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[line] = lines[line].replace(b'"question": "', b'"question": "' + junk, 1)
    path.write_bytes(b"\n".join(lines))
    try:
        puzzles = vp_data.load(root)
    except DataError as exc:
        assert (exc.row, Path(exc.file).name) == (line, "test.jsonl"), str(exc)
        assert exc.field in (None, "question"), str(exc)  # malformed JSON (no field) or bad text in the question
    else:
        assert puzzles[line].question.startswith(json.loads(b'"' + junk + b'"'))


def test_nul_byte_in_an_image_path(tmp_path: Path) -> None:
    vp = write_vp_jsonl(tmp_path / "vp", n=3, seed=1) / "visualpuzzles" / "test.jsonl"
    lines = vp.read_text().splitlines()
    rec = json.loads(lines[2])
    lines[2] = json.dumps({**rec, "image": rec["image"] + "\x00.png"})
    vp.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match="NUL") as err:
        vp_data.load(tmp_path / "vp")
    located(err, vp, 2, "image")

    mme = write_mme_cc(tmp_path / "mme", per_file=2, seed=1) / "mme_cc" / "Maze06.json"
    recs = json.loads(mme.read_text())
    recs[1]["image_list"][0] += "\x00"
    mme.write_text(json.dumps(recs))
    with pytest.raises(DataError, match="NUL") as err:
        mme_data.load(tmp_path / "mme")
    located(err, mme, 1, "image_list")


@pytest.mark.parametrize("line", ["[1, 2]", "42", '"a string"', "null", "true"])
def test_visualpuzzles_jsonl_line_that_is_not_an_object(tmp_path: Path, line: str) -> None:
    path = write_vp_jsonl(tmp_path, n=2, seed=1) / "visualpuzzles" / "test.jsonl"
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")
    with pytest.raises(DataError, match="not an object") as err:
        vp_data.load(tmp_path)
    located(err, path, 2, None)


def test_truncated_visualpuzzles_parquet(tmp_path: Path) -> None:
    path = write_vp_parquet(tmp_path, n=6, seed=1) / "visualpuzzles" / "data" / "test-00000-of-00001.parquet"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(DataError, match="cannot read parquet") as err:
        vp_data.load(tmp_path)
    located(err, path, "file", None)
