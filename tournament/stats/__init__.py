"""The players' own numbers (issue 30): statistics per player for a tournament, a season and the
whole register, the openskill rating, the cup's awards and the chart of a player's season."""
