import sys

from hooks.user_prompt_submit import main

sys.exit(main(sys.stdin, sys.stdout))
