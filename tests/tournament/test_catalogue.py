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
