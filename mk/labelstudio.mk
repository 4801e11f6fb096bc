# The Label Studio server lives in its own virtualenv: label-studio 1.23.2 pins python-json-logger==2.0.4
# and redis<5.3, which prefect >= 3.6 cannot live with (see ECOSYSTEM.md). The project's virtualenv only
# holds label-studio-sdk 2.1.2, the client that speaks to this server.
LS_VENV := .venv-ls
LS_VERSION := 1.23.2
LS_STAMP := $(LS_VENV)/.installed-label-studio-$(LS_VERSION)

.PHONY: ls-install

ls-install: $(LS_STAMP)

$(LS_STAMP):
	test -x $(LS_VENV)/bin/python || $(PYTHON) -m venv $(LS_VENV)
	$(LS_VENV)/bin/python -m pip install -q --upgrade pip
	$(LS_VENV)/bin/python -m pip install -q label-studio==$(LS_VERSION)
	rm -f $(LS_VENV)/.installed-label-studio-*; touch $@
