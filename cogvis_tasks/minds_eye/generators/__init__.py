"""Parametric Mind's Eye generators, one module per task (``<task id lower>.py``, the generator contract of
``core/generator_contract.py``) with its verifier beside it (``verify_<id>.py``: ``solve(item)`` gives the answer index
from the scene, ``verify(item)`` raises ``VerificationError`` on a mismatch); ``minds_eye.generated.generator(task)`` /
``.verifier(task)`` give them."""
