"""The README's command reference, made from the CLI itself: `python tests/cli_reference.py` prints it (paste it
over the README's "Command reference" section); test_architecture.py fails while a command or option is missing."""

from __future__ import annotations

import sys
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def commands(group: click.Group, path: tuple[str, ...] = ()):
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from commands(command, (*path, name))
        else:
            yield (*path, name), command


def usage(command: click.Command) -> str:
    args = " ".join((p.name or "").upper() + ("..." if p.nargs == -1 else "") for p in command.params if p.param_type_name == "argument")
    return args


def block(path: tuple[str, ...], command: click.Command) -> str:
    lines = [f"#### `kmmlu {' '.join(path)}{(' ' + usage(command)) if usage(command) else ''}`", ""]
    summary = (command.help or "").strip().split("\n\n")[0].replace("\n", " ")
    if summary:
        lines += [summary, ""]
    options = [p for p in command.params if p.param_type_name == "option" and "--help" not in p.opts]
    if options:
        lines += ["| option | |", "|---|---|"]
        for option in options:
            names = " / ".join(f"`{o}`" for o in [*option.opts, *option.secondary_opts])
            text = (option.help or "").replace("|", "\\|").replace("\n", " ")
            lines.append(f"| {names} | {text} |")
        lines.append("")
    return "\n".join(lines)


def reference() -> str:
    from kmmlu_cli import COMMANDS, load_command

    whole = click.Group("kmmlu", commands={name: load_command(name) for name in COMMANDS})
    return "\n".join(block(path, command) for path, command in commands(whole))


if __name__ == "__main__":
    print(reference())
