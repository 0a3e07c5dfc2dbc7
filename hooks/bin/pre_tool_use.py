import sys

from hooks.pre_tool_use import main

sys.exit(main(sys.stdin, sys.stdout))
