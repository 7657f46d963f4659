"""The layering holds: the engine at the ground, each layer importing only from below, and
nobody reaching past ``app/engine/__init__.py`` or importing another module's private names.

Read from the source with ``ast``, so an import inside a function counts too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import app.engine

ROOT = Path(__file__).resolve().parent.parent
# Each layer may import from itself and the layers before it, never after.
LAYERS = ("app.engine", "app.ai", "app.web", "app.routes")


def _modules(*folders: str) -> Iterator[tuple[str, ast.Module]]:
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            yield name.removesuffix(".__init__"), ast.parse(path.read_text(), str(path))


def _imports(tree: ast.Module) -> Iterator[tuple[str, list[str], int]]:
    """(module, names imported from it, line) for every import; ``import x.y`` names nothing."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, [alias.name for alias in node.names], node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], node.lineno


OUTSIDE_THE_ENGINE = [
    (name, tree)
    for name, tree in _modules("app", "tests", "benchmarks", "devtools")
    if not name.startswith(("app.engine", "tests.engine"))
]


@pytest.mark.parametrize(("name", "tree"), OUTSIDE_THE_ENGINE, ids=[name for name, _ in OUTSIDE_THE_ENGINE])
def test_nothing_outside_the_engine_reaches_past_its_init(name: str, tree: ast.Module) -> None:
    public = set(app.engine.__all__)
    for module, names, line in _imports(tree):
        assert not module.startswith("app.engine."), f"{name}:{line} imports {module}; use what app.engine exports"
        if module == "app.engine":
            hidden = [n for n in names if n not in public]
            assert not hidden, f"{name}:{line} imports {hidden}, which app.engine does not export"


ALL_MODULES = list(_modules("app", "tests", "benchmarks", "devtools"))


@pytest.mark.parametrize(("name", "tree"), ALL_MODULES, ids=[name for name, _ in ALL_MODULES])
def test_no_module_imports_another_modules_private_names(name: str, tree: ast.Module) -> None:
    for module, names, line in _imports(tree):
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        assert not private, f"{name}:{line} imports private names {private} from {module}"


APP_MODULES = list(_modules("app"))


@pytest.mark.parametrize(("name", "tree"), APP_MODULES, ids=[name for name, _ in APP_MODULES])
def test_each_layer_imports_only_from_the_layers_below(name: str, tree: ast.Module) -> None:
    mine = next((i for i, layer in enumerate(LAYERS) if name == layer or name.startswith(layer + ".")), None)
    if mine is None:
        return  # app.main, app.cli, app.seal...: the top, or beside the layers
    for module, _, line in _imports(tree):
        theirs = next((i for i, layer in enumerate(LAYERS) if module == layer or module.startswith(layer + ".")), None)
        assert theirs is None or theirs <= mine, f"{name}:{line} imports {module}, a layer above {LAYERS[mine]}"


def test_the_checks_see_the_imports_they_judge() -> None:
    tree = ast.parse("from app.engine.melds import _meld\nimport app.engine.cards\n")
    assert list(_imports(tree)) == [("app.engine.melds", ["_meld"], 1), ("app.engine.cards", [], 2)]
