from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Schafkopf tournament")

    def ready(self) -> None:
        """A layer asks the capabilities above it only through what they register here (README
        "Layout"). The imports are here, not at the top, because Django imports this module
        before the models exist."""
        from .draw import services as draw_service
        from .draw import sheets
        from .exchange import jobs as exchange_jobs
        from .jobs import runner
        from .printing import jobs as printing_jobs
        from .prizes import services as prize_service
        from .results import keeper
        from .standings import views as standings_views
        from .teams import standings as team_standings
        from .tournaments import prize_places
        from .tournaments import services as tournament_service

        tournament_service.drawn.fill(draw_service.drawn)
        tournament_service.sync_matches.fill(draw_service.sync_matches)
        tournament_service.has_results.fill(keeper.has_results)
        sheets.results_count.fill(keeper.results_count)
        sheets.entries.fill(keeper.entries)
        sheets.create.fill(keeper.open_sheets)
        sheets.move.fill(keeper.move_sheets)
        sheets.lock.fill(keeper.lock_sheets)
        sheets.closed.fill(keeper.closed_sheets)
        standings_views.team_standings.fill(team_standings.compute)
        prize_places.declared.fill(prize_service.declared_places)
        runner.BUILDERS.update(printing_jobs.BUILDERS)
        runner.BUILDERS.update(exchange_jobs.BUILDERS)
