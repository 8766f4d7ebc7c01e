"""Loading VisFactor from the official TSV, the parquet mirror and the hub, and refusing bad data.

Every defect must surface as a DataError naming file, row and field; TSV and
parquet copies of the same rows must give identical samples.
"""

from __future__ import annotations

import base64
import io
import struct
import zlib
from pathlib import Path

import datasets
import pytest
from PIL import Image

from cogvis_tasks.core import images as imgs
from cogvis_tasks.core.errors import DataError
from cogvis_tasks.core.rng import rng_for
from cogvis_tasks.visfactor import benchmark, data
from cogvis_tasks.visfactor.files import write_parquet, write_tsv
from cogvis_tasks.visfactor.prompt import COT_OUTPUT, DIRECT_OUTPUT
from cogvis_tasks.visfactor.synthetic import image_bytes, synthetic_rows


def _png(color: str, size: tuple[int, int] = (8, 8)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    return buf.getvalue()


def _row(**over: object) -> dict:
    row = {
        "index": 1,
        "category_id": "CF1",
        "category_name": "Hidden Figures Test",
        "eval_index": 0,
        "image": [_png("red"), _png("blue")],
        "question": "Task: Is <IMAGE_0> in <IMAGE_1>?<br>Output: Respond T or F.",
        "answer": "T",
        "additional": "",
    }
    row.update(over)
    return row


def _write(tmp_path: Path, rows: list[dict], fmt: str) -> Path:
    if fmt == "tsv":
        return write_tsv(rows, tmp_path / "visfactor" / "VisFactor.tsv")
    return write_parquet(rows, tmp_path / "visfactor" / "test.parquet")


@pytest.fixture(params=["tsv", "parquet"])
def fmt(request: pytest.FixtureRequest) -> str:
    return request.param


def test_tsv_and_parquet_give_identical_samples(tmp_path: Path) -> None:
    rows = synthetic_rows(items_per_subtest=1, seed=3)
    a = benchmark.samples(local_path=write_tsv(rows, tmp_path / "a" / "VisFactor.tsv"))
    b = benchmark.samples(local_path=write_parquet(rows, tmp_path / "b" / "test.parquet"))
    strip = lambda s: (
        s.id,
        s.item,
        s.prompt,
        s.images,
        s.answer,
        {k: v for k, v in s.metadata.items() if k != "source"},
    )  # noqa: E731
    assert [strip(s) for s in a] == [strip(s) for s in b]
    assert {s.subtest for s in a} == {r["category_id"] for r in rows}


def test_interleaving_additional_and_two_digit_tags(tmp_path: Path, fmt: str) -> None:
    images = [
        _png(c)
        for c in (
            "red",
            "green",
            "blue",
            "white",
            "black",
            "gray",
            "yellow",
            "cyan",
            "magenta",
            "orange",
            "pink",
            "purple",
        )
    ]
    question = (
        "Task: groups<br><ADDITIONAL_0><br>and<ADDITIONAL_1>?<IMAGE_11> then <IMAGE_10><br>" + DIRECT_OUTPUT + " now."
    )
    additional = (
        "G1: " + "".join(f"<IMAGE_{k}>" for k in range(5)) + ";G2:<br>" + "".join(f"<IMAGE_{k}>" for k in range(5, 10))
    )
    path = _write(
        tmp_path,
        [
            _row(
                category_id="I3",
                category_name="Figure Classification",
                image=images,
                question=question,
                additional=additional,
                answer="2",
            )
        ],
        fmt,
    )
    (sample,) = benchmark.samples(local_path=path)
    assert sample.image_order() == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 10]
    assert sample.prompt[0] == ("text", "Task: groups\nG1: ")
    assert ("text", "\nandG2:\n") in sample.prompt
    assert sample.text().endswith("Output: Respond now.")
    (cot,) = benchmark.samples(local_path=path, condition="cot")
    assert cot.text().endswith(COT_OUTPUT + " now.") and cot.image_order() == sample.image_order()


@pytest.mark.parametrize(
    ("over", "field", "message"),
    [
        ({"question": "Task: <IMAGE_0> only"}, "question", "never shows image(s) [1]"),
        ({"question": "Task: <IMAGE_0> <IMAGE_1> <IMAGE_2>"}, "image", "<IMAGE_2>"),
        ({"category_id": "ZZ9"}, "category_id", "unknown subtest"),
        ({"eval_index": "x1"}, "eval_index", "not an integer"),
        ({"answer": " "}, "answer", "empty answer"),
        (
            {"question": "Task <ADDITIONAL_1> <IMAGE_0><IMAGE_1>", "additional": "only one"},
            "additional",
            "<ADDITIONAL_1>",
        ),
        ({"image": [b"not an image at all", _png("red")]}, "image", "cannot be decoded"),
    ],
)
def test_bad_rows_name_file_row_and_field(tmp_path: Path, fmt: str, over: dict, field: str, message: str) -> None:
    if fmt == "parquet" and field == "eval_index":
        pytest.skip("parquet stores eval_index as an integer column")
    path = _write(
        tmp_path,
        [
            _row(index=0, eval_index=0),
            _row(index=7, eval_index=1, **over) if field != "eval_index" else _row(index=7, **over),
        ],
        fmt,
    )
    with pytest.raises(DataError) as err:
        benchmark.samples(local_path=path)
    assert err.value.file.endswith(path.name) and err.value.field == field
    assert "row 1" in str(err.value) and message in str(err.value)


