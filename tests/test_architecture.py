"""The house rules, held as tests: the library stands on its own, each outside service has one adapter, no
import cycles, no giant modules, every command documented.

Each rule is a function over a source tree, so ``test_each_rule_catches_its_violation`` can show it failing on a
small tree that breaks it."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = "curation"
MAX_LINES = 400

# Packages the library must never import: orchestration and the command line sit above it.
ABOVE_THE_LIBRARY = ("prefect", "prefect_dask", "prefect_ray", "flows", "kmmlu_cli")

# Each outside service, and the one library module (its adapter) allowed to import it.
ADAPTERS = {
    "httpx": {"curation/sources/http.py", "curation/review/client.py"},
    "label_studio_sdk": {"curation/review/client.py"},
    "huggingface_hub": {"curation/release/hub.py"},
    # the hf backend runs models; random_model builds the tiny random one it runs on CPU
    "transformers": {"curation/evaluate/backends/hf.py", "curation/evaluate/random_model.py"},
}
# The one module that starts the Tesseract binary.
TESSERACT_ADAPTER = "curation/ocr/tesseract.py"


def modules(root: Path, package: str) -> Iterator[tuple[str, Path]]:
    for path in sorted((root / package).rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        yield ".".join(parts), path


def imports_of(path: Path, module: str) -> Iterator[tuple[str, int, bool]]:
    """(imported module, line, at module level) for every import in the file, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno, id(node) in top_level
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base, node.lineno, id(node) in top_level
            for alias in node.names:  # `from pkg import submodule`
                yield f"{base}.{alias.name}", node.lineno, id(node) in top_level


