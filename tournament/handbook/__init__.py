"""The handbook for the people on the day (issue 31): organiser, referee and supervisor, the
players, and whoever sets up the laptop or the server; served by the app in German and English,
with the pictures the browser tests take and every message explained."""
