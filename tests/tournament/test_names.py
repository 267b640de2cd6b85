"""Names as people look for them (issue 28): one German order, one search, on every list."""

from tournament.names import name_matches, sort_key

GERMAN = ["Resi Bäuml", "Toni Brandl", "Höß, Franz", "Sepp Huber"]


def test_the_german_order_puts_umlauts_and_sharp_s_with_their_letters():
    """DIN 5007-1: ä as a, ö as o, ß as ss; by surname, whether written first or last."""
    assert sorted(reversed(GERMAN), key=sort_key) == GERMAN
    assert sorted(["Xaver Müller", "Anton Muller", "Zenzi Mahler"], key=sort_key) == [
        "Zenzi Mahler",
        "Anton Muller",
        "Xaver Müller",
    ]


def test_equal_keys_are_decided_by_the_name_as_written():
    assert sort_key("Sepp Müller") != sort_key("Sepp Muller")
    assert sorted(["Sepp Müller", "Sepp Muller"], key=sort_key) == sorted(
        ["Sepp Muller", "Sepp Müller"], key=sort_key
    )


def test_a_name_is_found_in_any_order_with_or_without_comma():
    for query in ("Sepp Huber", "Huber Sepp", "Huber, Sepp", "huber,sepp", "hub", "SEPP"):
        assert name_matches(query, "Sepp Huber"), query
        assert name_matches(query, "Huber, Sepp"), query
    assert not name_matches("Sepp Maier", "Sepp Huber")
    assert not name_matches("", "Sepp Huber")


def test_umlauts_are_found_in_every_spelling():
    for query in ("muller", "mueller", "Müller", "MÜLLER"):
        assert name_matches(query, "Xaver Müller"), query
    for query in ("Bauml", "Baeuml", "Bäuml"):
        assert name_matches(query, "Resi Bäuml"), query
    for query in ("Hoss", "Hoess", "Höß", "Hoß"):
        assert name_matches(query, "Franz Höß"), query
    assert name_matches("gruenwald", "Grünwald Sepp") and name_matches("Grünwald", "Gruenwald Sepp")
