# Two commands set up everything from nothing: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml Makefile | sha1sum | cut -c1-12)

.PHONY: install system-deps test run bench clean

install: $(STAMP)

$(STAMP): pyproject.toml Makefile
	@$(MAKE) --no-print-directory system-deps
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,eval]'
	rm -f $(VENV)/.installed-*; touch $@

# Tesseract with its Korean model and poppler, from Debian's packages (OCR of image-only pages and keys).
system-deps:
	@if ! command -v tesseract >/dev/null || ! tesseract --list-langs 2>/dev/null | grep -qx kor; then \
	  echo "installing tesseract-ocr-kor (Debian)"; \
	  $(if $(shell command -v sudo),sudo,) apt-get update -qq && \
	  $(if $(shell command -v sudo),sudo,) apt-get install -y -qq tesseract-ocr tesseract-ocr-kor tesseract-ocr-eng poppler-utils >/dev/null; \
	fi

test: install
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(PY) -m pytest -q

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