def _is(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def imports_from_above(root: Path) -> list[str]:
    return [
        f"{path.relative_to(root)}:{line} imports {name}"
        for module, path in modules(root, LIBRARY)
        for name, line, _ in imports_of(path, module)
        if any(_is(name, above) for above in ABOVE_THE_LIBRARY)
    ]


def services_outside_their_adapter(root: Path) -> list[str]:
    found = []
    for module, path in modules(root, LIBRARY):
        rel = path.relative_to(root).as_posix()
        for name, line, _ in imports_of(path, module):
            for service, adapters in ADAPTERS.items():
                if _is(name, service) and rel not in adapters:
                    found.append(f"{rel}:{line} imports {service} (only {', '.join(sorted(adapters))} may)")
        if rel != TESSERACT_ADAPTER:
            for line in _tesseract_commands(path):
                found.append(f"{rel}:{line} runs tesseract (only {TESSERACT_ADAPTER} may)")
    return sorted(set(found))


def _tesseract_commands(path: Path) -> Iterator[int]:
    """Lines that start the binary or look for it: a command list beginning with "tesseract", which("tesseract")."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.List, ast.Tuple)) and node.elts and _is_tesseract(node.elts[0]):
            yield node.lineno
        elif isinstance(node, ast.Call) and any(_is_tesseract(arg) for arg in node.args[:1]):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("which", "run", "Popen", "check_output", "call"):
                yield node.lineno


def _is_tesseract(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == "tesseract"


def import_cycles(root: Path) -> list[str]:
    """Cycles among the library's module-level imports (imports inside functions run later and are free)."""
    known = dict(modules(root, LIBRARY))
    graph: dict[str, set[str]] = {m: set() for m in known}
    for module, path in known.items():
        ancestors = {".".join(module.split(".")[:k]) for k in range(1, module.count(".") + 1)}
        for name, _, top in imports_of(path, module):
            # importing a.b.c runs a/__init__ and a/b/__init__ first (those of the importer's own packages already run)
            parts = name.split(".")
            for target in (".".join(parts[:k]) for k in range(2, len(parts) + 1)):
                if top and target in known and target != module and target not in ancestors:
                    graph[module].add(target)
    cycles, state, stack = [], {}, []

    def visit(node: str) -> None:
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return cycles


def oversized_modules(root: Path) -> list[str]:
    return [
        f"{path.relative_to(root)} has {n} lines (limit {MAX_LINES})"
        for _, path in modules(root, LIBRARY)
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]


def cli_words(command: click.Command, path: tuple[str, ...] = ()) -> Iterator[tuple[str, list[str]]]:
    """(command path, its options) for every command of the CLI, groups walked into."""
    if hasattr(command, "commands"):
        for name, sub in command.commands.items():
            yield from cli_words(sub, (*path, name))
        return
    options = [o for p in command.params for o in [*p.opts, *p.secondary_opts] if o.startswith("--") and o != "--help"]
    yield " ".join(path), options


def undocumented(readme: str, command: click.Command) -> list[str]:
    """Commands without their block in the README's command reference, and options missing from their block."""
    missing = []
    for path, options in cli_words(command):
        block = _reference_block(readme, path)
        if block is None:
            missing.append(f"command `kmmlu {path}`")
            continue
        missing += [f"option {o} of `kmmlu {path}`" for o in options if f"`{o}`" not in block]
    return missing


def _reference_block(readme: str, path: str) -> str | None:
    """The text under ``#### `kmmlu PATH ...` `` up to the next heading."""
    lines = readme.splitlines()
    for at, line in enumerate(lines):
        if line.startswith(f"#### `kmmlu {path}`") or line.startswith(f"#### `kmmlu {path} "):
            rest = lines[at + 1 :]
            end = next((k for k, text in enumerate(rest) if text.startswith("#")), len(rest))
            return "\n".join(rest[:end])
    return None


def kmmlu_command() -> click.Group:
    """The whole CLI with every command's module loaded (``kmmlu --help`` lists them before they load)."""
    from kmmlu_cli import COMMANDS, load_command

    return click.Group("kmmlu", commands={name: load_command(name) for name in COMMANDS})


def test_the_library_imports_neither_prefect_flows_nor_the_cli():
    assert imports_from_above(ROOT) == []


def test_each_outside_service_is_used_through_its_one_adapter():
    assert services_outside_their_adapter(ROOT) == []


def test_no_import_cycles():
    assert import_cycles(ROOT) == []


def test_no_library_module_over_400_lines():
    assert oversized_modules(ROOT) == []


def test_every_command_and_option_is_in_the_readme():
    assert undocumented((ROOT / "README.md").read_text(encoding="utf-8"), kmmlu_command()) == []


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    "files, rule",
    [
        ({"curation/__init__.py": "", "curation/stage.py": "from prefect import task\n"}, imports_from_above),
        ({"curation/__init__.py": "", "curation/stage.py": "def f():\n    import flows.refresh\n"}, imports_from_above),
        ({"curation/__init__.py": "", "curation/parse/__init__.py": "", "curation/parse/x.py": "import httpx\n"},
         services_outside_their_adapter),
        ({"curation/__init__.py": "", "curation/keys.py": "import subprocess\nsubprocess.run(['tesseract'])\n"},
         services_outside_their_adapter),
        ({"curation/__init__.py": "", "curation/keys.py": "import shutil\nshutil.which('tesseract')\n"},
         services_outside_their_adapter),
        ({"curation/__init__.py": "", "curation/a.py": "from curation import b\n", "curation/b.py": "import curation.a\n"},
         import_cycles),
        ({"curation/__init__.py": "", "curation/big.py": "x = 1\n" * 401}, oversized_modules),
    ],
)
def test_each_rule_catches_its_violation(tmp_path, files, rule):
    assert rule(_tree(tmp_path, files)) != []


def test_the_readme_rule_catches_an_undocumented_option():
    @click.group()
    def cli():
        pass

    @cli.command("parse")
    @click.option("--ocr-dpi")
    def parse(ocr_dpi):
        pass

    assert undocumented("#### `kmmlu parse PAPER`\n\n| `--ocr` | |\n", cli) == ["option --ocr-dpi of `kmmlu parse`"]
    assert undocumented("#### `kmmlu parse PAPER`\n\n| `--ocr-dpi` | |\n", cli) == []
    assert undocumented("kmmlu parse --ocr-dpi", cli) == ["command `kmmlu parse`"]
