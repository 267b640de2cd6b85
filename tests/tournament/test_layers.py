"""The layers of the house (README "Layout"): lint-imports checks who imports whom in make test;
this checks that no import hides inside a function to get round it."""

import ast
import importlib
import pkgutil
from pathlib import Path

import tournament
from tournament.hooks import Slot
from tournament.jobs import runner
from tournament.jobs.models import Job

ROOT = Path(tournament.__file__).parent

# Imports of the app inside a function that are there for a reason other than a cycle.
ALLOWED = {
    # Django imports apps.py before the models exist: what the capabilities register with the
    # layers below them is imported once they do.
    ("apps.py", "ready"),
}


def app_imports_in_functions(path: Path) -> list[tuple[str, int]]:
    """(function, line) of each import of a tournament module inside a function of the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom):
                modules = [] if inner.level else [inner.module or ""]
                relative = bool(inner.level)
            elif isinstance(inner, ast.Import):
                modules, relative = [alias.name for alias in inner.names], False
            else:
                continue
            if relative or any(module.split(".")[0] == "tournament" for module in modules):
                found.append((node.name, inner.lineno))
    return found


def test_no_import_of_the_app_hides_in_a_function():
    hidden = [
        f"{path.relative_to(ROOT)}:{line} in {function}()"
        for path in sorted(ROOT.rglob("*.py"))
        if "migrations" not in path.parts
        for function, line in app_imports_in_functions(path)
        if (str(path.relative_to(ROOT)), function) not in ALLOWED
    ]
    assert hidden == [], "imports inside functions (import at the top; register upwards): " + ", ".join(
        hidden
    )


def test_the_check_finds_a_hidden_import(tmp_path):
    module = tmp_path / "module.py"
    module.write_text("def f():\n    from ..draw import services\n    from tournament import hooks\n")
    assert app_imports_in_functions(module) == [("f", 2), ("f", 3)]


def test_every_slot_is_filled_at_start_up():
    """A lower layer's question nobody answers would fail only when asked (tournament/apps.py)."""
    slots = []
    for module in pkgutil.walk_packages(tournament.__path__, "tournament."):
        if ".migrations" in module.name or module.name.startswith(("tournament.settings", "tournament.wsgi")):
            continue
        found = vars(importlib.import_module(module.name)).items()
        slots += [(f"{module.name}.{name}", value) for name, value in found if isinstance(value, Slot)]
    assert slots  # the check reads something
    assert [name for name, slot in slots if slot.answer is None] == []


def test_every_kind_of_job_has_its_builder():
    assert set(runner.BUILDERS) == set(Job.Kind.values)
