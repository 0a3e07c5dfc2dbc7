import sys

from hooks.user_prompt_expansion import main

sys.exit(main(sys.stdin, sys.stdout))
