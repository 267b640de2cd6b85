"""Issue 29, item 2: organisations. Everything that exists belongs to one organisation, made here
(DEFAULT_ORGANISATION_NAME / _SLUG of the settings, "Verein" / "verein" unless set): every
tournament, person of the register and series. Who managed something before keeps doing so in it:
the users who could manage the register or the series (Django permissions add_person,
add_series) become its administrators; those who could create tournaments (add_tournament) and
the organisers of its tournaments become its members. Superusers need no membership. A fresh
installation gets none here: its first is made when first needed (``sole_organisation``), so that
it stays empty for a restore."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.models import Q

ADMIN_PERMISSIONS = ("add_person", "add_series")
MEMBER_PERMISSIONS = ("add_tournament",)


def _holding(user_model, codenames):
    return set(
        user_model.objects.filter(
            Q(user_permissions__codename__in=codenames, user_permissions__content_type__app_label="tournament")
            | Q(groups__permissions__codename__in=codenames, groups__permissions__content_type__app_label="tournament")
        ).values_list("pk", flat=True)
    )


def into_one_organisation(apps, schema_editor):
    organisation_model = apps.get_model("tournament", "Organisation")
    member_model = apps.get_model("tournament", "OrganisationMember")
    user_model = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    staff_role = apps.get_model("tournament", "StaffRole")
    owned = [apps.get_model("tournament", name) for name in ("Tournament", "Person", "Series")]
    admins = _holding(user_model, ADMIN_PERMISSIONS)
    members = _holding(user_model, MEMBER_PERMISSIONS)
    members |= set(staff_role.objects.filter(role="organiser").values_list("user_id", flat=True))
    if not admins and not members and not any(model.objects.exists() for model in owned):
        return  # a fresh installation: its organisation is made on first need (sole_organisation)
    organisation = organisation_model.objects.create(
        name=settings.DEFAULT_ORGANISATION_NAME, slug=settings.DEFAULT_ORGANISATION_SLUG
    )
    for model in owned:
        model.objects.update(organisation=organisation)
    member_model.objects.bulk_create(
        member_model(organisation=organisation, user_id=pk, is_admin=pk in admins)
        for pk in sorted(admins | members)
    )
    if schema_editor.connection.vendor == "postgresql":  # no pending checks before ALTER TABLE below
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def back(apps, schema_editor):
    """Backwards the columns go; nothing to undo in the rows."""


ORGANISATION = {
    "on_delete": django.db.models.deletion.PROTECT,
    "to": "tournament.organisation",
    "verbose_name": "organisation",
}


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0027_job_cancelled"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Organisation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=200, verbose_name="name")),
                (
                    "slug",
                    models.SlugField(
                        help_text="Used in the address of its page, e.g. /verein/sk-au/.",
                        max_length=80,
                        unique=True,
                        verbose_name="short name",
                    ),
                ),
                ("created", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name": "organisation",
                "verbose_name_plural": "organisations",
                "ordering": ["name", "id"],
            },
        ),
        migrations.CreateModel(
            name="OrganisationMember",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("is_admin", models.BooleanField(default=False, verbose_name="administrator")),
                ("created", models.DateTimeField(auto_now_add=True)),
                (
                    "organisation",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="members",
                        to="tournament.organisation",
                        verbose_name="organisation",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "member",
                "verbose_name_plural": "members",
                "ordering": ["organisation", "-is_admin", "user__username"],
                "constraints": [
                    models.UniqueConstraint(fields=("organisation", "user"), name="member_once_per_organisation")
                ],
            },
        ),
        migrations.AddField(
            model_name="tournament",
            name="organisation",
            field=models.ForeignKey(null=True, related_name="tournaments", **ORGANISATION),
        ),
        migrations.AddField(
            model_name="person", name="organisation", field=models.ForeignKey(null=True, **ORGANISATION)
        ),
        migrations.AddField(
            model_name="series", name="organisation", field=models.ForeignKey(null=True, **ORGANISATION)
        ),
        migrations.RunPython(into_one_organisation, back),
        migrations.AlterField(
            model_name="tournament",
            name="organisation",
            field=models.ForeignKey(related_name="tournaments", **ORGANISATION),
        ),
        migrations.AlterField(model_name="person", name="organisation", field=models.ForeignKey(**ORGANISATION)),
        migrations.AlterField(model_name="series", name="organisation", field=models.ForeignKey(**ORGANISATION)),
        migrations.CreateModel(
            name="OrganisationLogEntry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("action", models.CharField(max_length=60, verbose_name="action")),
                ("user_name", models.CharField(blank=True, max_length=150, verbose_name="by")),
                ("data", models.JSONField(blank=True, default=dict, verbose_name="details")),
                (
                    "created",
                    models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name="at"),
                ),
                (
                    "organisation",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="log",
                        to="tournament.organisation",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "organisation log entry",
                "verbose_name_plural": "organisations' log",
                "ordering": ["-created", "-id"],
            },
        ),
        migrations.CreateModel(
            name="OrganisationRequest",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=200, verbose_name="name")),
                ("reason", models.TextField(max_length=2000, verbose_name="reason")),
                (
                    "status",
                    models.CharField(
                        choices=[("open", "open"), ("approved", "approved"), ("declined", "declined")],
                        default="open",
                        max_length=20,
                        verbose_name="status",
                    ),
                ),
                ("created", models.DateTimeField(default=django.utils.timezone.now)),
                ("decided", models.DateTimeField(blank=True, null=True)),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "organisation",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tournament.organisation",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="asked by",
                    ),
                ),
            ],
            options={
                "verbose_name": "request for an organisation",
                "verbose_name_plural": "requests for an organisation",
                "ordering": ["-created", "-id"],
            },
        ),
    ]
