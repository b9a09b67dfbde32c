# Every target sets itself up: a fresh machine with Python 3.11 needs nothing else.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache

.PHONY: run test test-full bench lint venv clean-venv push pull

venv: $(STAMP)

# Reinstall whenever the declared or pinned dependencies change. Every install layer (README, "Install"):
# the pipeline and the command (build), the web server (serve), the test tools (test). uv (pinned in
# constraints.txt, installed into the venv by pip) installs the same pinned versions as pip would, downloading
# in parallel: with an empty download cache, as on a fresh machine, pip took 76 s and uv 26 s (docs/benchmarks.md,
# "Test suite"). The bytecode is compiled after the install on every core.
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c constraints.txt uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -c constraints.txt -e ".[build,serve,test]"
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib
	touch $(STAMP)

# `dicetables repro` is `dvc repro` with independent stages on both cores (pipeline/repro.py); each stage compiles
# the numba kernels it needs into the shared cache, once per version of the code. `dicetables compile` is left to
# `make test` (and to a user who wants poker's numba equity engine: until then `poker equity` uses the numpy one,
# and no call compiles): within the five minutes of `make run` it would only build small tables twice
# (docs/benchmarks.md, "make run").
run: $(STAMP)
	$(BIN)/dicetables repro
	$(BIN)/dicetables summary
	@echo "Web advisor and JSON API: $(BIN)/dicetables serve  (then open http://127.0.0.1:8000/, API docs at /docs)"

# Two pytest workers (pytest-xdist): most tests run one core each, and the machine has two. Tables are built once
# per run and shared by both workers (tests/shared.py). Everything but the `full` tests: under 6 minutes.
# Where the environment forbids bytecode files (PYTHONDONTWRITEBYTECODE), every process of a run (the workers, the
# CLI and Dask processes the tests start) would compile the project's modules again and pytest would rewrite the
# test modules in each worker: the tests let Python keep them in __pycache__ (ignored by git; ~5 s of a run).
test: $(STAMP)
	$(BIN)/ruff check lookup pipeline webapp tests benchmarks
	PYTHONDONTWRITEBYTECODE= $(BIN)/dicetables compile
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n 2 --dist worksteal -m "not full" --durations=10

# The full-size checks that cannot fit in `make test` (README, "The two commands"). CI (.ci/run) runs both targets.
test-full: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/dicetables compile
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n 2 --dist worksteal -m full

bench: $(STAMP)
	$(BIN)/uv pip install --quiet --python $(BIN)/python -c constraints.txt -e ".[build,serve,test,bench]"
	@set -e; for script in benchmarks/*.py; do \
	  echo "== $$script"; $(BIN)/python $$script; done

# Ship the tables through a DVC remote (docs/artifacts.md, "Getting the tables of a commit"). Nothing in the repository
# names a remote: a maintainer adds one (`dvc remote add --local NAME URL`, or without --local to commit it as the
# consumers' default). `make push REMOTE=NAME` sends the tables of dvc.lock (the manifest with them) once they verify
# and match dvc.lock; `make pull [REMOTE=NAME]` brings those of the checked-out commit and verifies what arrived.
# Without REMOTE, DVC's default remote (core.remote).
push: $(STAMP)
	$(BIN)/dicetables verify --artifacts artifacts
	$(BIN)/dvc status --quiet || { echo "artifacts/ differs from dvc.lock (dvc status): make run first"; exit 1; }
	$(BIN)/dvc push$(if $(REMOTE), --remote $(REMOTE))

pull: $(STAMP)
	$(BIN)/dvc pull$(if $(REMOTE), --remote $(REMOTE))
	$(BIN)/dicetables verify --artifacts artifacts

lint: $(STAMP)
	$(BIN)/ruff check lookup pipeline webapp tests benchmarks

clean-venv:
	rm -rf $(VENV)
