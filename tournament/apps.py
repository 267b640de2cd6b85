from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Schafkopf tournament")

    def ready(self) -> None:
        """A layer asks the capabilities above it only through what they register here (README
        "Layout"). The imports are here, not at the top, because Django imports this module
        before the models exist."""
        from .exchange import jobs as exchange_jobs
        from .jobs import runner
        from .printing import jobs as printing_jobs

        runner.BUILDERS.update(printing_jobs.BUILDERS)
        runner.BUILDERS.update(exchange_jobs.BUILDERS)
