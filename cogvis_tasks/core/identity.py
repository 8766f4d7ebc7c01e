"""What makes an item itself: a digest of a sample record, for harness caches.

Harness caches key a response on the task, the row's position and (lmms-eval) the
prompt text. Many of our prompts are the same text for every item (the item is
in the images), and generated sets take their seed and size from outside the
task config, so a cache must also carry this digest or it serves one item's
answer to another. It covers every field a response or its score depends on:
the prompt, the image bytes, the reference answer and the metadata, but not
where the data file lives (a copy of the same items elsewhere is the same items).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .sample import _image_bytes, record_metadata

#: Metadata keys that say where an item was read from, not what it is.
LOCATION_KEYS = frozenset({"source"})


def record_digest(record: Mapping[str, Any]) -> str:
    """Hex SHA-256 over a record's answer-relevant fields and its image bytes (``Sample.to_record`` layout)."""
    meta = {k: v for k, v in record_metadata(record).items() if k not in LOCATION_KEYS}
    fields = [str(record[k]) for k in ("id", "benchmark", "subtest", "item", "answer", "prompt")]
    digest = hashlib.sha256(json.dumps([fields, meta], sort_keys=True, ensure_ascii=False).encode())
    for image in record.get("images") or []:
        data = _image_bytes(image)
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()
