"""The MCP server: the agent's own interface to its memory (`skill-memory mcp`).

`tools` holds the five tools' logic (validation, the service request, the answer as text
plus structured data) with no MCP import; `link` reaches the warm service over its socket,
starting it when absent; `app` puts the tools on the `mcp` SDK's stdio server. The process
stays light: every call that ranks or writes goes to the service, so neither the model nor
the index is ever loaded here.
"""
