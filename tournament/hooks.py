"""A question a lower layer asks and a capability above it answers (README "Layout"): the lower
layer holds the ``Slot``, the capability fills it at start-up (tournament/apps.py), so imports
run downwards only. An unfilled slot is a mistake of the wiring, said as such."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured


class Slot:
    """One function, named by the question it answers, called as the slot itself."""

    def __init__(self, question: str) -> None:
        self.question = question
        self.answer: Callable[..., Any] | None = None

    def fill(self, answer: Callable[..., Any]) -> None:
        self.answer = answer

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.answer is None:
            raise ImproperlyConfigured(f"Nobody answers “{self.question}”: see tournament/apps.py.")
        return self.answer(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<Slot {self.question!r}>"