def test_missing_column_truncated_file_and_bad_cells(tmp_path: Path) -> None:
    path = write_tsv([_row(index=0), _row(index=1, eval_index=1)], tmp_path / "VisFactor.tsv")
    text = path.read_text()
    header, rest = text.split("\n", 1)
    (tmp_path / "nocol.tsv").write_text(header.replace("answer", "solution") + "\n" + rest)
    with pytest.raises(DataError, match=r"row header, field 'answer': missing column"):
        data.load_rows(tmp_path / "nocol.tsv")
    (tmp_path / "cut.tsv").write_text(text[: len(text) - 300])
    with pytest.raises(DataError, match=r"cut.tsv, row 1.*truncated"):
        data.load_rows(tmp_path / "cut.tsv")
    bad64 = text.replace(base64.b64encode(_png("red")).decode()[:20], "@@@@not-base64@@@@!!", 1)
    (tmp_path / "b64.tsv").write_text(bad64)
    with pytest.raises(DataError, match=r"field 'image': image is not valid base64"):
        data.load_rows(tmp_path / "b64.tsv")
    (tmp_path / "lit.tsv").write_text(text.replace("['", "[__import__('os').system('true'), '", 1))
    with pytest.raises(DataError, match=r"field 'image': image list"):
        data.load_rows(tmp_path / "lit.tsv")
    (tmp_path / "dup.tsv").write_text(text.replace("\n1\t", "\n0\t", 1))
    with pytest.raises(DataError, match=r"duplicate row id"):
        data.load_rows(tmp_path / "dup.tsv")


def _bomb_png(side: int) -> bytes:
    """A tiny PNG that declares side x side pixels (1-bit), i.e. a decompression bomb."""
    raw = zlib.compress(b"\x00" * (1 + side // 8) * side, 9)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0))
        + chunk(b"IDAT", raw)
        + chunk(b"IEND", b"")
    )


def test_decompression_bomb_is_refused_before_decoding(tmp_path: Path, fmt: str) -> None:
    bomb = _bomb_png(30_000)
    assert len(bomb) < 200_000
    path = _write(tmp_path, [_row(image=[bomb, _png("red")])], fmt)
    with pytest.raises(DataError, match="decompression bomb"):
        benchmark.samples(local_path=path)
    with pytest.raises(DataError, match="decompression bomb"):
        imgs.decode(bomb)


def test_images_stay_encoded_until_used(tmp_path: Path) -> None:
    jpeg = image_bytes(rng_for(0, "t"))
    path = write_parquet([_row(image=[jpeg, _png("red")])], tmp_path / "test.parquet")
    (sample,) = benchmark.samples(local_path=path)
    assert sample.images[0] == jpeg  # bytes as stored, no decoding at load time
    assert imgs.data_url(jpeg).startswith("data:image/jpeg;base64,")
    assert imgs.decode(jpeg).size == (160, 160)


def test_data_dir_resolution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_parquet([_row()], tmp_path / "root" / "visfactor" / "test.parquet")
    monkeypatch.setenv("COGVIS_DATA_DIR", str(tmp_path / "root"))
    assert [s.id for s in benchmark.samples()] == ["visfactor/CF1/1"]
    assert [s.id for s in benchmark.samples(local_path=path.parent)] == ["visfactor/CF1/1"]
    monkeypatch.setenv("COGVIS_DATA_DIR", str(tmp_path / "empty"))
    with pytest.raises(FileNotFoundError, match="COGVIS_DATA_DIR"):
        benchmark.samples()
    with pytest.raises(FileNotFoundError, match="holds none of"):
        benchmark.samples(local_path=tmp_path)
    with pytest.raises(ValueError, match="unknown VisFactor subtest"):
        benchmark.samples(subtests=["XX"], local_path=path)


def test_hub_path_reads_the_mirror_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub cannot be reached here: the download is replaced by a Dataset in the mirror's schema."""
    rows = [_row(index=i, eval_index=i) for i in range(3)]
    features = datasets.Features(
        {
            "index": datasets.Value("int64"),
            "category_id": datasets.Value("string"),
            "category_name": datasets.Value("string"),
            "eval_index": datasets.Value("int64"),
            "image": datasets.List(datasets.Image()),
            "question": datasets.Value("string"),
            "answer": datasets.Value("string"),
            "additional": datasets.Value("string"),
        }
    )
    hub = datasets.Dataset.from_list(
        [{**r, "image": [{"bytes": b, "path": None} for b in r["image"]]} for r in rows], features=features
    )
    calls = []
    monkeypatch.delenv("COGVIS_DATA_DIR", raising=False)
    monkeypatch.setattr(datasets, "load_dataset", lambda name, split: calls.append((name, split)) or hub)
    samples = benchmark.samples()
    assert calls == [("lmms-lab-encoder/visfactor", "test")]
    assert [s.images for s in samples] == [tuple(r["image"]) for r in rows]
