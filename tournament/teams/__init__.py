"""Teams (Mannschaftswertung, issue 17): a club's four, a pair; ranked by their members."""
