# Every test here runs with PREPARED_QUERIES on and off (tests/tournament/prepared_ways.py).
from ..prepared_ways import prepared_queries, pytest_generate_tests  # noqa: F401
