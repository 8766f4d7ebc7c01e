"""Our items' identity in lmms-eval's response cache (``--use_cache``), and a warning for cached failures.

lmms-eval 0.7 keys a cached response on the task config, the doc's position, the
generation settings and a hash of the request's leading text (the prompt text).
That is not enough for our tasks: many prompts are the same text for every item
(the item is in the images), generated sets take their seed and size from
``COGVIS_GEN_SEED`` / ``COGVIS_GEN_ITEMS`` and every task its data from
``COGVIS_DATA_DIR``, none of which is in the task config. So one item's answer
was served to another. This layer adds the item's digest
(``core.identity.record_digest``: prompt, images, answer, metadata) to the hash
lmms-eval computes from the request text, for our docs only; the prompt the
model sees is unchanged, and other tasks' keys are exactly the stock ones.

lmms-eval also stores failed-request markers (``[LMMS_EVAL_REQUEST_FAILED ...``)
as answers, so a resumed run keeps old failures: when the cache serves one for
our tasks, a warning says how many and what to do.
"""

from __future__ import annotations

import contextvars
import hashlib
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import registry
from ..core.aggregate import request_failed
from ..core.identity import record_digest

#: Keys of a doc built by ``docs.process_docs`` (``docs.FEATURES``): how our docs are recognised.
DOC_KEYS = frozenset({"id", "benchmark", "subtest", "item", "answer", "prompt", "images", "metadata"})
_MARK = "_cogvis_item_identity"
#: id(request) -> item digest, for the requests of the ``execute`` call in progress.
_ITEMS: contextvars.ContextVar[Mapping[int, str] | None] = contextvars.ContextVar("cogvis_cache_items", default=None)


def install() -> bool:
    """Wrap lmms-eval's response cache once; False (with a warning) when its internals are not the checked ones."""
    try:
        from lmms_eval.caching import response_cache as rc
    except ImportError:
        return False
    execute = rc.ResponseCache.execute
    if getattr(execute, _MARK, False):
        return True
    content_hash = getattr(rc, "_extract_content_hash", None)
    if content_hash is None:
        warnings.warn(
            "cogvis_tasks: lmms-eval's response cache has no _extract_content_hash; --use_cache may serve one "
            "cogvis item's answer to another: do not reuse a cache across seeds or data copies",
            RuntimeWarning,
            stacklevel=2,
        )
        return False

    def item_content_hash(instance: Any) -> str:
        base = content_hash(instance)
        item = (_ITEMS.get() or {}).get(id(instance))
        return base if item is None else hashlib.sha256(f"{base}\0cogvis-item\0{item}".encode()).hexdigest()[:16]

    def execute_with_items(self: Any, lm: Any, reqtype: str, requests: list[Any]) -> list[Any]:
        items = item_digests(getattr(lm, "task_dict", None) or {}, requests)
        token = _ITEMS.set(items)
        served: list[Any] = []
        lookup = getattr(self, "_lookup", None)
        if lookup is not None:
            self._lookup = _watched(lookup, served)  # the cache's own lookup, seen on this instance only
        try:
            return execute(self, lm, reqtype, requests)
        finally:
            if lookup is not None:
                del self._lookup
            _ITEMS.reset(token)
            if items:
                _warn_cached_failures(served)

    setattr(execute_with_items, _MARK, True)
    rc._extract_content_hash = item_content_hash
    rc.ResponseCache.execute = execute_with_items
    return True


def _watched(lookup: Callable[[str], Any], served: list[Any]) -> Callable[[str], Any]:
    """``lookup`` that also appends each value it finds to ``served``."""

    def watched_lookup(key: str) -> Any:
        value = lookup(key)
        if value is not None:
            served.append(value)
        return value

    return watched_lookup


def is_our_doc(doc: Any) -> bool:
    return isinstance(doc, Mapping) and DOC_KEYS <= doc.keys() and doc.get("benchmark") in registry.names()


def item_digests(task_dict: Mapping[str, Any], requests: Sequence[Any]) -> dict[int, str]:
    """Digest of each request's doc, for requests whose doc is one of ours (others keep the stock key)."""
    out: dict[int, str] = {}
    by_doc: dict[tuple[str, str, int], str | None] = {}
    for req in requests:
        args: Sequence[Any] = getattr(req, "args", ())
        if len(args) < 3:
            continue
        doc_id, task, split = args[-3:]
        key = (str(task), str(split), doc_id)
        if key not in by_doc:
            try:
                doc = task_dict[task][split][doc_id]
            except (KeyError, IndexError, TypeError):
                doc = None
            by_doc[key] = record_digest(doc) if is_our_doc(doc) else None
        digest = by_doc[key]
        if digest is not None:
            out[id(req)] = digest
    return out


def _warn_cached_failures(served: Sequence[Any]) -> None:
    failed = sum(isinstance(v, str) and request_failed(v) for v in served)
    if failed:
        warnings.warn(
            f"cogvis_tasks: lmms-eval's response cache served {failed} failed-request marker(s) "
            "([LMMS_EVAL_REQUEST_FAILED ...]) as answers; they are counted as failed_requests again. "
            "To retry them, run without --use_cache or with a new cache directory.",
            RuntimeWarning,
            stacklevel=2,
        )
