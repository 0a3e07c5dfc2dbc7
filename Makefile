# Two commands set everything up on a fresh machine (Python 3.10+ and a package registry):
#   make demo   - a throwaway memory home seeded from examples/, then inject and search
#   make test   - the whole test suite (the same command CI runs through .ci/run)
# The developer loop, run on every change:
#   make check  - everything but the real model, the e2e CLIs, the browser, S3 (moto) and the
#                 slow tests, on two pytest-xdist workers (target: under 3 minutes on 2 CPUs)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# torch is pinned so pip takes the CPU wheel where one is provided instead of a multi-GB CUDA build.
TORCH ?= torch==2.13.0
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: install demo test check chromium lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "$(TORCH)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

demo: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" bash examples/demo.sh

test: $(STAMP) chromium
	$(BIN)/python -m pytest

# The markers are registered in pyproject.toml; tests/conftest.py refuses a test that uses the
# `s3` or `browser` fixture without its marker, so none slips into this loop.
CHECK_MARKERS := not real_model and not e2e and not slow and not browser and not s3
CHECK_WORKERS ?= 2

check: $(STAMP)
	$(BIN)/python -m pytest -q -n $(CHECK_WORKERS) -m "$(CHECK_MARKERS)"

# The viewer's browser tests drive Debian's chromium through Playwright (whose own browser
# download is not used); installed once, when missing (CI runs as root on Debian 12).
chromium:
	@command -v chromium >/dev/null || { \
	  SUDO=$$(test "$$(id -u)" = 0 || echo "sudo -n"); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; } || \
	  echo "chromium could not be installed: the browser tests will be skipped" >&2

# mypy cannot follow the editable install's import hook, so it checks a link view of the
# namespace (the folders mapped into fireworks_skill_memory, as pyproject.toml maps them).
TYPECHECK := build/typecheck/fireworks_skill_memory

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	rm -rf $(TYPECHECK) && mkdir -p $(TYPECHECK)
	for name in __init__.py py.typed memory index models hooks codex mcpserver cli viewer; do \
	  ln -s "$(CURDIR)/$$(test -e fireworks_skill_memory/$$name && echo fireworks_skill_memory/)$$name" $(TYPECHECK)/$$name; done
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/index_bench.py
	$(BIN)/python benchmarks/hook_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
