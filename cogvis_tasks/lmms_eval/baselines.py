"""``cogvis_oracle`` and ``cogvis_random`` as lmms-eval models.

They read the request's doc from the task dict (lmms-eval passes task, split and
doc id with every request) and answer through the core baselines. Model args:
``seed=N`` for the guesser (default: the package's documented default seed).

Under a multi-process launch (``accelerate launch --num_processes N -m lmms_eval``)
lmms-eval splits the docs over ranks and gathers the results; it reads the model's
``rank``, ``world_size``, ``accelerator`` and ``device`` for that, as for its own
API models. The answers do not depend on the rank, so the scores equal a
single-process run.
"""

from __future__ import annotations

from typing import Any

from accelerate import Accelerator
from lmms_eval.api.model import lmms

from ..core import baselines
from ..core.rng import DEFAULT_SEED
from ..core.sample import Sample


class _Baseline(lmms):
    is_simple = True

    def __init__(self, seed: int | str = DEFAULT_SEED, **kwargs: Any) -> None:
        super().__init__()
        self.seed = int(seed)
        # lmms-eval's rank/world-size contract: one Accelerator per process (one process without a launcher).
        # These models need no GPU: on CPU the ranks meet over gloo, under any launcher.
        self.accelerator = Accelerator(cpu=True)
        self._rank = self.accelerator.process_index
        self._world_size = self.accelerator.num_processes
        self.device = self.accelerator.device

    def _answer(self, sample: Sample) -> str:
        raise NotImplementedError

    def generate_until(self, requests: list[Any]) -> list[str]:
        out = []
        for req in requests:
            doc_id, task, split = req.args[-3:]
            doc = self.task_dict[task][split][doc_id]
            out.append(self._answer(Sample.from_record(doc)))
        return out

    def loglikelihood(self, requests: list[Any]) -> list[tuple[float, bool]]:
        raise NotImplementedError("cogvis baselines only answer generation tasks")

    def generate_until_multi_round(self, requests: list[Any]) -> list[str]:
        raise NotImplementedError("cogvis baselines only answer single-turn tasks")


class OracleModel(_Baseline):
    """Answers every row correctly in the format its prompt asks for."""

    def _answer(self, sample: Sample) -> str:
        return baselines.oracle(sample)


class RandomModel(_Baseline):
    """Seeded uniform guess over each row's answer space (expected score = chance)."""

    def _answer(self, sample: Sample) -> str:
        return baselines.guess(sample, self.seed)
