# The two commands: `make run` (the web server) and `make test` (lint, types, tests).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint types pytest bench clean browser postgres nginx reference wheel-smoke core

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

RUN_STAMP := $(VENV)/.installed-run

# The tests need every extra (Ray, PettingZoo, OpenSpiel, Playwright, ...); the web server needs none.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,rl,openspiel,learn]'
	touch $(STAMP) $(RUN_STAMP)

# The compiled batch core (cardtable.vector) and the search bots' compiled playouts, rebuilt in place when
# their sources change (setup.py; skipped with a note where no C compiler is found).
CORE := $(VENV)/.core-built
CORE_SOURCES := $(wildcard cardtable/vector/*.pyx cardtable/vector/*.pxd cardtable/vector/*.pxi cardtable/vector/*.h \
                  cardtable/core/*.pxd \
                  cardtable/core/*.pxi \
                  cardtable/games/*/*.pyx cardtable/games/*/*.pxi cardtable/games/*/players/*.pyx \
                  cardtable/games/*/players/*.pxi)
$(CORE): setup.py $(CORE_SOURCES) | $(STAMP)
	$(BIN)/pip install -q --no-deps -e .
	touch $(CORE)

core: $(CORE)

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $(RUN_STAMP)

# Given on the command line only (`make run PORT=8080 HOST=0.0.0.0`): a shell's own $HOST never moves the server.
HOST := 127.0.0.1
PORT := 8000
run: $(RUN_STAMP)
	$(BIN)/cardtable serve --host $(HOST) --port $(PORT)

reference: $(RUN_STAMP)  ## the Durak reference game (the 2020 program's published log)
	$(BIN)/cardtable durak --preset reference --seed 60493 Rick Morty Summer

browser:
	@command -v chromium >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1 || \
	  (apt-get update -q && apt-get install -y -q chromium) >/dev/null

postgres:  ## the server's multi-process tests start a throwaway PostgreSQL cluster of their own
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || \
	  ! command -v apt-get >/dev/null 2>&1 || \
	  (apt-get update -q && apt-get install -y -q postgresql) >/dev/null

nginx:  ## the hosting docs' nginx site and systemd unit are checked with `nginx -t` and `systemd-analyze verify`
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || ! command -v apt-get >/dev/null 2>&1 || \
	  (apt-get update -q && apt-get install -y -q nginx-light) >/dev/null
	@command -v systemd-analyze >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1 || \
	  (apt-get update -q && apt-get install -y -q systemd) >/dev/null

lint: $(STAMP)
	$(BIN)/ruff check cardtable tests benchmarks research
	$(BIN)/lint-imports

types: $(STAMP)
	$(BIN)/mypy cardtable

pytest: $(STAMP) $(CORE) browser postgres nginx
	$(BIN)/pytest -n 2

wheel-smoke: $(STAMP)  ## sdist and wheel built, the wheel installed in a fresh venv and used (.ci/wheel-smoke)
	PYTHON=$(BIN)/python .ci/wheel-smoke

test: lint types pytest wheel-smoke

bench: $(STAMP)
	$(BIN)/python benchmarks/throughput.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build cardtable/vector/*.so cardtable/vector/*.c
	rm -f cardtable/games/*/*.so cardtable/games/*/*.c cardtable/games/*/players/*.so cardtable/games/*/players/*.c
