"""Harness-agnostic core: item types, image handling, scoring helpers.

Nothing in ``cogvis_tasks.core`` or the benchmark packages imports lmms-eval or
evalscope; the harness adapters translate core objects and decide nothing.
"""
