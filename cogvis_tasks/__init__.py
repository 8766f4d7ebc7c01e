"""cogvis_tasks: cognitive-vision benchmarks as plugins for lmms-eval and evalscope.

Kept import-free: the evalscope ``.pth`` hook imports this package in every
interpreter start.
"""

__version__ = "0.1.0"
