"""The German catalogue: complete, nothing fuzzy, every translation with its source's
placeholders."""

import re
from pathlib import Path

PO = Path(__file__).resolve().parents[2] / "tournament/locale/de/LC_MESSAGES/django.po"


def blocks():
    return PO.read_text(encoding="utf-8").split("\n\n")[1:]  # the header first


def joined(block, key):
    found = re.search(rf'^{key} ((?:".*"\n?)+)', block + "\n", re.M)
    return "".join(re.findall(r'"(.*)"', found.group(1))) if found else ""


def test_every_message_is_translated_and_none_is_fuzzy():
    untranslated = [
        joined(block, "msgid")
        for block in blocks()
        if not block.startswith("#~")
        and ("fuzzy" in block or (not joined(block, "msgstr") and "msgid_plural" not in block))
    ]
    assert untranslated == []


def test_every_translation_keeps_the_placeholders_of_its_source():
    """A translation with other placeholders breaks the page that shows it."""
    placeholder = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")
    checked = 0
    for block in blocks():
        if "msgid_plural" in block:
            continue
        source, target = joined(block, "msgid"), joined(block, "msgstr")
        if source and target:
            assert sorted(placeholder.findall(source)) == sorted(placeholder.findall(target)), (
                source,
                target,
            )
            checked += 1
    assert checked > 300


def test_every_text_the_code_translates_is_in_the_catalogue():
    """Each ``_("…")`` (gettext, gettext_lazy, ngettext) in the Python source has its
    entry: makemessages does not look into f-strings, and a text translated there lost its
    German when the catalogue was made again (the phone's "next game")."""
    import ast

    root = PO.parents[3]
    escapes = {"\\n": "\n", '\\"': '"', "\\\\": "\\", "\\t": "\t"}

    def unescaped(text: str) -> str:
        return re.sub(r"\\[n\"\\t]", lambda found: escapes[found.group()], text)

    known = {unescaped(joined(block, "msgid")) for block in blocks() if not block.startswith("#~")}
    names = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy"}
    missing = []
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts or "management" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in names
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ) and node.args[0].value not in known:
                missing.append(f"{path.relative_to(root)}:{node.lineno}: {node.args[0].value!r}")
    assert missing == []
