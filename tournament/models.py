"""Every model of the app, for Django to find: each lives in its capability's package."""

from .draw.models import Match, Seat, Table
from .jobs.models import Job
from .participants.models import Participant, Substitution, Team
from .prizes.models import PrizeDeclaration, PrizeLine
from .results.models import Approval, Correction, GameEntry, Scoresheet, Seal, Signature
from .series.models import Person, Series, SeriesNumber
from .standings.models import LotDraw
from .tablephone.models import ApprovalCall, PhoneReceipt
from .teams.models import TeamLotDraw
from .tournaments.models import LogEntry, OldSlug, StaffRole, Tournament
from .tournaments.organisations import (
    Organisation,
    OrganisationLogEntry,
    OrganisationMember,
    OrganisationRequest,
)

__all__ = [
    "Approval",
    "ApprovalCall",
    "Correction",
    "GameEntry",
    "Job",
    "LogEntry",
    "LotDraw",
    "Match",
    "OldSlug",
    "Organisation",
    "OrganisationLogEntry",
    "OrganisationMember",
    "OrganisationRequest",
    "Participant",
    "Person",
    "PhoneReceipt",
    "PrizeDeclaration",
    "PrizeLine",
    "Scoresheet",
    "Seal",
    "Seat",
    "Series",
    "SeriesNumber",
    "Signature",
    "StaffRole",
    "Substitution",
    "Table",
    "Team",
    "TeamLotDraw",
    "Tournament",
]
