"""The lmms-eval hooks in-process: docs from the manifest, interleaving for chat back ends,
ordered images for simple back ends, and one-line scoring through the core."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
from PIL import Image

from cogvis_tasks.core import baselines
from cogvis_tasks.core import images as imgs
from cogvis_tasks.core.errors import DataError
from cogvis_tasks.core.sample import Sample
from cogvis_tasks.lmms_eval import docs
from cogvis_tasks.lmms_eval.metrics import task_metrics


@pytest.fixture
def i3_docs(data_root: Path, monkeypatch: pytest.MonkeyPatch) -> datasets.Dataset:
    monkeypatch.setenv("COGVIS_DATA_DIR", str(data_root))
    manifest = datasets.Dataset.from_list(
        [{"benchmark": "visfactor", "subtests": json.dumps(["I3"]), "condition": "direct"}]
    )
    return docs.process_docs(manifest)


def test_process_docs_gives_arrow_docs_with_undecoded_images(i3_docs: datasets.Dataset) -> None:
    assert len(i3_docs) == 16 and set(i3_docs["subtest"]) == {"I3"}
    assert isinstance(i3_docs.features["images"].feature, datasets.Image)
    doc = i3_docs[0]
    assert isinstance(doc["images"][0]["bytes"], bytes)  # decode=False: nothing decoded yet


def test_chat_messages_interleave_and_simple_path_keeps_order(i3_docs: datasets.Dataset) -> None:
    doc = i3_docs[3]
    sample = Sample.from_record(doc)
    (turn,) = docs.doc_to_messages(doc)
    assert turn["role"] == "user"
    kinds = [part["type"] for part in turn["content"]]
    assert kinds == ["image" if k == "image" else "text" for k, v in sample.prompt if k == "image" or v]
    images = [part["url"] for part in turn["content"] if part["type"] == "image"]
    assert all(isinstance(im, Image.Image) for im in images) and len(images) == 12
    expected = [imgs.decode(sample.images[k]).tobytes() for k in sample.image_order()]
    assert [im.tobytes() for im in images] == expected
    assert [im.tobytes() for im in docs.doc_to_visual(doc)] == expected
    text = docs.doc_to_text(doc, {"pre_prompt": "PRE ", "post_prompt": " POST"})
    assert (
        text.startswith("PRE Task:") and text.endswith(" POST") and "<IMAGE_" not in text and "<ADDITIONAL_" not in text
    )


def test_process_results_and_aggregations(i3_docs: datasets.Dataset) -> None:
    rows = []
    for doc in i3_docs:
        answer = baselines.oracle(Sample.from_record(doc))
        if doc["item"] == i3_docs[0]["item"] and not rows:
            answer = "no idea"  # one wrong, unparseable row sinks its whole item
        out = docs.process_results(doc, [answer])
        assert set(out) == set(task_metrics("visfactor", "I3"))
        assert set(out) == {"accuracy", "lenient", "items", "unparsed_rows", "failed_requests", "row_score"}
        rows.append(out["accuracy"])
    assert docs.accuracy(rows) == 0.5 and docs.items(rows) == 2 and docs.unparsed_rows(rows) == 1
    assert docs.failed_requests(rows) == 0 and docs.total([1, 2, 3], [5, 5, 5]) == 6


def test_undecodable_image_at_request_time_names_source(i3_docs: datasets.Dataset) -> None:
    doc = dict(i3_docs[0])
    doc["images"] = [{"bytes": b"\xff\xd8garbage", "path": None}] + doc["images"][1:]
    with pytest.raises(DataError) as err:
        docs.doc_to_visual(doc)
    assert err.value.file.endswith("test.parquet") and err.value.field == "image[0]"
