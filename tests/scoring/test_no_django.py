"""``scoring`` is pure Python: importing all of it in a fresh interpreter imports no Django."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import scoring

ROOT = Path(__file__).resolve().parents[2]


def test_scoring_imports_no_django():
    modules = [f"scoring.{m.name}" for m in pkgutil.iter_modules(scoring.__path__)]
    assert len(modules) >= 8
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(leaked))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
    )
    assert result.stdout.strip() == ""
