"""``cogvis_oracle`` and ``cogvis_random`` as evalscope model APIs.

evalscope passes a model only the chat messages, so the adapter puts the sample
(without images) on the user message's metadata, which evalscope never sends to
a real API. Reachable from Python as ``eval_type='cogvis_oracle'`` or
``'cogvis_random'``; from the CLI, whose ``--eval-type`` choices are fixed, as
``--eval-type custom --model cogvis_oracle`` (``custom`` has no model API of its
own in evalscope 1.14; we only claim it when it is free).
"""

from __future__ import annotations

import warnings
from typing import Any, Optional

from evalscope.api.messages import ChatMessage
from evalscope.api.model import GenerateConfig, ModelAPI, ModelOutput
from evalscope.api.registry import MODEL_APIS, register_model_api

from ..core import baselines
from ..core.rng import DEFAULT_SEED
from .adapter import MESSAGE_KEY, carried_sample


class BaselineAPI(ModelAPI):
    """Answers from the carried sample; ``kind`` is fixed by subclasses or taken from the model name."""

    kind: Optional[str] = None  # "cogvis_oracle" or "cogvis_random"

    def __init__(
        self,
        model_name: str,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        config: GenerateConfig = GenerateConfig(),
        seed: int = DEFAULT_SEED,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, config)
        self.seed = int(seed)
        self.baseline = self.kind or model_name
        if self.baseline not in KINDS:
            raise ValueError(
                f"--eval-type custom serves the cogvis baselines; --model must be one of {KINDS}, not {model_name!r}"
            )

    def generate(self, input: list[ChatMessage], tools: Any, tool_choice: Any, config: GenerateConfig) -> ModelOutput:
        meta = next((m.metadata for m in input if m.role == "user" and m.metadata and MESSAGE_KEY in m.metadata), None)
        if meta is None:
            raise ValueError(
                f"{self.model_name}: the request carries no cogvis sample; baselines only answer cogvis benchmarks"
            )
        sample = carried_sample(meta)
        answer = baselines.oracle(sample) if self.baseline == "cogvis_oracle" else baselines.guess(sample, self.seed)
        return ModelOutput.from_content(model=self.model_name, content=answer)


class OracleAPI(BaselineAPI):
    kind = "cogvis_oracle"


class RandomAPI(BaselineAPI):
    kind = "cogvis_random"


KINDS = ("cogvis_oracle", "cogvis_random")


def register() -> None:
    for cls in (OracleAPI, RandomAPI):
        if cls.kind not in MODEL_APIS:
            register_model_api(cls.kind)(cls)
    if "custom" not in MODEL_APIS:
        register_model_api("custom")(BaselineAPI)
    elif MODEL_APIS["custom"] is not BaselineAPI:
        warnings.warn(
            "cogvis_tasks: evalscope already has a 'custom' model API; use eval_type='cogvis_oracle' from Python",
            stacklevel=2,
        )
