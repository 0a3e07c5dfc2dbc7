"""OpenAI-compatible chat completions over the standard library, structured by `json_schema`."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any, ClassVar

from fireworks_skill_memory.models.errors import (
    BackendBadReply,
    BackendConnectionError,
    BackendError,
    BackendHTTPError,
    BackendRateLimited,
    BackendTimeout,
    BackendUnavailable,
)
from fireworks_skill_memory.models.llm.base import (
    LLMBackend,
    Logger,
    StructuredReply,
    StructuredRequest,
    no_log,
    token_count,
)
from fireworks_skill_memory.models.llm.jsontext import extract_json_object, preview
from fireworks_skill_memory.models.llm.retry import (
    RetryPolicy,
    call_with_retries,
    parse_retry_after,
)
from fireworks_skill_memory.models.llm.schema import validate_object

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "gpt-5.4"
# The shared SKILLS_KNOWLEDGE_MODEL usually names a Claude model, useless here.
CLAUDE_PREFIXES = ("claude", "haiku", "sonnet", "opus")
RATE_LIMIT_STATUSES = frozenset({429, 529})
AUTH_STATUSES = frozenset({401, 403})
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


class OpenAIBackend(LLMBackend):
    """`POST {base_url}/chat/completions` with `response_format: json_schema`."""

    name: ClassVar[str] = "openai"

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str = "",
        timeout: float = 60.0,
        proxies: Mapping[str, str] | None = None,
        retry: RetryPolicy | None = None,
        logger: Logger | None = None,
    ) -> None:
        self.api_key = api_key
        self.model = model
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self.timeout = timeout
        self.proxies = dict(proxies or {})
        self.retry = retry or RetryPolicy()
        self.log = logger or no_log

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str],
        *,
        model: str,
        timeout: float = 60.0,
        retry: RetryPolicy | None = None,
        logger: Logger | None = None,
    ) -> OpenAIBackend:
        """`OPENAI_API_KEY`, `OPENAI_BASE_URL`, proxies; the model is `OPENAI_MODEL`, else
        `model` unless it names a Claude model, else 0.1's default `gpt-5.4`."""
        base_url = env.get("OPENAI_BASE_URL", "").strip()
        if not model or model.lower().startswith(CLAUDE_PREFIXES):
            model = DEFAULT_MODEL
        return cls(
            api_key=env.get("OPENAI_API_KEY", "").strip(),
            base_url=base_url,
            model=env.get("OPENAI_MODEL", "").strip() or model,
            timeout=timeout,
            proxies=proxies_for(base_url or DEFAULT_BASE_URL, env),
            retry=retry,
            logger=logger,
        )

    @property
    def url(self) -> str:
        """The chat-completions endpoint."""
        return f"{self.base_url}/chat/completions"

    def build_request(self, request: StructuredRequest) -> dict[str, Any]:
        """The JSON body. No token limit is sent: OpenAI's reasoning models reject `max_tokens`
        and count hidden reasoning in `max_completion_tokens`, which could starve the answer."""
        return {
            "model": self.model or request.model,
            "messages": [
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.user},
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": request.schema_name,
                    "schema": request.schema,
                    "strict": False,
                },
            },
        }

    def parse_response(self, raw: object, request: StructuredRequest) -> StructuredReply:
        """The JSON object in `choices[0].message.content` (bare, fenced or amid prose)."""
        if not isinstance(raw, Mapping):
            raise BackendBadReply(f"openai: the reply is not a JSON object: {type(raw).__name__}")
        choices = raw.get("choices")
        first = choices[0] if isinstance(choices, list) and choices else None
        message = first.get("message") if isinstance(first, Mapping) else None
        if not isinstance(message, Mapping):
            raise BackendBadReply(f"openai: no message in the reply: {preview(json.dumps(raw))}")
        refusal = message.get("refusal")
        if isinstance(refusal, str) and refusal:
            raise BackendBadReply(f"openai: the model refused: {preview(refusal)}")
        content = message.get("content")
        if not isinstance(content, str) or not content.strip():
            reason = first.get("finish_reason") if isinstance(first, Mapping) else None
            raise BackendBadReply(f"openai: empty message content (finish_reason={reason!r})")
        data = validate_object(_json_object(content), request.schema, label=self.name)
        usage = raw.get("usage")
        details = usage.get("prompt_tokens_details") if isinstance(usage, Mapping) else None
        return StructuredReply(
            data=data,
            input_tokens=token_count(usage, "prompt_tokens"),
            output_tokens=token_count(usage, "completion_tokens"),
            model=str(raw.get("model") or self.model or request.model),
            backend=self.name,
            cache_read_tokens=token_count(details, "cached_tokens"),
        )

    def complete(self, request: StructuredRequest) -> StructuredReply:
        """Build, send with retries, parse; raises only `BackendError`s."""
        if not self.api_key and self.base_url == DEFAULT_BASE_URL:
            raise BackendUnavailable("openai: OPENAI_API_KEY is not set")
        if not (self.model or request.model):
            raise BackendUnavailable("openai: no model (set OPENAI_MODEL)")
        body = json.dumps(self.build_request(request)).encode("utf-8")
        raw = call_with_retries(lambda: self._send(body), self.retry, self.log, self.name)
        return self.parse_response(raw, request)

    def _send(self, body: bytes) -> object:
        """The one network call, its failures translated into `BackendError`s."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:  # local OpenAI-compatible servers often need none
            headers["Authorization"] = f"Bearer {self.api_key}"
        http_request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        opener = urllib.request.build_opener(urllib.request.ProxyHandler(self.proxies))
        try:
            with opener.open(http_request, timeout=self.timeout) as response:
                payload: bytes = response.read()
        except urllib.error.HTTPError as error:
            raise _status_error(error) from error
        except TimeoutError as error:
            raise BackendTimeout(f"openai: no answer within {self.timeout:g}s") from error
        except urllib.error.URLError as error:
            if isinstance(error.reason, TimeoutError):
                raise BackendTimeout(f"openai: no answer within {self.timeout:g}s") from error
            raise BackendConnectionError(f"openai: connection failed: {error.reason}") from error
        except (http.client.HTTPException, OSError) as error:
            raise BackendConnectionError(f"openai: connection failed: {error!r}") from error
        try:
            return json.loads(payload)
        except ValueError as error:
            text = payload.decode("utf-8", "replace")
            raise BackendBadReply(f"openai: the body is not JSON: {preview(text)}") from error


def proxies_for(url: str, env: Mapping[str, str]) -> dict[str, str]:
    """The proxies `env` sets for `url` (none for loopback or `NO_PROXY` hosts)."""
    host = (urllib.parse.urlsplit(url).hostname or "").lower()
    no_proxy = env.get("NO_PROXY", env.get("no_proxy", ""))
    skip = [h.strip().lower().lstrip(".") for h in no_proxy.split(",") if h.strip()]
    if host in LOOPBACK or "*" in skip or any(host == h or host.endswith("." + h) for h in skip):
        return {}
    proxies = {}
    for scheme in ("http", "https"):
        value = env.get(f"{scheme}_proxy") or env.get(f"{scheme.upper()}_PROXY")
        if value:
            proxies[scheme] = value
    return proxies


def _status_error(error: urllib.error.HTTPError) -> BackendError:
    status = error.code
    try:
        text = error.read().decode("utf-8", "replace")
    except (OSError, http.client.HTTPException):
        text = ""
    finally:
        error.close()
    detail = _error_message(text) or error.reason
    retry_after = parse_retry_after(dict(error.headers.items())) if error.headers else None
    if status in AUTH_STATUSES:
        return BackendUnavailable(f"openai: HTTP {status}: {detail} (check OPENAI_API_KEY)")
    kind = BackendRateLimited if status in RATE_LIMIT_STATUSES else BackendHTTPError
    return kind(f"openai: HTTP {status}: {detail}", status=status, retry_after=retry_after)


def _error_message(text: str) -> str:
    try:
        body = json.loads(text)
    except ValueError:
        return preview(text) if text else ""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"])
    return preview(text)


def _json_object(content: str) -> object:
    try:
        return json.loads(content)
    except ValueError:
        # Servers that ignore response_format answer in prose or a code fence.
        return extract_json_object(content, label="openai")
