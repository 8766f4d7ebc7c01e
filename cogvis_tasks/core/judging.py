"""What both harness adapters share about LLM judges: the token budget, concurrency, and reply cleaning.

Real judges write before they answer (a sentence, a ``<think>`` block, a fenced
JSON verdict), so a judge reply is never capped at a handful of tokens: the
default budget is ``DEFAULT_MAX_TOKENS`` new tokens, and a reply the server cut at
its budget (``finish_reason: length``) is a judge error, never parsed. Judge calls
are independent, so the adapters run them concurrently (``DEFAULT_CONCURRENCY`` in
flight) and match each result to its own sample, so scores and logs do not depend
on which call finished first.
"""

from __future__ import annotations

import os
import re

#: New tokens a judge may write (the official prompt asks for prose plus a fenced JSON verdict).
DEFAULT_MAX_TOKENS = 1024
#: Judge calls in flight at once.
DEFAULT_CONCURRENCY = 16
ENV_MAX_TOKENS = "COGVIS_JUDGE_MAX_TOKENS"
ENV_CONCURRENCY = "COGVIS_JUDGE_CONCURRENCY"


class JudgeReplyCut(RuntimeError):
    """The judge server stopped the reply at its token budget: what is there may lack the verdict."""


def _positive_int(value: object, name: str) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise ValueError(f"{name} must be a positive integer, got {value!r}") from None
    if number < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return number


def max_tokens(configured: object | None = None) -> int:
    """The judge's token budget: ``configured`` (the harness's own judge setting), else the env var, else the default."""
    if configured is not None:
        return _positive_int(configured, "judge max_tokens")
    return _positive_int(os.environ.get(ENV_MAX_TOKENS, DEFAULT_MAX_TOKENS), ENV_MAX_TOKENS)


def concurrency(configured: object | None = None) -> int:
    """Judge calls in flight: ``configured``, else the env var, else the default."""
    if configured is not None:
        return _positive_int(configured, "judge concurrency")
    return _positive_int(os.environ.get(ENV_CONCURRENCY, DEFAULT_CONCURRENCY), ENV_CONCURRENCY)


def check_finish(finish_reason: object) -> None:
    """Raise ``JudgeReplyCut`` when the server says the reply hit its token budget."""
    if str(finish_reason or "").lower() in ("length", "max_tokens", "model_length"):
        raise JudgeReplyCut("judge reply cut at its token budget (finish_reason=length); raise the judge max_tokens")


_THINK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_OPEN = re.compile(r"<(?:think|thinking|reasoning)>", re.IGNORECASE)
_CLOSE = re.compile(r"</(?:think|thinking|reasoning)>", re.IGNORECASE)


def answer_part(reply: str) -> str:
    """The reply without its reasoning: ``<think>...</think>`` blocks removed, anything before a
    closing tag whose opening the server dropped, and everything after an unclosed opening tag
    (reasoning that never finished holds no answer)."""
    text = _THINK.sub("\n", reply)
    closes = list(_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end() :]
    opened = _OPEN.search(text)
    return text[: opened.start()] if opened else text
