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
    """The cwx modules `module` imports, each with whether the import runs at its top
    level: not one inside a function, nor one under `if TYPE_CHECKING:`, which runs
    nothing but still ties the module to what it names for its types."""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]

    def walk(node: ast.AST, top: bool) -> Iterator[tuple[str, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                yield from walk(ast.Module(body=child.body, type_ignores=[]), False)
                yield from walk(ast.Module(body=child.orelse, type_ignores=[]), top)
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


# From the bottom up (docs/design.md, "The layers"): each package a layer, and a module
# imports from its own layer or one below it.
LAYERS = ("base", "toml", "rules", "systems", "journal", "git", "store", "campaign", "cli",
          "commands")
# Within the order, what a layer may still not import: the journal folds the events and
# values it is given, and reads no sheet.
NEVER = {"journal": ("cwx.systems.sheets", "cwx.systems.templates")}
ENTRY_POINTS = ("cwx", "cwx.__main__")  # cwx/__init__.py and cwx/__main__.py


def _layer(module: str) -> str | None:
    """The layer a module sits in: its package under cwx/, when that is one of LAYERS."""
    parts = module.split(".")
    inside = len(parts) > 2 or (len(parts) == 2 and MODULES[module].name == "__init__.py")
    return parts[1] if inside and parts[1] in LAYERS else None


def _lowest_layer_for(module: str) -> str:
    """The lowest layer whose modules may import everything `module` imports."""
    reached = [LAYERS.index(layer) for name, _ in GRAPH[module]
               if (layer := _layer(name)) is not None]
    return LAYERS[max(reached, default=0)]


def test_every_module_sits_in_the_package_of_its_layer() -> None:
    outside = [f"cwx/{MODULES[module].relative_to(PACKAGE)} sits in no layer: move it into "
               f"cwx/{_lowest_layer_for(module)}/ (the lowest layer its imports allow) or "
               f"one above it, as docs/design.md's \"The layers\" says"
               for module in MODULES if module not in ENTRY_POINTS and _layer(module) is None]
    assert not outside, "\n".join(outside)


def test_a_new_flat_module_is_told_where_it_goes() -> None:
    # A module written straight into cwx/ that imports the journal's lines and, inside a
    # function, the campaign's folder: the check above names it and the layer it needs.
    MODULES["cwx.newcomer"] = PACKAGE / "newcomer.py"
    GRAPH["cwx.newcomer"] = {("cwx.journal.lines", True), ("cwx.campaign.folder", False)}
    try:
        with pytest.raises(AssertionError, match=r"cwx/newcomer\.py sits in no layer: move "
                                                 r"it into cwx/campaign/ "):
            test_every_module_sits_in_the_package_of_its_layer()
    finally:
        del MODULES["cwx.newcomer"], GRAPH["cwx.newcomer"]


@pytest.mark.parametrize("layer", LAYERS)
def test_no_module_imports_from_a_layer_above_its_own(layer: str) -> None:
    wrong = []
    for module in sorted(MODULES):
        if _layer(module) != layer:
            continue
        for name, _ in sorted(GRAPH[module]):
            other = _layer(name)
            if (other is not None and LAYERS.index(other) > LAYERS.index(layer)) or \
                    name.startswith(NEVER.get(layer, ())):
                wrong.append(f"{module} ({layer}) imports {name} ({other})")
    assert not wrong, "\n".join(wrong)


def test_a_layers_package_loads_nothing_of_its_own() -> None:
    # Importing one module of a layer runs its package's __init__.py first: an import
    # there would load the layer's other modules into every command (tests/test_startup.py).
    # The table of systems and the command line's two packages hold code of their own.
    for layer in LAYERS:
        if layer in ("systems", "cli", "commands"):
            continue
        assert (PACKAGE / layer / "__init__.py").read_text() == "", layer


def test_only_the_command_line_imports_the_command_line() -> None:
    for module, imported in GRAPH.items():
        if module.startswith(("cwx.cli", "cwx.commands")) or module in ("cwx.__main__",):
            continue
        wrong = sorted(name for name, _ in imported if name.startswith(("cwx.cli", "cwx.commands")))
        assert not wrong, f"{module} imports {wrong}"


def test_no_circle_of_imports_even_inside_functions() -> None:
    # A function-level import is for start-up cost only, and one for types only runs
    # nothing; one that would close a circle if it ran at the top hides a tangle, and is
    # refused as the circle itself would be.
    circles = sorted(module for module in MODULES if module in _reaches(module)
                     and module not in ("cwx", "cwx.cli", "cwx.commands"))
    assert circles == []


def test_the_graph_sees_imports_inside_functions() -> None:
    # The checks above would pass on a graph that missed them: it must not.
    assert ("cwx.campaign.seal", False) in GRAPH["cwx.commands.clock"]
    assert ("cwx.journal.lines", True) in GRAPH["cwx.journal.ledger"]
    # and the table's entries, which it loads when they are first asked for
    assert ("cwx.systems.clockworx", False) in GRAPH["cwx.systems"]
    # and imports for types alone
    assert ("cwx.campaign.folder", False) in GRAPH["cwx.campaign.guesses"]


# ---------------------------------------------------------------- the tables

# Where the campaign's operations open their changes (operations.py names them all).
OPERATIONS = ("cwx.campaign.operations", "cwx.campaign.clockplay", "cwx.campaign.wheelplay",
              "cwx.campaign.accounts")


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
    for module in [*(f"cwx.commands.{name}" for name in groups), *OPERATIONS]:
        for call in ast.walk(ast.parse(MODULES[module].read_text())):
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
               "cwx.systems.results",
               "cwx.campaign.clockplay", "cwx.campaign.wheelplay",  # a system's operations
               *(f"cwx.systems.{name}" for name in systems.names()),
               *(f"cwx.commands.{name}" for name in ("clock", "wheel", "bag", "luck", "odds", "game",
                                                     "audit"))}
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


def _operations() -> set[str]:
    """The campaign's operations: the methods operations.Campaign adds, but for how it is
    made and how it opens a change."""
    made = {"__init__", "around", "like", "elsewhere", "change", "reading", "opener"}
    for node in ast.walk(ast.parse(MODULES["cwx.campaign.operations"].read_text())):
        if isinstance(node, ast.ClassDef) and node.name == "Campaign":
            return {item.name for item in node.body
                    if isinstance(item, ast.FunctionDef) and item.name not in made}
    raise AssertionError("operations.py holds no Campaign")


def _calls_of(node: ast.AST, names: set[str]) -> list[str]:
    """The operations `node` calls on the campaign: here()'s, or `camp` made by it (a rule of
    the same name, clockworx.resolve, is no operation)."""
    return [call.func.attr for call in ast.walk(node) if isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute) and call.func.attr in names
            and (ast.unparse(call.func.value).startswith("here(")
                 or ast.unparse(call.func.value) == "camp")]


