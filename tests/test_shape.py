"""The shape of the code (docs/design.md, "The layers"): layers that never reach up, no
circle of imports even inside functions, one table of systems and one of event kinds,
and thin commands. Read from the source with ast, so a change that breaks a rule fails
here, by name."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import cwx
from cwx import systems
from cwx.journal import events

PACKAGE = Path(cwx.__file__).parent
MODULES = {".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(
    ".__init__"): path for path in sorted(PACKAGE.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports(tree: ast.AST, module: str) -> Iterator[tuple[str, bool]]:
    """The cwx modules `module` imports when it runs, each with whether the import is at
    its top level (an `if TYPE_CHECKING:` block runs nothing, so it is passed by)."""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]

    def walk(node: ast.AST, top: bool) -> Iterator[tuple[str, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                yield from (found for other in child.orelse for found in walk(other, top))
                continue
            if isinstance(child, ast.Import):
                yield from ((alias.name, top) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    base = ".".join([*package.split(".")[:len(package.split(".")) -
                                                         child.level + 1], base]).strip(".")
                for alias in child.names:  # `from cwx import journal` imports a module
                    yield (f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES
                           else base), top
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda))
            yield from walk(child, inner)

    for name, top in walk(tree, True):
        if name in MODULES and name != module:
            yield name, top


GRAPH = {module: set(_imports(ast.parse(path.read_text()), module))
         for module, path in MODULES.items()}


def _reaches(module: str) -> set[str]:
    """Every module `module` imports, directly or through others, at any depth."""
    seen: set[str] = set()
    pending = [module]
    while pending:
        for name, _ in GRAPH[pending.pop()]:
            if name not in seen:
                seen.add(name)
                pending.append(name)
    return seen


RULES = ("cwx.rules.clockworx", "cwx.rules.colorwheel", "cwx.rules.odds")
LEDGER = ("cwx.journal.ledger", "cwx.journal.lines", "cwx.journal.events", "cwx.journal.timeline")
SHEETS = ("cwx.systems.sheets", *(f"cwx.systems.{name}" for name in systems.names()), "cwx.systems")
FILES = ("cwx.campaign.files", "cwx.store.durable", "cwx.store.redo", "cwx.store.locks",
         "cwx.toml.tomlread", "cwx.toml.tomledit")
ABOVE = {
    "rules": ("cwx.campaign.files", "cwx.systems.sheets", "cwx.cli", "cwx.commands", "cwx.systems"),
    # The ledger folds events and values it is given: it reads no file, nor the campaign.
    "ledger": ("cwx.campaign.files", "cwx.store.durable", "cwx.systems.sheets",
               "cwx.campaign.folder", "cwx.cli", "cwx.commands"),
    "sheets": ("cwx.campaign.files", "cwx.cli", "cwx.commands"),
    "files": ("cwx.cli", "cwx.commands"),
}


@pytest.mark.parametrize(("layer", "modules"), [("rules", RULES), ("ledger", LEDGER),
                                                ("sheets", SHEETS), ("files", FILES)])
def test_no_layer_imports_one_above_it(layer: str, modules: tuple[str, ...]) -> None:
    for module in modules:
        wrong = sorted(name for name, _ in GRAPH[module]
                       if any(name == up or name.startswith(up + ".") for up in ABOVE[layer]))
        assert not wrong, f"{module} ({layer}) imports {wrong}"


def test_only_the_command_line_imports_the_command_line() -> None:
    for module, imported in GRAPH.items():
        if module.startswith(("cwx.cli", "cwx.commands")) or module in ("cwx.__main__",):
            continue
        wrong = sorted(name for name, _ in imported if name.startswith(("cwx.cli", "cwx.commands")))
        assert not wrong, f"{module} imports {wrong}"


def test_no_circle_of_imports_even_inside_functions() -> None:
    # A function-level import is for start-up cost only; one that would close a circle if
    # it moved to the top hides a tangle, and is refused as the circle itself would be.
    circles = sorted(module for module in MODULES if module in _reaches(module)
                     and module not in ("cwx", "cwx.cli", "cwx.commands"))
    assert circles == []


def test_the_graph_sees_imports_inside_functions() -> None:
    # The checks above would pass on a graph that missed them: it must not.
    assert ("cwx.campaign.seal", False) in GRAPH["cwx.commands.clock"]
    assert ("cwx.journal.lines", True) in GRAPH["cwx.journal.ledger"]
    # and the table's entries, which it loads when they are first asked for
    assert ("cwx.systems.clockworx", False) in GRAPH["cwx.systems"]


# ---------------------------------------------------------------- the tables


def _protocol_members(name: str) -> set[str]:
    """The members the Kind or System protocol (systems/parts.py, typing only) names."""
    tree = ast.parse(MODULES["cwx.systems.parts"].read_text())
    found: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name in ("Kind", "System"):
            found[node.name] = {item.target.id for item in node.body
                                if isinstance(item, ast.AnnAssign)
                                and isinstance(item.target, ast.Name)}
            found[node.name] |= {item.name for item in node.body
                                 if isinstance(item, ast.FunctionDef)}
    return found["Kind"] | (found["System"] if name == "System" else set())


def _protocol_methods() -> set[str]:
    tree = ast.parse(MODULES["cwx.systems.parts"].read_text())
    return {item.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            and node.name in ("Kind", "System") for item in node.body
            if isinstance(item, ast.FunctionDef)}


def test_every_entry_says_everything_its_kind_needs() -> None:
    assert set(systems.system_names()) == {"clockworx", "colorwheel"}
    for name, entry in zip(systems.names(), systems.kinds(), strict=True):
        # the table's name is the entry's, and a system's characters are in SYSTEMS alone
        assert name == entry.NAME
        assert (name in systems.SYSTEMS) == entry.CHARACTER
        wanted = _protocol_members("System" if entry.CHARACTER else "Kind")
        missing = sorted(member for member in wanted if not hasattr(entry, member))
        assert not missing, f"{entry.NAME} lacks {missing}"
        methods = _protocol_methods()
        assert all(callable(getattr(entry, member)) for member in wanted & methods)
        assert all(isinstance(kind, systems.EventKind) for kind in entry.EVENTS.values())


def test_every_command_that_journals_has_one_event_kind() -> None:
    from cwx.cli import lazy

    known = {name for entry in systems.kinds() for name in entry.EVENTS} | set(events.CAMPAIGN)
    groups = set(lazy.commands("cwx.commands"))
    said: set[str] = set()
    for module in groups:
        for call in ast.walk(ast.parse(MODULES[f"cwx.commands.{module}"].read_text())):
            # A change's name is the first argument of what opens it (changing, make, ...);
            # a command's own registration (command("init"), app.command) is not one.
            if isinstance(call, ast.Call) and call.args and \
                    isinstance(call.args[0], ast.Constant) and \
                    isinstance(call.args[0].value, str) and \
                    re.fullmatch(r"[a-z]+( [a-z]+)?( --[a-z]+)?", call.args[0].value) and \
                    call.args[0].value.split(" ")[0] in groups and \
                    ast.unparse(call.func) not in ("command", "app.command", "group"):
                journaled = not any(k.arg == "journaled" for k in call.keywords)
                if journaled:
                    said.add(call.args[0].value)
    assert len(said) >= 7, said  # the changes were found, not passed by
    assert said - known == set()


def test_no_system_or_key_of_one_is_named_outside_the_systems() -> None:
    # Which system a file plays, and how its keys count, are the registry's to say.
    # The audit is the Color Wheel's bag, replayed from the journal: a rules module of it.
    allowed = {"cwx.rules.clockworx", "cwx.rules.colorwheel", "cwx.rules.odds",
               "cwx.campaign.audit", "cwx.systems", "cwx.systems.parts", "cwx.systems.templates",
               *(f"cwx.systems.{name}" for name in systems.names()),
               *(f"cwx.commands.{name}" for name in ("clock", "wheel", "bag", "luck", "odds", "game",
                                                     "_wheel", "audit"))}
    words = {"clockworx", "colorwheel", "traits", "luck", "reserve"}
    for module, path in MODULES.items():
        if module in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    node.value.split(".")[0] in words and " " not in node.value:
                raise AssertionError(f"{path.name}:{node.lineno} names {node.value!r}")


# ---------------------------------------------------------------- thin commands


def test_no_function_of_the_command_line_is_over_40_lines() -> None:
    long = []
    for module, path in MODULES.items():
        if not module.startswith(("cwx.cli", "cwx.commands")):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body = node.body[1:] if ast.get_docstring(node) else node.body
                lines = body[-1].end_lineno - body[0].lineno + 1 if body else 0  # type: ignore[operator]
                if lines > 40:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []


def test_no_rule_is_refused_in_the_command_line() -> None:
    # The rules say what the game forbids, with data; commands word it (cli.common.saying).
    for module, path in MODULES.items():
        if module.startswith(("cwx.cli", "cwx.commands")):
            assert "raise RuleForbids" not in path.read_text(), module
