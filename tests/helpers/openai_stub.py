"""A tiny, stdlib-only OpenAI-compatible chat-completions server for tests.

Why this exists: integration tests must exercise the real HTTP path of the
``openai`` client (request encoding, image parts, streaming, error mapping,
timeouts) without network access, API keys or a model.  A real socket server
on an ephemeral port gives exactly that while staying deterministic: the test
decides every answer through a ``responder`` callable and can inspect every
request afterwards.

Usage::

    with StubServer(responder=lambda body: "B") as stub:
        client = openai.OpenAI(base_url=stub.url, api_key="EMPTY", max_retries=0)
        ...
        assert message_parts(stub.requests[-1])[0] == ("text", "question")

It can also behave like a chat model serving as a judge: it honours
``max_tokens`` / ``max_completion_tokens`` by cutting the reply (a word, a
punctuation mark or a run of newlines is one token each, so it never allows more
text than a real tokenizer would for ordinary prose) and reporting
``finish_reason: "length"``; ``latency`` delays every chat answer; and
``verdict_reply`` / ``letter_reply`` write replies the way chat judges do (a
preamble and a fenced JSON block, a ``<think>`` block first, a refusal).

The server is designed so it can never hang a test: sockets have timeouts,
handler threads are daemons, ``stop()`` does not wait for in-flight handlers
and interrupts any ``Delay`` in progress.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import re
import socketserver
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # Only for annotations: importing this module must need nothing but the stdlib.
    from typing import Self

    from PIL import Image

__all__ = [
    "MAX_BODY_BYTES",
    "count_tokens",
    "letter_reply",
    "token_budget",
    "truncate_tokens",
    "verdict_reply",
    "Delay",
    "Drop",
    "Fail",
    "Garbage",
    "NullContent",
    "RecordedRequest",
    "Reply",
    "Responder",
    "ResponderAction",
    "StubServer",
    "decode_data_url_image",
    "message_parts",
]

#: Largest accepted request body.  Base64 images make real requests big, but a
#: bound keeps a buggy test from exhausting memory.
MAX_BODY_BYTES = 64 * 1024 * 1024

#: Socket timeout for reading requests / writing responses, so a half-open
#: client connection can never block a handler thread forever.
SOCKET_TIMEOUT_S = 10.0

_CHAT_PATHS = frozenset({"/v1/chat/completions", "/chat/completions"})
_MODELS_PATHS = frozenset({"/v1/models", "/models"})


# --------------------------------------------------------------------------- #
# Responder actions
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class Fail:
    """Answer with an HTTP error and an OpenAI-style ``{"error": {...}}`` body.

    The client maps the status to its exception classes (500 ->
    ``InternalServerError``, 400 -> ``BadRequestError``, 429 ->
    ``RateLimitError`` ...), which is what retry/error-handling code sees in
    production.
    """

    status: int = 500
    message: str = "stub failure"


@dataclass(frozen=True)
class Delay:
    """Sleep ``seconds`` and then answer with ``then`` (text or another action).

    Used to provoke client-side timeouts.  The sleep is interrupted when the
    server stops, in which case the connection is simply dropped.
    """

    seconds: float
    then: Reply = "ok"


@dataclass(frozen=True)
class Garbage:
    """Answer 200 with a body that is not valid JSON (declared as JSON).

    Simulates a broken proxy or gateway in front of the model server.
    """

    raw: bytes = b"<html>this is not json</html>"


@dataclass(frozen=True)
class Drop:
    """Close the connection without sending any response bytes.

    Simulates a crashed server or a reset connection.
    """


@dataclass(frozen=True)
class NullContent:
    """Answer 200 with ``"content": null`` (a model that returned no text, e.g. only a refusal field).

    Harness clients differ here: lmms-eval's chat client passes the ``None`` on, which
    later becomes the string ``"None"``; evalscope's becomes ``""``.
    """


ResponderAction = Fail | Delay | Garbage | Drop | NullContent
#: What a responder may return: the assistant text, or an action.
Reply = str | ResponderAction
#: Test-supplied callable deciding the answer for each chat request body.
Responder = Callable[[dict[str, Any]], Reply]


def _default_responder(body: dict[str, Any]) -> Reply:
    """Answer every request with ``"ok"`` so a bare ``StubServer()`` is usable."""
    return "ok"


class RecordedRequest(dict):  # type: ignore[type-arg]
    """A recorded request body (the parsed JSON dict) that also carries ``path``.

    Subclassing ``dict`` keeps the common case trivial (``req["messages"]``)
    while still letting tests check which endpoint was hit (``req.path``).
    """

    def __init__(self, path: str, body: dict[str, Any]) -> None:
        super().__init__(body)
        self.path = path

    def __repr__(self) -> str:
        return f"RecordedRequest(path={self.path!r}, body={dict.__repr__(self)})"


# --------------------------------------------------------------------------- #
# Server
# --------------------------------------------------------------------------- #


class StubServer:
    """OpenAI-compatible stub server on ``127.0.0.1`` with an ephemeral port.

    Attributes:
        url: Base URL to hand to ``openai.OpenAI(base_url=...)``, ending in ``/v1``.
        requests: Recorded POST bodies (``RecordedRequest``, i.e. dicts with a
            ``.path``), in arrival order.  Appends happen under a lock; reading
            the list from the test thread is safe.
        responder: ``(body) -> str | ResponderAction``; may be reassigned at any time.
        latency: Seconds each chat request waits before its answer (0 by default).
        responder_errors: Exceptions raised by the responder.  Each one is also
            reported to the client as a 500 so the failure is never silent.
        models_seen: Model names seen in POST bodies (served by ``/v1/models``).
    """

    def __init__(self, responder: Responder | None = None, latency: float = 0.0) -> None:
        self.responder: Responder = responder or _default_responder
        #: Seconds every chat answer waits before it is sent (a model's think time); may be reassigned.
        self.latency = latency
        self.requests: list[RecordedRequest] = []
        self.responder_errors: list[BaseException] = []
        self.models_seen: list[str] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _HTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.url = ""

    # -- lifecycle --------------------------------------------------------- #

    def start(self) -> Self:
        """Bind an ephemeral port and serve in a daemon thread."""
        if self._server is not None:
            raise RuntimeError("StubServer already started")
        self._stopping.clear()
        server = _HTTPServer(("127.0.0.1", 0), _Handler)
        server.stub = self
        host, port = server.server_address[:2]
        self.url = f"http://{host}:{port}/v1"
        thread = threading.Thread(
            # A short poll interval makes shutdown() return quickly.
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"openai-stub-{port}",
            daemon=True,
        )
        self._server, self._thread = server, thread
        thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; idempotent and prompt even while a ``Delay`` sleeps.

        In-flight handlers are not awaited (``block_on_close = False``); any
        sleeping ``Delay`` wakes up on ``_stopping`` and drops its connection.
        """
        server, thread = self._server, self._thread
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        server.server_close()
        if thread is not None:
            thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- helpers used by the handler ---------------------------------------- #

    def _record(self, path: str, body: dict[str, Any]) -> RecordedRequest:
        recorded = RecordedRequest(path, body)
        with self._lock:
            self.requests.append(recorded)
            model = body.get("model")
            if isinstance(model, str) and model not in self.models_seen:
                self.models_seen.append(model)
        return recorded

    def _model_names(self) -> list[str]:
        with self._lock:
            names = list(self.models_seen)
        return names + ([] if "stub" in names else ["stub"])

    def _sleep(self, seconds: float) -> bool:
        """Sleep interruptibly; return False if the server is stopping."""
        return not self._stopping.wait(max(0.0, seconds))


