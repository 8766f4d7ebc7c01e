"""Our layer over lmms-eval's response cache, on lmms-eval's own ``ResponseCache`` (fast; the CLI runs are in
test_harness_cache.py).

A key must change with the item (images, answer, metadata) even when the prompt text
is the same, stay the same for the same item, and stay the stock key for docs that
are not ours; a failed-request marker served from the cache must be announced.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("lmms_eval")

from lmms_eval.api.instance import Instance  # noqa: E402
from lmms_eval.caching import response_cache as rc  # noqa: E402

from cogvis_tasks.core.identity import record_digest  # noqa: E402
from cogvis_tasks.core.sample import Sample  # noqa: E402
from cogvis_tasks.lmms_eval import cache, docs  # noqa: E402
from cogvis_tasks.lmms_eval.compat import TASKS_DIR  # noqa: E402

FAILED = "[LMMS_EVAL_REQUEST_FAILED after 1 retries] boom"


def _record(
    image: bytes = b"\x89PNG-a", answer: str = "A", source: str = "/data/a/x.tsv", **meta: Any
) -> dict[str, Any]:
    sample = Sample("CF1/0/0", "visfactor", "CF1", "CF1/0", (("text", "Same text for every item. "), ("image", 0)), (image,), answer,
                    {"source": source, "row": 3, **meta})  # fmt: skip
    return sample.to_record()


def test_digest_follows_the_item_not_its_location() -> None:
    base = record_digest(_record())
    assert record_digest(_record()) == base
    assert record_digest(_record(source="/elsewhere/copy.tsv")) == base
    assert record_digest(_record(image=b"\x89PNG-b")) != base
    assert record_digest(_record(answer="B")) != base
    assert record_digest(_record(seed=2)) != base


def test_every_task_yaml_builds_docs_the_cache_layer_recognises() -> None:
    assert set(docs.FEATURES) == cache.DOC_KEYS
    templates = {p.name: p.read_text() for p in TASKS_DIR.glob("*/_*template_yaml")}
    assert templates and all(
        "process_docs: !function cogvis_tasks.lmms_eval.docs.process_docs" in t for t in templates.values()
    )
    tasks = 0
    for path in TASKS_DIR.glob("*/*.yaml"):
        text = path.read_text()
        if re.search(r"^task: \S", text, re.M):  # a task (groups list their tasks)
            tasks += 1
            include = re.search(r"^include: (\S+)", text, re.M)
            assert include and include.group(1) in templates, path
    assert tasks > 100


def _instance(task: str, doc_id: int, text: str = "Same text for every item. ") -> Instance:
    args = (text, docs.doc_to_messages, {"max_new_tokens": 8, "temperature": 0}, doc_id, task, "test")
    return Instance("generate_until", args, 0, metadata={"task": task, "doc_id": doc_id, "repeats": 1})


class _Model:
    """Answers through a script; lmms-eval hands the cache the model and its task dict."""

    def __init__(self, task_dict: dict[str, Any], answers: list[str]) -> None:
        self.task_dict, self.answers, self.calls = task_dict, answers, 0

    def generate_until(self, requests: list[Instance]) -> list[str]:
        self.calls += len(requests)
        return [self.answers[r.doc_id] for r in requests]


@pytest.fixture
def response_cache(tmp_path: Path) -> Any:
    assert cache.install()
    made: list[Any] = []

    def create(task_dict: dict[str, Any]) -> Any:
        made.append(rc.ResponseCache.create(str(tmp_path / "c"), model="m", model_args="", task_dict=task_dict))
        return made[-1]

    yield create
    for c in made:
        c.close()


def test_same_text_other_item_misses_same_item_hits(response_cache: Any) -> None:
    one = {"t": {"test": [_record(), _record(image=b"\x89PNG-b")]}}  # two items, one prompt text
    lm = _Model(one, ["first", "second"])
    c = response_cache({})
    assert c.execute(lm, "generate_until", [_instance("t", 0), _instance("t", 1)]) == ["first", "second"]
    assert lm.calls == 2
    assert c.execute(lm, "generate_until", [_instance("t", 0), _instance("t", 1)]) == ["first", "second"]
    assert lm.calls == 2  # same items: served from the cache
    other = _Model({"t": {"test": [_record(answer="C"), _record(image=b"\x89PNG-c")]}}, ["third", "fourth"])
    assert c.execute(other, "generate_until", [_instance("t", 0), _instance("t", 1)]) == ["third", "fourth"]
    assert other.calls == 2  # other items at the same positions: not served another item's answer


def test_docs_that_are_not_ours_keep_the_stock_key(response_cache: Any) -> None:
    foreign = {"t": {"test": [{"question": "q", "answer": "A"}]}}
    assert cache.item_digests(foreign, [_instance("t", 0)]) == {}
    ours = {"t": {"test": [_record()]}}
    req = _instance("t", 0)
    assert set(cache.item_digests(ours, [req])) == {id(req)}


def test_a_cached_failure_is_announced(response_cache: Any) -> None:
    task_dict = {"t": {"test": [_record(), _record(image=b"\x89PNG-b")]}}
    c = response_cache({})
    lm = _Model(task_dict, [FAILED, "fine"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the first run serves nothing from the cache: no warning
        c.execute(lm, "generate_until", [_instance("t", 0), _instance("t", 1)])
    with pytest.warns(RuntimeWarning, match=r"served 1 failed-request marker"):
        assert c.execute(lm, "generate_until", [_instance("t", 0), _instance("t", 1)]) == [FAILED, "fine"]
    assert lm.calls == 2  # lmms-eval stored the failure as an answer and served it back
