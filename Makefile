# Quick start: `make run` (the app) and `make test` (the whole suite). Both set up .venv first.
PYTHON ?= python3
VENV   ?= .venv
PORT   ?= 8501
WORKERS ?= 2
BIN     = $(VENV)/bin

.PHONY: run serve test lint bench clean spark

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

run: $(VENV)/.installed
	$(BIN)/streamlit run app.py --server.port $(PORT)

# a class: WORKERS Streamlit processes behind Debian's nginx on PORT (apt-get install nginx)
serve: $(VENV)/.installed
	$(BIN)/python scripts/serve.py --workers $(WORKERS) --port $(PORT)

test: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