class _HTTPServer(ThreadingHTTPServer):
    """Threading server tuned so it can never block test teardown."""

    daemon_threads = True
    block_on_close = False
    stub: StubServer

    def server_bind(self) -> None:
        # HTTPServer.server_bind calls socket.getfqdn(), a reverse DNS lookup
        # that can stall for seconds on badly configured hosts; skip it.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = str(host), int(port)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Client disconnects (e.g. after a client-side timeout) are expected;
        # don't spray tracebacks over the test output.
        pass


class _BadRequest(Exception):
    """Raised while reading a request; carries the HTTP status to answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Handler(BaseHTTPRequestHandler):
    """Routes requests; HTTP/1.0 so each connection carries exactly one request.

    One request per connection means no handler thread lingers on keep-alive
    after the test is done, and streamed bodies end simply at close.
    """

    server: _HTTPServer
    protocol_version = "HTTP/1.0"
    timeout = SOCKET_TIMEOUT_S
    server_version = "openai-stub/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: request logs would only clutter pytest output."""

    # -- routing ----------------------------------------------------------- #

    def do_GET(self) -> None:
        path = self._path()
        if path in _MODELS_PATHS:
            data = [
                {"id": name, "object": "model", "created": 0, "owned_by": "stub"}
                for name in self.server.stub._model_names()
            ]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_error(404, f"Unknown path: GET {path}", code="not_found")

    def do_POST(self) -> None:
        path = self._path()
        try:
            body = self._read_json()
        except _BadRequest as exc:
            self._send_error(exc.status, exc.message)
            return
        stub = self.server.stub
        stub._record(path, body)
        if path not in _CHAT_PATHS:
            self._send_error(404, f"Unknown path: POST {path}", code="not_found")
            return
        try:
            reply = stub.responder(body)
        except Exception as exc:  # noqa: BLE001 - reported to client *and* test
            with stub._lock:
                stub.responder_errors.append(exc)
            self._send_error(500, f"responder raised {type(exc).__name__}: {exc}")
            return
        if stub.latency > 0 and not stub._sleep(stub.latency):
            return  # server stopping: drop the connection
        try:
            self._answer(body, reply)
        except (TimeoutError, BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (e.g. its own timeout); nothing to do

    def _path(self) -> str:
        return self.path.split("?", 1)[0].rstrip("/") or "/"

    # -- request reading ---------------------------------------------------- #

    def _read_json(self) -> dict[str, Any]:
        raw_length = self.headers.get("Content-Length")
        if raw_length is None:
            raise _BadRequest(411, "Content-Length required")
        try:
            length = int(raw_length)
        except ValueError:
            raise _BadRequest(400, f"Invalid Content-Length: {raw_length!r}") from None
        if length < 0:
            raise _BadRequest(400, f"Invalid Content-Length: {raw_length!r}")
        if length > MAX_BODY_BYTES:
            raise _BadRequest(413, f"Request body too large ({length} > {MAX_BODY_BYTES} bytes)")
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            raise _BadRequest(408, "Timed out reading request body") from None
        if len(raw) != length:
            raise _BadRequest(400, "Truncated request body")
        try:
            body = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise _BadRequest(400, f"Malformed JSON body: {exc}") from None
        if not isinstance(body, dict):
            raise _BadRequest(400, "JSON body must be an object")
        return body

    # -- responses ---------------------------------------------------------- #

    def _answer(self, body: dict[str, Any], reply: Reply) -> None:
        while isinstance(reply, Delay):
            if not self.server.stub._sleep(reply.seconds):
                return  # server stopping: drop the connection
            reply = reply.then
        if isinstance(reply, Drop):
            self.close_connection = True
            return  # socketserver closes the socket without a response
        if isinstance(reply, Fail):
            self._send_error(reply.status, reply.message)
        elif isinstance(reply, Garbage):
            self._send_bytes(200, reply.raw, "application/json")
        elif isinstance(reply, NullContent):
            body_out = _completion(body, "")
            body_out["choices"][0]["message"]["content"] = None
            self._send_json(200, body_out)
        elif isinstance(reply, str):
            if body.get("stream"):
                self._send_stream(body, reply)
            else:
                self._send_json(200, _completion(body, reply))
        else:
            self._send_error(500, f"responder returned unsupported {type(reply).__name__}: {reply!r}")

    def _send_bytes(self, status: int, payload: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(payload)

    def _send_json(self, status: int, obj: Any) -> None:
        self._send_bytes(status, json.dumps(obj).encode(), "application/json")

    def _send_error(self, status: int, message: str, code: str | None = None) -> None:
        kind = "server_error" if status >= 500 else "invalid_request_error"
        error = {"message": message, "type": kind, "param": None, "code": code}
        self._send_json(status, {"error": error})

    def _send_stream(self, body: dict[str, Any], text: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for event in _stream_events(body, text):
            self.wfile.write(f"data: {event}\n\n".encode())
            self.wfile.flush()


# --------------------------------------------------------------------------- #
# Response bodies
# --------------------------------------------------------------------------- #


def _rough_tokens(text: str) -> int:
    """Cheap token estimate for prompts (images included); usage only needs to be plausible."""
    return max(1, len(text) // 4) if text else 0


def _usage(body: dict[str, Any], text: str) -> dict[str, int]:
    prompt = _rough_tokens(json.dumps(body.get("messages", [])))
    completion = count_tokens(text)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _envelope(body: dict[str, Any], obj: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-stub-{uuid.uuid4().hex[:24]}",
        "object": obj,
        "created": int(time.time()),
        "model": body.get("model") or "stub",
    }


_TOKEN = re.compile(r"\w+|[^\w\s]|\n+")


def count_tokens(text: str) -> int:
    """Tokens as the stub counts them: each word, each punctuation mark, each run of newlines."""
    return sum(1 for _ in _TOKEN.finditer(text))


def truncate_tokens(text: str, limit: int) -> str:
    """``text`` up to the end of its ``limit``-th token (no trailing whitespace after the cut)."""
    if limit <= 0:
        return ""
    for k, match in enumerate(_TOKEN.finditer(text), start=1):
        if k == limit:
            return text[: match.end()]
    return text


def token_budget(body: dict[str, Any]) -> int | None:
    """The request's new-token budget: ``max_completion_tokens`` (newer clients), else ``max_tokens``."""
    for key in ("max_completion_tokens", "max_tokens"):
        value = body.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _cut(body: dict[str, Any], text: str) -> tuple[str, str]:
    """The reply as a server with this budget sends it, and its finish_reason."""
    budget = token_budget(body)
    if budget is not None and count_tokens(text) > budget:
        return truncate_tokens(text, budget), "length"
    return text, "stop"


def _completion(body: dict[str, Any], text: str) -> dict[str, Any]:
    text, finish = _cut(body, text)
    return {
        **_envelope(body, "chat.completion"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": finish,
                "logprobs": None,
            }
        ],
        "usage": _usage(body, text),
    }


def _stream_events(body: dict[str, Any], text: str) -> Iterator[str]:
    """Yield SSE ``data:`` payloads the way OpenAI streams a completion.

    Role chunk, one chunk per word (with its trailing whitespace, so the
    pieces concatenate back to ``text`` exactly), a final chunk carrying
    ``finish_reason``, an optional usage chunk, then ``[DONE]``.
    """
    env = _envelope(body, "chat.completion.chunk")
    text, finish = _cut(body, text)

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> str:
        choice = {
            "index": 0,
            "delta": delta,
            "finish_reason": finish_reason,
            "logprobs": None,
        }
        return json.dumps({**env, "choices": [choice]})

    yield chunk({"role": "assistant", "content": ""})
    for piece in re.findall(r"\S*\s*", text):
        if piece:
            yield chunk({"content": piece})
    yield chunk({}, finish_reason=finish)
    options = body.get("stream_options")
    if isinstance(options, dict) and options.get("include_usage"):
        yield json.dumps({**env, "choices": [], "usage": _usage(body, text)})
    yield "[DONE]"


# --------------------------------------------------------------------------- #
# Replies written the way chat judges write them
# --------------------------------------------------------------------------- #

#: Styles of ``verdict_reply`` / ``letter_reply``.
JUDGE_STYLES = ("bare", "fenced", "think", "refusal")
REFUSAL = "I'm sorry, but I can't help with grading this answer."


def verdict_reply(score: int, style: str = "fenced") -> str:
    """An MME-CC judge reply for ``score`` (0 or 1).

    ``bare``: the JSON alone. ``fenced``: a sentence, the verdict in a ```json block, a closing
    remark. ``think``: a ``<think>`` block that first leans the other way (with its own score),
    then the fenced verdict. ``refusal``: no verdict at all.
    """
    json_verdict = '{"answer_score": [[' + str(score) + "]]}"
    block = f"```json\n{json_verdict}\n```"
    if style == "bare":
        return json_verdict
    if style == "fenced":
        verdict = "matches" if score else "does not match"
        return f"The model's final answer {verdict} the reference answer in every part.\n\n{block}\n\nThat is my assessment."
    if style == "think":
        leaning = '{"answer_score": [[' + str(1 - score) + "]]}"
        return (
            "<think>\nLet me compare the final answer with the reference, part by part. At first glance I would give "
            f"{leaning}, but I should check the scoring criteria again before deciding.\n</think>\n\n"
            f"Having checked the criteria, here is the verdict.\n{block}"
        )
    if style == "refusal":
        return REFUSAL
    raise ValueError(f"unknown judge style {style!r}; expected one of {JUDGE_STYLES}")


def letter_reply(letter: str, style: str = "fenced") -> str:
    """A letter-extraction judge reply naming ``letter`` (or X): bare, after a sentence, after a ``<think>`` block, or a refusal."""
    if style == "bare":
        return letter
    if style == "fenced":
        return f"The answer discusses several options before it settles on its final choice.\n\nAnswer: {letter}"
    if style == "think":
        other = "B" if letter != "B" else "C"
        thought = f"The text mentions option {other} early on. Answer: {other}? No, its last statement is different."
        return f"<think>\n{thought}\n</think>\n\nAnswer: {letter}"
    if style == "refusal":
        return REFUSAL
    raise ValueError(f"unknown judge style {style!r}; expected one of {JUDGE_STYLES}")


# --------------------------------------------------------------------------- #
# Helpers for reading recorded requests
# --------------------------------------------------------------------------- #


def message_parts(body: dict[str, Any]) -> list[tuple[str, str]]:
    """Flatten all messages' content, in order, to ``("text"|"image", value)``.

    Lets tests assert the exact interleaving of prompt text and images the
    code under test sent, regardless of whether content was a plain string or
    a list of parts.  Image values are the URL as sent (usually a data URL).
    Messages with ``content: None`` (e.g. tool calls) contribute nothing;
    unknown part types raise ``ValueError`` so they can't be silently missed.
    """
    parts: list[tuple[str, str]] = []
    for message in body.get("messages", []):
        content = message.get("content")
        if content is None:
            continue
        if isinstance(content, str):
            parts.append(("text", content))
            continue
        for part in content:
            kind = part.get("type")
            if kind == "text":
                parts.append(("text", part["text"]))
            elif kind == "image_url":
                image_url = part["image_url"]
                url = image_url["url"] if isinstance(image_url, dict) else image_url
                parts.append(("image", url))
            else:
                raise ValueError(f"unsupported content part type: {kind!r}")
    return parts


# data:[<mediatype>][;param...];base64,<data>  (RFC 2397, base64 form only)
_DATA_URL = re.compile(r"^data:[^,]*;base64,(?P<data>.*)$", re.DOTALL)


def decode_data_url_image(url: str) -> Image.Image:
    """Decode a ``data:image/...;base64,...`` URL into a loaded PIL image.

    Tests use it to check that the image actually sent matches the input
    (size, mode, pixels), not just that *some* image part was present.
    """
    from PIL import Image

    match = _DATA_URL.match(url)
    if match is None:
        raise ValueError(f"not a base64 data URL: {url[:60]!r}")
    try:
        raw = base64.b64decode(match["data"], validate=True)
    except binascii.Error as exc:
        raise ValueError(f"invalid base64 in data URL: {exc}") from None
    image = Image.open(io.BytesIO(raw))
    image.load()  # decode now, so errors surface here and the buffer can go
    return image
