# Quick start: `make run` (the app) and `make test` (the fast tests). Both set up .venv first.
# `make test-all` is the whole suite at full strength, as CI runs it.
PYTHON ?= python3
VENV   ?= .venv
PORT   ?= 8501
WORKERS ?= 2
# make serve: nginx listens on HOST:PORT (0.0.0.0 = every network interface: anyone who can reach
# this computer can open the app; HOST=127.0.0.1 keeps it on this computer); the workers listen on
# 127.0.0.1 from FIRST_PORT up (FIRST_PORT .. FIRST_PORT+WORKERS-1)
HOST   ?= 0.0.0.0
FIRST_PORT ?= 8601
BIN     = $(VENV)/bin

.PHONY: run serve test test-all lint bench clean i18n spark

# the translations: each ranklab_ui/locales/<code>/LC_MESSAGES/messages.po compiled to its .mo when it changes
PO := $(wildcard ranklab_ui/locales/*/LC_MESSAGES/messages.po)
MO := $(PO:.po=.mo)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(VENV)/.installed $@

# the optional Spark extra (pyspark; Java 17 comes from Debian: openjdk-17-jre-headless).
# CI runs `make spark` before `make test`, so the Spark tests run there; without it they skip.
$(VENV)/.installed-spark: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev,spark]'
	touch $(VENV)/.installed $(VENV)/.installed-dev $@

spark: $(VENV)/.installed-spark

run: $(VENV)/.installed $(MO)
	$(BIN)/streamlit run app.py --server.port $(PORT)

# a class: WORKERS Streamlit processes behind Debian's nginx on HOST:PORT (apt-get install nginx);
# RANKLAB_PUBLIC_URL, when set, is the address the poll gives students
serve: $(VENV)/.installed $(MO)
	$(BIN)/python scripts/serve.py --workers $(WORKERS) --host $(HOST) --port $(PORT) --first-port $(FIRST_PORT)

# the test tools from npm, the versions pinned in package-lock.json: axe-core, which the
# accessibility test injects into Chromium (tests/browser/test_accessibility_browser.py), and
# ESLint and stylelint for our JavaScript and CSS (tests/test_lint_assets.py); installed when npm
# is there (CI's .ci/run installs Debian's nodejs and npm); without it those tests skip, or fail
# where RANKLAB_REQUIRE_BROWSER=1
AXE = $(if $(shell command -v npm 2>/dev/null),node_modules/.installed)

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# the fast tier, to run while working: every unit test, doctest and AppTest on every core, with a
# tenth of each randomised test's cases (tests/strength.py); the browser, Spark, nginx and timing
# tests are left to test-all. A worker that runs out of tests takes some of the other's queue
# (worksteal): the tests' lengths vary a hundredfold, and a long one left at the end of one
# queue kept a core idle.
FAST = not browser and not spark and not serving and not perf
test: $(VENV)/.installed-dev $(MO) $(AXE)
	$(BIN)/ruff check .
	RANKLAB_TEST_TIER=fast $(BIN)/python -m pytest -q -n auto --dist worksteal -m "$(FAST)"

# the full tier, CI's: every test at full strength, one at a time (the browser tests measure
# what a person waits for, so they get the machine to themselves)
test-all: $(VENV)/.installed-dev $(MO) $(AXE)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: $(VENV)/.installed-dev $(AXE)
	$(BIN)/ruff check .
	node_modules/.bin/eslint ranklab ranklab_ui tests
	node_modules/.bin/stylelint "ranklab/**/*.css" "ranklab_ui/**/*.css"

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/run_all.py

%.mo: %.po | $(VENV)/.installed
	$(BIN)/pybabel compile -i $< -o $@

# after changing shown texts: extract every _()/ngettext()/N_() text into messages.pot (babel.cfg
# says where) and merge it into each language's .po; then translate the new (empty or fuzzy) entries
i18n: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg --no-wrap --add-location=file --sort-output \
		--project=Ranklab -o ranklab_ui/locales/messages.pot .
	$(BIN)/pybabel update --no-wrap -i ranklab_ui/locales/messages.pot -d ranklab_ui/locales -D messages


clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
