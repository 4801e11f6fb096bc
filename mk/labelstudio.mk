# The Label Studio server lives in its own virtualenv: label-studio 1.23.2 pins python-json-logger==2.0.4
# and redis<5.3, which prefect >= 3.6 cannot live with (see ECOSYSTEM.md). The project's virtualenv only
# holds label-studio-sdk 2.1.2, the client that speaks to this server. Both install under constraints files
# (mk/*constraints.txt): a release upstream changes nothing until they do.
PYTHON ?= python3
LS_VENV := .venv-ls
LS_VERSION := 1.23.2
LS_STAMP := $(LS_VENV)/.installed-label-studio-$(LS_VERSION)-$(shell sha1sum mk/label-studio-constraints.txt | cut -c1-12)

.PHONY: ls-install

ls-install: $(LS_STAMP)

$(LS_STAMP): mk/label-studio-constraints.txt
	test -x $(LS_VENV)/bin/python || $(PYTHON) -m venv $(LS_VENV)
	$(LS_VENV)/bin/python -m pip install -q -c mk/label-studio-constraints.txt --upgrade pip
	$(LS_VENV)/bin/python -m pip install -q -c mk/label-studio-constraints.txt label-studio==$(LS_VERSION)
	# A migrated empty database that every new server data folder starts from (first start: seconds).
	rm -rf $(LS_VENV)/kmmlu-template && mkdir -p $(LS_VENV)/kmmlu-template
	LABEL_STUDIO_BASE_DATA_DIR=$(CURDIR)/$(LS_VENV)/kmmlu-template LATEST_VERSION_CHECK=false \
	  $(LS_VENV)/bin/label-studio version >/dev/null
	rm -f $(LS_VENV)/.installed-label-studio-*; touch $@
