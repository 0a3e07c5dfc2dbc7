import sys

from hooks.session_start import main

sys.exit(main(sys.stdin, sys.stdout))
