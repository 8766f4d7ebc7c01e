"""Tests for the OpenAI stub server itself, driven by the real ``openai`` client.

Why: other integration tests trust the stub to behave like an OpenAI-compatible
endpoint.  If the stub drifts from what the client expects, those tests would
fail (or pass) for the wrong reasons, so pin its behaviour here.
"""

from __future__ import annotations

import base64
import http.client
import io
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from helpers.openai_stub import (  # tests/ is on sys.path (pytest rootdir conftest)
    Delay,
    Drop,
    Fail,
    Garbage,
    NullContent,
    StubServer,
    count_tokens,
    decode_data_url_image,
    letter_reply,
    message_parts,
    truncate_tokens,
    verdict_reply,
)
from PIL import Image

MODEL = "stub-model"


@pytest.fixture
def stub() -> Iterator[StubServer]:
    with StubServer() as server:
        yield server


def make_client(stub: StubServer, timeout: float = 5) -> openai.OpenAI:
    return openai.OpenAI(base_url=stub.url, api_key="EMPTY", max_retries=0, timeout=timeout)


def ask(client: openai.OpenAI, content: Any = "hi", **kwargs: Any) -> Any:
    return client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": content}], **kwargs)


def png_data_url(image: Image.Image) -> str:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def raw_post(url: str, data: bytes) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_text_round_trip(stub: StubServer) -> None:
    stub.responder = lambda body: "The answer is B."
    response = ask(make_client(stub), "Which option?")

    assert response.object == "chat.completion"
    assert response.choices[0].message.role == "assistant"
    assert response.choices[0].message.content == "The answer is B."
    assert response.choices[0].finish_reason == "stop"
    assert response.usage is not None
    assert response.usage.total_tokens == (response.usage.prompt_tokens + response.usage.completion_tokens)
    assert len(stub.requests) == 1
    assert stub.requests[0].path == "/v1/chat/completions"
    assert message_parts(stub.requests[0]) == [("text", "Which option?")]


def test_default_responder_answers_ok(stub: StubServer) -> None:
    assert ask(make_client(stub)).choices[0].message.content == "ok"


def test_image_parts_recorded_in_order(stub: StubServer) -> None:
    image = Image.new("RGB", (7, 5), (255, 0, 0))
    url = png_data_url(image)
    content = [
        {"type": "text", "text": "Look at this:"},
        {"type": "image_url", "image_url": {"url": url}},
        {"type": "text", "text": "What colour is it?"},
    ]
    ask(make_client(stub), content)

    parts = message_parts(stub.requests[-1])
    assert [kind for kind, _ in parts] == ["text", "image", "text"]
    assert parts[0] == ("text", "Look at this:")
    assert parts[2] == ("text", "What colour is it?")
    decoded = decode_data_url_image(parts[1][1])
    assert decoded.size == (7, 5)
    assert decoded.convert("RGB").getpixel((3, 2)) == (255, 0, 0)


def test_message_parts_accepts_string_image_url_and_system_messages() -> None:
    body = {
        "messages": [
            {"role": "system", "content": "sys"},
            {
                "role": "user",
                "content": [{"type": "image_url", "image_url": "http://x/y.png"}],
            },
            {"role": "assistant", "content": None},
        ]
    }
    assert message_parts(body) == [("text", "sys"), ("image", "http://x/y.png")]


def test_decode_data_url_image_rejects_non_data_urls() -> None:
    with pytest.raises(ValueError):
        decode_data_url_image("http://example.com/a.png")


def test_fail_maps_to_client_status_errors(stub: StubServer) -> None:
    client = make_client(stub)
    stub.responder = lambda body: Fail(message="boom")
    with pytest.raises(openai.InternalServerError) as info:
        ask(client)
    assert info.value.status_code == 500
    assert "boom" in str(info.value)

    stub.responder = lambda body: Fail(status=429, message="slow down")
    with pytest.raises(openai.RateLimitError):
        ask(client)


def test_delay_then_answer(stub: StubServer) -> None:
    stub.responder = lambda body: Delay(0.2, then="late")
    start = time.monotonic()
    assert ask(make_client(stub)).choices[0].message.content == "late"
    assert time.monotonic() - start >= 0.2


def test_delay_past_client_timeout_and_prompt_stop() -> None:
    stub = StubServer(responder=lambda body: Delay(60, then="never"))
    with stub:
        with pytest.raises(openai.APITimeoutError):
            ask(make_client(stub, timeout=0.5))
        start = time.monotonic()
        stub.stop()  # the 60 s Delay is still sleeping in its handler thread
        assert time.monotonic() - start < 2
    # __exit__ after an explicit stop() must be a harmless no-op.


def test_streaming(stub: StubServer) -> None:
    text = "  The answer,\nis  (C). "
    stub.responder = lambda body: text
    stream = ask(make_client(stub), stream=True, stream_options={"include_usage": True})
    chunks = list(stream)

    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert content == text
    finish = [c.choices[0].finish_reason for c in chunks if c.choices]
    assert finish[-1] == "stop"
    assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens > 0
    assert all(c.model == MODEL for c in chunks)
    assert stub.requests[-1]["stream"] is True


