"""A fast-apply model asked, over an OpenAI-compatible endpoint, to merge a lazy snippet that
the deterministic merge refused (issue 27). The engine applies its answer only when
``match.verify_merge`` finds the snippet explains it.

>>> client = MergeClient("http://127.0.0.1:8000/v1", "FastApply-7B")   # doctest: +SKIP
>>> client.merge("app.py", original, snippet)                          # doctest: +SKIP

The model is told the one file and the snippet, nothing else, in the prompt format fast-apply
models are trained on (``PROMPTS``): the file in ``<code>...</code>``, the snippet in
``<update>...</update>``; the merged file comes back in ``<updated-code>...</updated-code>``
(an answer without the tags is read whole, one code fence around it taken off). One retry on
a dropped connection; a time limit per request; an endpoint that is down is ``io_error``
naming it. Nothing is sent when no endpoint is set (``from_settings`` returns None).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import IO_ERROR, EditError
from .llm import ChatClient, LLMError

DEFAULT_TIMEOUT = 60.0  # seconds per request
ENDPOINT_ENV = "APPLYDIFF_MERGE_ENDPOINT"
MODEL_ENV = "APPLYDIFF_MERGE_MODEL"
KEY_ENVS = ("APPLYDIFF_MERGE_API_KEY", "OPENAI_API_KEY")


@dataclass(frozen=True)
class Prompt:
    """How a merge is asked: a system message (may be empty) and the user message, with
    ``{code}`` and ``{update}`` where the file and the snippet go."""

    system: str
    user: str

    def messages(self, original: str, snippet: str) -> list[dict[str, str]]:
        user = self.user.replace("{code}", original).replace("{update}", snippet)
        out = [{"role": "system", "content": self.system}] if self.system else []
        return [*out, {"role": "user", "content": user}]


# The input formats of public fast-apply models, as their model cards give them (a model
# answers best in the format it was trained on).
PROMPTS: dict[str, Prompt] = {
    # FastApply (Kortix/FastApply-*-v1.0, and fine-tunes of its dataset).
    "fastapply": Prompt(
        "You are a coding assistant that helps merge code updates, ensuring every "
        "modification is fully integrated.",
        "Merge all changes from the <update> snippet into the <code> below.\n"
        "- Preserve the code's structure, order, comments, and indentation exactly.\n"
        "- Output only the updated code, enclosed within <updated-code> and </updated-code> "
        "tags.\n"
        "- Do not include any additional text, explanations, placeholders, ellipses, or code "
        "fences.\n\n<code>{code}</code>\n\n<update>{update}</update>\n\n"
        "Provide the complete updated code.",
    ),
    # Morph's apply models (morph-v3-*): the file and the update, the merged file back
    # as it is (an instruction line, which we do not have, may precede them).
    "morph": Prompt("", "<code>{code}</code>\n<update>{update}</update>"),
}
DEFAULT_PROMPT = "fastapply"

_TAGGED = re.compile(r"<updated-code>\n?(.*?)(</updated-code>|\Z)", re.S)
_FENCED = re.compile(r"^\s*(`{3,}|~{3,})[^\n]*\n(.*?)\n?\1\s*$", re.S)


class MergeClient:
    """A merge model behind an OpenAI-compatible chat endpoint (``merge`` per snippet)."""

    def __init__(
        self,
        endpoint: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        prompt: str = DEFAULT_PROMPT,
    ) -> None:
        if prompt not in PROMPTS:
            raise ValueError(f"unknown merge prompt {prompt!r}: one of {', '.join(PROMPTS)}")
        if not timeout > 0:
            raise ValueError(f"the merge timeout must be more than 0 seconds, not {timeout}")
        self.name = model
        self.endpoint = endpoint
        self.prompt = PROMPTS[prompt]
        if api_key is None:
            api_key = next((os.environ[k] for k in KEY_ENVS if os.environ.get(k)), None)
        # One retry: a dropped connection or a busy server is worth one more try, not four.
        self.client = ChatClient(
            endpoint, model, api_key=api_key, timeout=timeout, retries=1, backoff=0.5
        )

    def merge(self, path: str, original: str, snippet: str) -> str:
        """The whole merged file the model answers for ``original`` and ``snippet``
        (``path`` is not sent: the model needs the file, not where it lives)."""
        try:
            reply = self.client.chat(self.prompt.messages(original, snippet))
        except LLMError as e:
            raise EditError(
                f"the merge endpoint {self.endpoint} failed: {e}", code=IO_ERROR, path=path
            ) from None
        return read_answer(reply.content, cut=reply.finish_reason == "length")


def read_answer(content: str, *, cut: bool = False) -> str:
    """The merged file in a merge model's answer: inside ``<updated-code>`` tags, or the
    answer whole (without a code fence around it). An answer cut off by the token limit
    (``cut``, or tags opened and never closed) is refused: the file would be cut short."""
    m = _TAGGED.search(content)
    if m is not None:
        if not m.group(2):
            raise EditError(
                "the merge model's answer opens <updated-code> and never closes it: it was cut off",
                code=IO_ERROR,
            )
        body = m.group(1)
    else:
        fenced = _FENCED.match(content)
        body = fenced.group(2) + "\n" if fenced else content
    if cut:
        raise EditError("the merge model's answer was cut off at its token limit", code=IO_ERROR)
    return body


def from_settings(
    endpoint: str | None = None,
    model: str | None = None,
    *,
    timeout: float | None = None,
    prompt: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> MergeClient | None:
    """The merge model the options and the environment name (``APPLYDIFF_MERGE_ENDPOINT``,
    ``APPLYDIFF_MERGE_MODEL``; the key in ``APPLYDIFF_MERGE_API_KEY`` or
    ``OPENAI_API_KEY``), or None when no endpoint is set. Raises ``ValueError`` for an
    endpoint without a model, or a wrong prompt or timeout."""
    env = os.environ if environ is None else environ
    endpoint = endpoint or env.get(ENDPOINT_ENV) or None
    model = model or env.get(MODEL_ENV) or None
    if endpoint is None:
        if model is not None:
            raise ValueError(
                f"a merge model ({model}) needs an endpoint: --merge-endpoint URL or {ENDPOINT_ENV}"
            )
        return None
    if model is None:
        raise ValueError(
            f"the merge endpoint {endpoint} needs a model name: --merge-model NAME or {MODEL_ENV}"
        )
    key = next((env[k] for k in KEY_ENVS if env.get(k)), None)
    return MergeClient(
        endpoint,
        model,
        api_key=key,
        timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
        prompt=prompt or DEFAULT_PROMPT,
    )


__all__ = [
    "DEFAULT_PROMPT",
    "DEFAULT_TIMEOUT",
    "ENDPOINT_ENV",
    "KEY_ENVS",
    "MODEL_ENV",
    "PROMPTS",
    "MergeClient",
    "Prompt",
    "from_settings",
    "read_answer",
]
