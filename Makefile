# Skirmish: `make test` installs what it needs into .venv and runs the tests.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test install bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

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
