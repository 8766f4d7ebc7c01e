"""Seeded randomness: one independent generator per (seed, purpose, key).

Deriving the stream from a hash of all parts (never ``seed + index``) keeps
item 17 of seed 42 unrelated to item 16 of seed 43, and makes every draw
independent of how many other items are produced.
"""

from __future__ import annotations

import hashlib
import random

DEFAULT_SEED = 1234


def rng_for(seed: int, *keys: object) -> random.Random:
    digest = hashlib.sha256(repr((int(seed),) + tuple(str(k) for k in keys)).encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))
