"""No module of the app over 600 lines (issue 26): a module that grows past it is split by job."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 600


def line_counts(root: Path) -> dict[str, int]:
    """The lines of every module under scoring/ and tournament/, migrations left out."""
    return {
        str(path.relative_to(root)): len(path.read_text(encoding="utf-8").splitlines())
        for package in ("scoring", "tournament")
        for path in sorted((root / package).rglob("*.py"))
        if "migrations" not in path.relative_to(root).parts
    }


def over_limit(root: Path) -> dict[str, int]:
    return {name: lines for name, lines in line_counts(root).items() if lines > LIMIT}


def test_no_module_is_over_600_lines():
    counts = line_counts(ROOT)
    assert len(counts) > 100 and "tournament/exchange/reader/document.py" in counts  # the app's own
    assert not over_limit(ROOT), f"modules over {LIMIT} lines (split them by job): {over_limit(ROOT)}"


def test_the_check_counts_lines_and_leaves_migrations_out(tmp_path):
    for name, lines in {
        "tournament/big.py": LIMIT + 1,
        "tournament/results/fits.py": LIMIT,
        "scoring/deep/big.py": LIMIT + 50,
        "tournament/migrations/0001_initial.py": 3 * LIMIT,
        "tournament/readme.txt": 3 * LIMIT,
    }.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n" * lines, encoding="utf-8")
    assert over_limit(tmp_path) == {"tournament/big.py": LIMIT + 1, "scoring/deep/big.py": LIMIT + 50}
