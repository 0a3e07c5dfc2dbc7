import sys

from hooks.stop import main

sys.exit(main(sys.stdin, sys.stdout))