def test_responder_sees_model_name(stub: StubServer) -> None:
    seen: list[str] = []

    def responder(body: dict[str, Any]) -> str:
        seen.append(body["model"])
        return f"model={body['model']}"

    stub.responder = responder
    response = ask(make_client(stub))
    assert seen == [MODEL]
    assert response.model == MODEL
    assert response.choices[0].message.content == f"model={MODEL}"


def test_models_lists_seen_models_and_stub(stub: StubServer) -> None:
    client = make_client(stub)
    ask(client)
    assert {m.id for m in client.models.list()} == {MODEL, "stub"}


def test_garbage_and_drop_surface_as_client_errors(stub: StubServer) -> None:
    client = make_client(stub)
    stub.responder = lambda body: Garbage(b"{not json")
    # openai 1.x lets the JSONDecodeError (a ValueError) escape unwrapped.
    with pytest.raises((ValueError, openai.APIError)):
        ask(client)

    stub.responder = lambda body: Drop()
    with pytest.raises(openai.APIConnectionError):
        ask(client)


def test_responder_exception_becomes_500_and_is_recorded(stub: StubServer) -> None:
    def responder(body: dict[str, Any]) -> str:
        raise KeyError("missing")

    stub.responder = responder
    with pytest.raises(openai.InternalServerError):
        ask(make_client(stub))
    assert len(stub.responder_errors) == 1
    assert isinstance(stub.responder_errors[0], KeyError)


def test_unversioned_chat_path_is_accepted(stub: StubServer) -> None:
    base = stub.url.removesuffix("/v1")
    status, body = raw_post(
        base + "/chat/completions",
        json.dumps({"model": "m", "messages": [{"role": "user", "content": "x"}]}).encode(),
    )
    assert status == 200
    assert body["choices"][0]["message"]["content"] == "ok"
    assert stub.requests[-1].path == "/chat/completions"


def test_malformed_json_is_400(stub: StubServer) -> None:
    status, body = raw_post(stub.url + "/chat/completions", b"{oops")
    assert status == 400
    assert "error" in body
    assert stub.requests == []


def test_unknown_path_is_404_json(stub: StubServer) -> None:
    status, body = raw_post(stub.url + "/embeddings", b"{}")
    assert status == 404
    assert body["error"]["code"] == "not_found"
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(stub.url + "/nope", timeout=5)
    assert info.value.code == 404
    assert "error" in json.loads(info.value.read())


def test_oversized_body_is_rejected_without_reading_it(stub: StubServer) -> None:
    host, port = stub.url.removeprefix("http://").removesuffix("/v1").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        conn.putrequest("POST", "/v1/chat/completions")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(64 * 1024 * 1024 + 1))
        conn.endheaders()
        response = conn.getresponse()
        assert response.status == 413
        assert "error" in json.loads(response.read())
    finally:
        conn.close()


# --- behaving like a chat model that serves as a judge -------------------------------------------


def test_max_tokens_cuts_the_reply_and_reports_length(stub: StubServer) -> None:
    text = verdict_reply(1, "fenced")
    stub.responder = lambda body: text
    client = make_client(stub)
    cut = ask(client, max_tokens=8).choices[0]
    assert cut.finish_reason == "length" and cut.message.content == "The model's final answer matches the"
    assert count_tokens(cut.message.content) == 8
    full = ask(client, max_tokens=count_tokens(text)).choices[0]
    assert full.finish_reason == "stop" and full.message.content == text
    newer = ask(client, max_completion_tokens=3).choices[0]
    assert newer.finish_reason == "length" and newer.message.content == "The model'"
    streamed = list(ask(client, max_tokens=5, stream=True))
    assert "".join(c.choices[0].delta.content or "" for c in streamed if c.choices) == truncate_tokens(text, 5)
    assert [c.choices[0].finish_reason for c in streamed if c.choices][-1] == "length"


def test_token_count_is_never_below_words_and_marks() -> None:
    assert count_tokens('```json\n{"answer_score": [[1]]}\n```') == 20
    assert count_tokens("a  b\n\n\nc") == 4  # a newline run is one token, spaces none
    assert truncate_tokens("one, two three", 2) == "one,"


def test_latency_delays_every_answer() -> None:
    with StubServer(responder=lambda body: "ok", latency=0.3) as stub:
        start = time.monotonic()
        assert ask(make_client(stub)).choices[0].message.content == "ok"
        assert time.monotonic() - start >= 0.3


@pytest.mark.parametrize("style", ["bare", "fenced", "think"])
def test_judge_replies_read_back(style: str) -> None:
    from cogvis_tasks.minds_eye.judge import parse_reply
    from cogvis_tasks.mme_cc.scoring import parse_judge

    assert parse_judge(verdict_reply(1, style)) is True and parse_judge(verdict_reply(0, style)) is False
    assert parse_reply(letter_reply("C", style), "ABCD") == "C"
    if style == "think":  # the reasoning leans the other way: only the answer after it counts
        assert "[[0]]" in verdict_reply(1, style).split("</think>")[0]


def test_null_content(stub: StubServer) -> None:
    stub.responder = lambda body: NullContent()
    choice = ask(make_client(stub)).choices[0]
    assert choice.message.content is None and choice.finish_reason == "stop"
