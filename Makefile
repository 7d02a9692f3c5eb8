# Skirmish. `make install`: the bot and what it needs to run, in .venv; `make test`: that, the test
# tools (the `test` extra) and the tests; `make demo`: the bot's install and an offline session.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# what was installed, and from which pyproject.toml (a changed one installs again)
STAMP      := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
# the test run's processes (pytest-xdist): two per core, so one's waits (a browser, a subprocess, a
# lease) overlap another's work: on 2 cores 4 took 5 min 45 s where 2 took 7 min 30 s (issue 37);
# `make test WORKERS=0` runs in one process
WORKERS ?= $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 1) )))

.PHONY: test install bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(TEST_STAMP)

install: $(STAMP)

test: $(TEST_STAMP)
	$(PY) -m pytest -n $(WORKERS)

bench: $(STAMP)
	$(PY) benchmarks/movegen.py

# the Discord bot: settings from ./config.toml (or CONFIG=path/to/file.toml), the token from DISCORD_TOKEN
.PHONY: run
run: $(STAMP)
	$(PY) -m bot run $(if $(CONFIG),--config $(CONFIG))

# the offline session: simulated players, the real service and scheduler, posts as files in ./demo
.PHONY: demo
demo: $(STAMP)
	$(PY) -m bot demo

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
