import sys

from hooks.post_tool_use import main

sys.exit(main(sys.stdin, sys.stdout))
