"""Offline fakes of the model APIs used by the coding-agent CLIs and our distillers.

* :mod:`tests.fakes.messages_server` -- Anthropic Messages API (JSON and SSE).
* :mod:`tests.fakes.responses_server` -- OpenAI Responses API (SSE, for Codex)
  and Chat Completions (for the ``openai`` distiller backend).

All servers bind 127.0.0.1 only, on an OS-assigned port, and record requests.
"""
