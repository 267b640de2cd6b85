"""What was signed, as it was signed (issue 13): each signed sheet keeps the tournament's name and
date and the names on its seats as the players saw them. Sheets signed before keep their digest
in the form they were sealed with (digest_version 1), their names taken as they are now, which is
as they were signed: no page could rename anything under a signed sheet without breaking it."""

from django.db import migrations, models

from scoring.profiles import build_profile


def player_name(participant, substitutions, match: int, game: int) -> str:
    """Who played for the start number then (5.2.11), as Participant.player_name says."""
    current = participant.name
    for substitution in sorted(substitutions, key=lambda s: (s.from_match, s.from_game)):
        if (substitution.from_match, substitution.from_game) <= (match, game):
            current = substitution.name
    return current


def keep_what_was_signed(apps, schema_editor):
    Scoresheet = apps.get_model("tournament", "Scoresheet")
    Seat = apps.get_model("tournament", "Seat")
    Substitution = apps.get_model("tournament", "Substitution")
    signed = Scoresheet.objects.exclude(digest="").select_related("match__tournament", "table")
    for sheet in signed:
        tournament = sheet.match.tournament
        games = build_profile(tournament.profile, tournament.rule_overrides).games_per_match
        seats = Seat.objects.filter(table=sheet.table).select_related("participant").order_by("position")
        sheet.signed_as = {
            "tournament": {"name": tournament.name, "date": tournament.date.isoformat()},
            "seats": [
                {
                    "seat": seat.position,
                    "number": seat.participant.number,
                    "name": player_name(
                        seat.participant,
                        Substitution.objects.filter(participant=seat.participant),
                        sheet.match.number,
                        games,
                    ),
                }
                for seat in seats
            ],
        }
        sheet.digest_version = 1
        sheet.save(update_fields=["signed_as", "digest_version"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0009_discarded_draws"),
    ]

    operations = [
        migrations.AddField(
            model_name="scoresheet",
            name="digest_version",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AddField(
            model_name="scoresheet",
            name="signed_as",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(keep_what_was_signed, migrations.RunPython.noop),
    ]