def test_each_changing_command_calls_one_operation() -> None:
    # A command parses, calls one operation of the campaign, and shows what it returned:
    # what it does to the campaign is the operation's, and a bot does the same (api.md).
    from cwx.cli import common, lazy

    operations = _operations()
    assert {"resolve", "draw", "reveal", "undo", "sync"} <= operations, operations
    # A scene plays other commands, each calling its own operation.
    changing = (set(common.SHARED) - {"play"}) | {"sync", "init"}
    seen: dict[str, int] = {}
    for group in lazy.commands("cwx.commands"):
        tree = ast.parse(MODULES[f"cwx.commands.{group}"].read_text())
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            named = [call.args[0].value for decorator in node.decorator_list
                     if isinstance(call := decorator, ast.Call) and call.args
                     and isinstance(call.args[0], ast.Constant)
                     and ast.unparse(call.func) == "app.command"]
            calls = _calls_of(node, operations)
            if not named:  # a helper calls none: one call a command, where it can be seen
                assert calls == [], f"commands/{group}.py: {node.name} calls {calls}"
                continue
            command = group if named[0] == group else f"{group} {named[0]}"
            seen[command] = len(calls)
            assert len(calls) <= 1, f"cwx {command} calls {calls}"
    missing = sorted(command for command in changing if seen.get(command) != 1)
    assert missing == [], f"these commands call no operation of the campaign: {missing}"


# ---------------------------------------------------------------- one journal model

# Reading the journal's lines is the journal package's alone (issue 29, item 1): outside
# cwx/journal, a command asks cwx/journal/history.py, the query layer over its one parser,
# and calls none of the readers below. A json.loads counts as a reader too, but where
# OTHER_JSON says it reads JSON of another kind.
_READING = {"parse", "holding", "read", "read_raw", "events_in", "lines_of", "lines_from_end",
            "stamp_of", "latest", "last_action", "Timeline", "loads"}
# The functions outside cwx/journal whose json.loads reads JSON that is no journal line,
# and what it reads instead: any other json.loads is counted as reading the journal.
OTHER_JSON = {("cwx.store.redo", "_decode"): "a redo record (.cwx-redo-*.json)"}


def _loads_json(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "loads" and \
        isinstance(node.value, ast.Name) and node.value.id == "json"


def _reads_lines(node: ast.AST) -> bool:
    """A call of the journal's readers or of json.loads; a Timeline made (named as a
    type, it reads nothing)."""
    if isinstance(node, ast.Attribute):
        return node.attr in _READING and isinstance(node.value, ast.Name) and \
            node.value.id in ("journal", "json")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id == "Timeline"


def _other_json(module: str, tree: ast.AST) -> set[ast.AST]:
    """The json.loads in the functions OTHER_JSON names for `module`: no journal read."""
    return {node for function in ast.walk(tree) if isinstance(function, ast.FunctionDef)
            and (module, function.name) in OTHER_JSON
            for node in ast.walk(function) if _loads_json(node)}


def _reads_journal(module: str) -> bool:
    tree = ast.parse(MODULES[module].read_text())
    other = _other_json(module, tree)
    return any(_reads_lines(node) and node not in other for node in ast.walk(tree))


def test_json_read_as_no_journal_is_named_where_it_is() -> None:
    # Each exception still reads its JSON where it is said to, so none outlives its reason.
    for (module, function), what in OTHER_JSON.items():
        assert _other_json(module, ast.parse(MODULES[module].read_text())), \
            f"{module}.{function} reads {what} with json.loads no longer: take it off"


def test_only_the_journal_package_reads_journal_lines() -> None:
    reading = {module for module in MODULES if not module.startswith("cwx.journal") and
               _reads_journal(module)}
    planted = ast.parse("for item in journal.holding(path, (b'x',)): pass")
    assert any(map(_reads_lines, ast.walk(planted)))  # the search finds a reader, not none
    assert reading == set(), "reads journal lines outside cwx/journal: ask cwx/journal/history.py"
