"""Parametric Mind's Eye generators, one module per task (``<task id lower>.py``) with a verifier beside it."""
