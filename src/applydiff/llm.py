"""A small client for OpenAI-compatible chat-completions endpoints.

>>> client = ChatClient("http://127.0.0.1:8080/v1", "qwen2.5-coder:7b")   # doctest: +SKIP
>>> reply = client.chat([{"role": "user", "content": "hi"}], tools=defs)   # doctest: +SKIP
>>> reply.content, [(c.name, c.arguments) for c in reply.tool_calls]       # doctest: +SKIP

Speaks the one request every such server understands (llama.cpp's server, Ollama, vLLM,
LM Studio, OpenAI and its many look-alikes): ``POST {base}/chat/completions`` with
``model``, ``messages`` and, when given, ``tools``. The answer's text and native tool calls
come back normalised (arguments as a JSON string or an object, both accepted). 429 and 5xx
answers and network failures are retried with exponential backoff (``Retry-After``
honoured), each retry told to ``on_retry`` as it starts to wait; a refused connection (no
server listening there) and other errors raise :class:`LLMError` at once.

Standard library only (``urllib``): one blocking POST with a timeout needs nothing more.
"""

from __future__ import annotations

import errno
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

DEFAULT_TIMEOUT = 300.0  # seconds per request: a local model on a CPU is slow
DEFAULT_RETRIES = 4
RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class Retry:
    """A request about to be sent again: the retry's number (1 for the first), of how many at
    most, the seconds waited first, and why (``HTTP 503: ...``, ``timed out``)."""

    number: int
    retries: int
    wait: float
    reason: str


class LLMError(RuntimeError):
    """The endpoint failed: ``status`` is the HTTP status (None: no answer at all)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class ToolCall:
    """A native tool call: ``arguments`` as the model sent them (a JSON string or object)."""

    id: str
    name: str
    arguments: str | dict[str, Any]

    def to_message(self) -> dict[str, Any]:
        args = self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments)
        function = {"name": self.name, "arguments": args}
        return {"id": self.id, "type": "function", "function": function}


@dataclass
class ChatResponse:
    """One answer: its text, its tool calls, why it stopped, token counts, the raw JSON."""

    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)

    def message(self) -> dict[str, Any]:
        """The assistant message to send back in the conversation."""
        out: dict[str, Any] = {"role": "assistant", "content": self.content or None}
        if self.tool_calls:
            out["tool_calls"] = [c.to_message() for c in self.tool_calls]
        return out


def parse_response(raw: Any) -> ChatResponse:
    """A chat-completions answer (JSON, already decoded) as a :class:`ChatResponse`."""
    if not isinstance(raw, dict):
        raise LLMError("the endpoint's answer is not a JSON object")
    if "error" in raw and not raw.get("choices"):
        detail = raw["error"].get("message") if isinstance(raw["error"], dict) else raw["error"]
        raise LLMError(f"the endpoint reported an error: {detail}")
    choices = raw.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise LLMError("the endpoint's answer has no choices")
    message = choices[0].get("message") or {}
    content = message.get("content") or ""
    if isinstance(content, list):  # content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    calls = []
    for k, call in enumerate(message.get("tool_calls") or []):
        fn = call.get("function") if isinstance(call, dict) else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
            continue
        args = fn.get("arguments", "{}")
        calls.append(ToolCall(str(call.get("id") or f"call_{k}"), fn["name"], args))
    usage = {
        k: int(v)
        for k, v in (raw.get("usage") or {}).items()
        if k in ("prompt_tokens", "completion_tokens", "total_tokens") and isinstance(v, int)
    }
    return ChatResponse(str(content), calls, choices[0].get("finish_reason"), usage, raw)


class ChatClient:
    """Chat completions from ``base_url`` (``http://host:port/v1``; a URL that already ends
    in ``/chat/completions`` is used as it is) for ``model``. The API key comes from
    ``api_key`` or the environment variable ``api_key_env`` (none: no Authorization header,
    as local servers expect)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        backoff: float = 1.0,
        temperature: float | None = 0.0,
        extra_body: dict[str, Any] | None = None,
        sleep: Callable[[float], None] | None = None,
        on_retry: Callable[[Retry], None] | None = None,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"the endpoint must be an http(s) URL, not {base_url!r}")
        base = base_url.rstrip("/")
        self.url = base if base.endswith("/chat/completions") else base + "/chat/completions"
        self.model = model
        self.api_key = api_key if api_key is not None else os.environ.get(api_key_env)
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.temperature = temperature
        self.extra_body = dict(extra_body or {})
        self.sleep = sleep or (lambda seconds: time.sleep(seconds))
        self.on_retry = on_retry

    def chat(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> ChatResponse:
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        if tools:
            body["tools"] = tools
        if self.temperature is not None:
            body["temperature"] = self.temperature
        body.update(self.extra_body)
        return parse_response(self._post(body))

    def _post(self, body: dict[str, Any]) -> Any:
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        attempt = 0
        while True:
            request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                    payload = answer.read()
                try:
                    return json.loads(payload)
                except ValueError:
                    raise LLMError(
                        f"the endpoint's answer is not JSON: {payload[:200]!r}"
                    ) from None
            except urllib.error.HTTPError as e:
                detail = _excerpt(e.read())
                if e.code not in RETRY_STATUSES or attempt >= self.retries:
                    raise LLMError(
                        f"{self.url} answered HTTP {e.code}: {detail}", status=e.code
                    ) from None
                wait = _retry_after(e.headers.get("Retry-After"))
                why = f"HTTP {e.code}: {detail}"
            except (TimeoutError, urllib.error.URLError, ConnectionError) as e:
                reason = getattr(e, "reason", e)
                if _refused(e):  # nothing listens there: waiting will not change that
                    raise LLMError(f"cannot reach {self.url}: connection refused") from None
                if attempt >= self.retries:
                    raise LLMError(f"cannot reach {self.url}: {reason}") from None
                wait = None
                why = str(reason) or type(reason).__name__
            seconds = wait if wait is not None else self.backoff * 2**attempt
            if self.on_retry is not None:
                self.on_retry(Retry(attempt + 1, self.retries, seconds, why))
            self.sleep(seconds)
            attempt += 1


def _refused(error: BaseException) -> bool:
    """A connection refused: the error itself, or a URLError whose reason it is."""
    reason = getattr(error, "reason", error)
    for e in (error, reason):
        if isinstance(e, ConnectionRefusedError):
            return True
        if isinstance(e, OSError) and e.errno == errno.ECONNREFUSED:
            return True
    return False


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (the seconds form; dates are not worth it)."""
    try:
        return max(0.0, min(float(value), 120.0)) if value else None
    except ValueError:
        return None


def _excerpt(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip()
    try:
        err = json.loads(text).get("error")
        text = err.get("message", text) if isinstance(err, dict) else str(err or text)
    except (ValueError, AttributeError):
        pass
    return text[:300] or "(no body)"
