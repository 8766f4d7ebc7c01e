"""Parametric VisFactor generators: unlimited, seeded, verified items for 12 subtests.

Each generator module defines a config dataclass (validated, with ``easy``/``normal``/
``hard`` presets), ``generate(seed, index, config) -> GeneratedItem`` and an
independent ``verify(item) -> list[str]`` that re-derives every row's answer from the
stored scene by a different method. ``visfactor.generated.generator(subtest)`` gives a subtest's module.
"""
