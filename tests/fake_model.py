"""A loopback OpenAI-compatible endpoint that replays scripted model answers.

Each script item is what the next POST gets: a dict (a 200 JSON answer), ``(status, body,
headers)``, or a callable taking the request body and returning one of those (an answer
"written from" what the model was sent); past the script, ``responder`` (a callable like
that) answers. Every request body is kept in ``requests``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Item = dict[str, Any] | tuple[int, Any, dict[str, str]] | Callable[[dict[str, Any]], Any]


class FakeModel:
    def __init__(self) -> None:
        self.script: list[Item] = []
        self.responder: Callable[[dict[str, Any]], Any] | None = None
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.headers: list[dict[str, str]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                owner.requests.append(body)
                owner.paths.append(self.path)
                owner.headers.append(dict(self.headers))
                if owner.script:
                    item: Any = owner.script.pop(0)
                elif owner.responder is not None:
                    item = owner.responder
                else:
                    item = (500, {"error": "no more answers scripted"}, {})
                if callable(item):
                    item = item(body)
                status, payload, headers = item if isinstance(item, tuple) else (200, item, {})
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:  # keep the test output clean
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def tool_answer(*calls: tuple[str, dict[str, Any]], usage: int = 10) -> dict[str, Any]:
    """An answer with native tool calls ``(name, arguments)``; arguments sent as a string."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": f"call_{k}",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(args)},
                        }
                        for k, (name, args) in enumerate(calls)
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {
            "prompt_tokens": usage * 10,
            "completion_tokens": usage,
            "total_tokens": usage * 11,
        },
    }


def text_answer(text: str, usage: int = 5) -> dict[str, Any]:
    return {
        "id": "chatcmpl-2",
        "object": "chat.completion",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {
            "prompt_tokens": usage * 10,
            "completion_tokens": usage,
            "total_tokens": usage * 11,
        },
    }


def last_tool_text(body: dict[str, Any]) -> str:
    """The content of the last tool (or user) message a request carries."""
    for m in reversed(body["messages"]):
        if m["role"] in ("tool", "user"):
            return m["content"]
    raise AssertionError("no tool or user message")
