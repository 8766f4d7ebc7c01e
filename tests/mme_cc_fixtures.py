"""The MME-CC release fixture: the package's synthetic release (one source of truth)."""

from cogvis_tasks.mme_cc.synthetic import REFERENCES, png, write_release  # noqa: F401
