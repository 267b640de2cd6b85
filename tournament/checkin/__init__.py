"""The day at the door (issue 17): participants checked in, no-shows marked, entry fees taken."""
