"""Parametric VisFactor generators: unlimited, seeded, verified items for 12 subtests.

Each ``<subtest id lower>.py`` meets the generator contract (``core/generator_contract.py``): ``ID``, a frozen
``Config`` validated in ``__post_init__``, ``easy``/``normal``/``hard`` ``PRESETS``, ``DEFAULT_ITEMS`` (the released
size) and ``generate(seed, index, config) -> GeneratedItem``. Beside it ``verify_<id>.py`` re-derives every row's
answer from the stored scene by a different method (``solve(item) -> list[str]``; ``verify(item)`` raises
``VerificationError`` on a mismatch). ``visfactor.generated.generator(subtest)`` / ``.verifier(subtest)`` give them.
"""
