"""One module of the app imports another one way: no module of `games`, directly or through
others, imports a module that imports it back (a lookup shared by two views lives below both)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "games"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The app's modules that `path` imports, anywhere in it (inside functions too)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from package import module` needs the module; `from module import name`, the module.
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            targets = [t for t in submodules if t in modules] or [base]
        else:
            continue
        found |= {target for target in targets if target in modules}
    return found - {name}


def import_graph() -> dict[str, set[str]]:
    paths = [p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts]
    modules = {module_name(path) for path in paths}
    return {module_name(path): imports_of(path, modules) for path in paths}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, done = [], set()

    def visit(module, trail):
        if module in trail:
            found.append(trail[trail.index(module) :] + [module])
            return
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            visit(imported, trail + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    return found


def test_the_graph_is_read_from_the_code():
    graph = import_graph()
    assert (
        "games.lookups" in graph["games.views.rounds"]
        and "games.lookups" in graph["games.views.live"]
    )
    assert "games.models" in graph["games.lookups"]


def test_no_module_of_the_app_imports_one_that_imports_it_back():
    assert cycles(import_graph()) == []


def test_a_cycle_would_be_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
