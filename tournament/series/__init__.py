"""A club's player register and its series of tournaments (Cup, Liga; issue 17)."""
