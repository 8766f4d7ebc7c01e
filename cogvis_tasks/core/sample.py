"""The one sample type every benchmark produces and every harness consumes.

A sample is one request to a model: an interleaved prompt (text and image slots
in the order the benchmark presents them), the reference answer, and metadata
with the grouping keys used for aggregation. ``item`` names the unit of credit:
samples that share an item are scored together (VisFactor credits an item only
when all its rows are right; for single-row benchmarks item == id).

``to_record``/``from_record`` give the flat, Arrow-friendly dict that lmms-eval
keeps as its doc and evalscope receives as its record, so both harnesses carry
exactly the same data.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Union

#: One prompt element: ("text", str) or ("image", index into Sample.images).
Part = tuple[str, Union[str, int]]


@dataclass(frozen=True)
class Sample:
    id: str
    benchmark: str
    subtest: str
    item: str
    prompt: tuple[Part, ...]
    images: tuple[bytes, ...]
    answer: str
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def parts(self) -> Iterator[tuple[str, Union[str, bytes]]]:
        """Prompt elements in order, images as their encoded bytes."""
        for kind, value in self.prompt:
            if kind == "image":
                yield "image", self.images[int(value)]
            else:
                yield "text", str(value)

    def text(self) -> str:
        """The prompt text with image slots removed (for back ends that take images separately)."""
        return "".join(str(v) for k, v in self.prompt if k == "text")

    def image_order(self) -> list[int]:
        """Image indices in the order the prompt shows them."""
        return [int(v) for k, v in self.prompt if k == "image"]

    def to_record(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "benchmark": self.benchmark,
            "subtest": self.subtest,
            "item": self.item,
            "answer": self.answer,
            "prompt": json.dumps([list(p) for p in self.prompt], ensure_ascii=False),
            "images": [{"bytes": b, "path": None} for b in self.images],
            "metadata": json.dumps(dict(self.metadata), ensure_ascii=False, sort_keys=True),
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Sample:
        images = record.get("images") or []
        return cls(
            id=str(record["id"]),
            benchmark=str(record["benchmark"]),
            subtest=str(record["subtest"]),
            item=str(record["item"]),
            prompt=tuple((str(k), v) for k, v in json.loads(record["prompt"])),
            images=tuple(_image_bytes(img) for img in images),
            answer=str(record["answer"]),
            metadata=json.loads(record["metadata"]) if isinstance(record["metadata"], str) else record["metadata"],
        )


def record_metadata(record: Mapping[str, Any]) -> dict[str, Any]:
    """The metadata of a record without materialising its images."""
    meta = record["metadata"]
    return json.loads(meta) if isinstance(meta, str) else dict(meta)


def _image_bytes(img: Any) -> bytes:
    if isinstance(img, (bytes, bytearray)):
        return bytes(img)
    if isinstance(img, Mapping) and img.get("bytes") is not None:
        return bytes(img["bytes"])
    raise TypeError(f"record image must be bytes or {{'bytes': ...}}, got {type(img).__name__}")
