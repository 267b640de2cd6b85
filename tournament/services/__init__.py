"""Every write goes through a service: it runs in a transaction, locks what it changes, checks
permissions and state, raises ``ServiceError`` with a translated message, and writes history."""

from .errors import ServiceError

__all__ = ["ServiceError"]
