"""The prize list (Preisliste, issue 17): the money taken, the declared prizes, who gets what."""
