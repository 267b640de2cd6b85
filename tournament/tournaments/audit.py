from .models import AuditEntry, Tournament


def record(tournament: Tournament, user, action: str, **detail) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament,
        user=user if getattr(user, "pk", None) else None,
        action=action,
        detail=detail,
    )
