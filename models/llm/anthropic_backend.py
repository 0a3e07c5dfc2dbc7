"""The Anthropic Messages API through the official SDK, structured output by a forced tool call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

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
from fireworks_skill_memory.models.llm.jsontext import preview
from fireworks_skill_memory.models.llm.retry import (
    RetryPolicy,
    call_with_retries,
    parse_retry_after,
)
from fireworks_skill_memory.models.llm.schema import validate_object

if TYPE_CHECKING:
    import anthropic

DEFAULT_BASE_URL = "https://api.anthropic.com"
RATE_LIMIT_STATUSES = frozenset({429, 529})
AUTH_STATUSES = frozenset({401, 403})


class AnthropicBackend(LLMBackend):
    """`anthropic.Anthropic(...).messages.create` with our own retry loop (the SDK's is off)."""

    name: ClassVar[str] = "anthropic"

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str = "",
        timeout: float = 60.0,
        retry: RetryPolicy | None = None,
        logger: Logger | None = None,
    ) -> None:
        self.api_key = api_key
        self.model = model
        self.base_url = base_url or DEFAULT_BASE_URL
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self.log = logger or no_log
        self._client: anthropic.Anthropic | None = None

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str],
        *,
        model: str,
        timeout: float = 60.0,
        retry: RetryPolicy | None = None,
        logger: Logger | None = None,
    ) -> AnthropicBackend:
        """Configured by `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` in `env`."""
        return cls(
            api_key=env.get("ANTHROPIC_API_KEY", "").strip(),
            base_url=env.get("ANTHROPIC_BASE_URL", "").strip(),
            model=model,
            timeout=timeout,
            retry=retry,
            logger=logger,
        )

    def build_request(self, request: StructuredRequest) -> dict[str, Any]:
        """Keyword arguments of `messages.create`: one forced tool, a cacheable system block."""
        return {
            "model": request.model or self.model,
            "max_tokens": request.max_tokens,
            "system": [
                {"type": "text", "text": request.system, "cache_control": {"type": "ephemeral"}}
            ],
            "messages": [{"role": "user", "content": request.user}],
            "tools": [
                {
                    "name": request.schema_name,
                    "description": "Record your answer. Call this tool exactly once; "
                    "its input is the whole answer.",
                    "input_schema": request.schema,
                }
            ],
            "tool_choice": {"type": "tool", "name": request.schema_name},
        }

    def parse_response(self, raw: object, request: StructuredRequest) -> StructuredReply:
        """The `input` of the `tool_use` block named `schema_name` in a Messages-API message."""
        if not isinstance(raw, Mapping):
            text = raw if isinstance(raw, str) else type(raw).__name__
            raise BackendBadReply(f"anthropic: the reply is not a message object: {preview(text)}")
        content = raw.get("content")
        blocks = [b for b in content if isinstance(b, Mapping)] if isinstance(content, list) else []
        calls = [
            b
            for b in blocks
            if b.get("type") == "tool_use" and b.get("name") == request.schema_name
        ]
        if not calls:
            reason = raw.get("stop_reason")
            raise BackendBadReply(
                f"anthropic: no {request.schema_name!r} tool call in the reply "
                f"(stop_reason={reason!r}, blocks={[b.get('type') for b in blocks]})"
            )
        data = validate_object(calls[0].get("input"), request.schema, label=self.name)
        usage = raw.get("usage")
        cache_read = token_count(usage, "cache_read_input_tokens")
        return StructuredReply(
            data=data,
            input_tokens=token_count(
                usage, "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"
            ),
            output_tokens=token_count(usage, "output_tokens"),
            model=str(raw.get("model") or request.model or self.model),
            backend=self.name,
            cache_read_tokens=cache_read,
        )

    def complete(self, request: StructuredRequest) -> StructuredReply:
        """Build, send with retries, parse; raises only `BackendError`s."""
        if not self.api_key:
            raise BackendUnavailable("anthropic: ANTHROPIC_API_KEY is not set")
        params = self.build_request(request)
        raw = call_with_retries(lambda: self._send(params), self.retry, self.log, self.name)
        return self.parse_response(raw, request)

    def _send(self, params: dict[str, Any]) -> object:
        """The one network call, its failures translated into `BackendError`s."""
        client = self._get_client()
        import anthropic
        import httpx2

        try:
            message = client.messages.create(**params)
        except anthropic.APIStatusError as error:
            raise _status_error(error) from error
        except anthropic.APITimeoutError as error:
            raise BackendTimeout(f"anthropic: no answer within {self.timeout:g}s") from error
        except anthropic.APIConnectionError as error:
            cause = error.__cause__ or error
            raise BackendConnectionError(f"anthropic: connection failed: {cause}") from error
        except (anthropic.APIResponseValidationError, ValueError) as error:
            # The SDK lets a malformed JSON body through as a raw json.JSONDecodeError.
            raise BackendBadReply(f"anthropic: unreadable reply: {error}") from error
        except (anthropic.AnthropicError, httpx2.HTTPError, OSError) as error:
            raise BackendError(f"anthropic: {type(error).__name__}: {error}") from error
        # A body that is not labelled JSON comes back as plain text; parse_response rejects it.
        return message if isinstance(message, str) else message.to_dict(mode="json")

    def _get_client(self) -> anthropic.Anthropic:
        if self._client is None:
            try:
                import anthropic
            except ImportError as error:
                raise BackendUnavailable(
                    "anthropic: the `anthropic` package is not installed"
                ) from error
            try:
                self._client = anthropic.Anthropic(
                    api_key=self.api_key,
                    base_url=self.base_url,
                    timeout=self.timeout,
                    max_retries=0,
                )
            except (anthropic.AnthropicError, ValueError) as error:
                raise BackendUnavailable(f"anthropic: cannot create the client: {error}") from error
        return self._client


def _status_error(error: anthropic.APIStatusError) -> BackendError:
    status = error.status_code
    retry_after = parse_retry_after(dict(error.response.headers))
    detail = error.api_message or error.message
    if status in AUTH_STATUSES:
        return BackendUnavailable(f"anthropic: HTTP {status}: {detail} (check ANTHROPIC_API_KEY)")
    kind = BackendRateLimited if status in RATE_LIMIT_STATUSES else BackendHTTPError
    return kind(f"anthropic: HTTP {status}: {detail}", status=status, retry_after=retry_after)
