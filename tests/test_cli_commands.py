"""The ``kmmlu`` command list: every command is listed with its own help, and listing them (or running a
light command) imports none of the heavy packages the other commands need."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest
import typer.main

from kmmlu_cli import COMMANDS, load_command

HEAVY = ("prefect", "label_studio_sdk", "datasketch", "pymupdf", "torch", "transformers", "huggingface_hub",
         "pyarrow")


def imported_by(*argv: str) -> list[str]:
    code = ("import sys\nfrom kmmlu_cli import main\nsys.argv = ['kmmlu', *sys.argv[1:]]\ntry:\n    main()\n"
            "except SystemExit:\n    pass\n"
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120)
    return proc.stderr.split()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_listed_command_loads_with_the_help_it_is_listed_with(name):
    command = load_command(name)
    assert " ".join((command.help or "").split("\n\n")[0].split()) == COMMANDS[name].summary
    assert command.params or getattr(command, "commands", None), f"{name} lists no options"


def test_every_command_of_every_module_is_listed():
    for module in {listed.module for listed in COMMANDS.values() if not listed.group}:
        commands = typer.main.get_group(importlib.import_module(f"kmmlu_cli.{module}").cli).commands
        assert set(commands) <= set(COMMANDS), f"kmmlu_cli.{module}: {sorted(set(commands) - set(COMMANDS))} unlisted"


def test_help_and_catalog_import_no_heavy_package():
    assert imported_by("--help") == []
    assert imported_by("catalog") == []


def test_a_subcommands_help_lists_its_options():
    proc = subprocess.run([sys.executable, "-c", "from kmmlu_cli import main; main()", "release", "cut", "--help"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 0 and "--version" in proc.stdout and "--private-fraction" in proc.stdout, proc.stderr
