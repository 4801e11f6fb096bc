# Two commands set up everything from nothing: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml Makefile mk/constraints.txt | sha1sum | cut -c1-12)

PREFECT_PORT ?= 4200
PREFECT_URL := http://127.0.0.1:$(PREFECT_PORT)/api
PREFECT_ENV := PREFECT_HOME=$(CURDIR)/.prefect PREFECT_SERVER_ANALYTICS_ENABLED=false
WORK ?= work

.PHONY: install system-deps test run stop prefect-server prefect-ui bench clean

include mk/labelstudio.mk

install: $(STAMP) ls-install

$(STAMP): pyproject.toml Makefile mk/constraints.txt
	@$(MAKE) --no-print-directory system-deps
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -c mk/constraints.txt --upgrade pip
	$(PY) -m pip install -q -c mk/constraints.txt -e '.[test,eval]'
	rm -f $(VENV)/.installed-*; touch $@

# From Debian's packages: Tesseract with its Korean and Hangul-script models (OCR of image-only pages and keys), Chromium
# with its driver (the leaderboard test opens the page as a reader would; the review browser test drives an annotator's
# session) and a CJK font (without one every Korean string in the browser is a box).
SUDO := $(if $(shell command -v sudo),sudo,)
system-deps:
	@if ! command -v tesseract >/dev/null || ! tesseract --list-langs 2>/dev/null | grep -qx kor \
	  || ! tesseract --list-langs 2>/dev/null | grep -qx Hangul || ! command -v chromium >/dev/null \
	  || ! command -v chromedriver >/dev/null || ! fc-list :lang=ko 2>/dev/null | grep -q .; then \
	  echo "installing Tesseract (kor, Hangul script, eng models), chromium with chromium-driver and fonts-noto-cjk (Debian)"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) apt-get install -y -qq tesseract-ocr tesseract-ocr-kor tesseract-ocr-script-hang tesseract-ocr-eng chromium \
	    chromium-driver fonts-noto-cjk >/dev/null; \
	fi

test: install
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(PY) -m pytest -q

# The main job: the whole pipeline on the bundled sample (outputs under $(WORK)/; servers left running for
# reviewers and the Prefect UI; `make stop` stops them).
run: install prefect-server
	$(PREFECT_ENV) PREFECT_API_URL=$(PREFECT_URL) HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(VENV)/bin/kmmlu sample --work $(WORK)

# A local Prefect server shared by every run (flows and distributed workers report to it; its UI shows them).
PREFECT_UP := $(PY) -c "import httpx,sys; sys.exit(httpx.get('$(PREFECT_URL)/health', timeout=2).status_code != 200)" 2>/dev/null
# Prefect refuses to start while its pid file stands, even when that process is gone (the machine restarted): a
# stale pid file is removed first. A server that does not come up stops the run in one line.
prefect-server: install
	@if ! $(PREFECT_UP); then \
	  pid=$$(cat .prefect/server.pid 2>/dev/null); \
	  if [ -n "$$pid" ] && ! kill -0 "$$pid" 2>/dev/null; then rm -f .prefect/server.pid; fi; \
	  echo "starting the Prefect server on 127.0.0.1:$(PREFECT_PORT)"; \
	  $(PREFECT_ENV) $(VENV)/bin/prefect server start --host 127.0.0.1 --port $(PREFECT_PORT) --background --analytics-off >/dev/null; \
	  for i in $$(seq 1 120); do $(PREFECT_UP) && break; sleep 1; done; \
	  $(PREFECT_UP) || { echo "the Prefect server did not answer on 127.0.0.1:$(PREFECT_PORT) in 120 s; is the port" \
	    "taken? (make stop stops ours; PREFECT_PORT=<a free port> make run uses another)" >&2; exit 1; }; \
	fi

prefect-ui: prefect-server
	@echo "Prefect UI: http://127.0.0.1:$(PREFECT_PORT)"

stop:
	-@test -f $(WORK)/labelstudio.pid && kill -- -$$(cat $(WORK)/labelstudio.pid) 2>/dev/null; rm -f $(WORK)/labelstudio.pid
	-$(PREFECT_ENV) $(VENV)/bin/prefect server stop

bench: install
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) bench/parse.py
	$(PY) bench/decontam.py
	$(PY) bench/eval.py --threads 1

clean:
	rm -rf $(VENV) $(LS_VENV) .pytest_cache build *.egg-info
