"""The scoresheet on the players' phones at the table (issue 16): the table code, entering games
from the table, calling the supervisor for an approval, signing there."""
