import sys

from hooks.post_tool_use_failure import main

sys.exit(main(sys.stdin, sys.stdout))
