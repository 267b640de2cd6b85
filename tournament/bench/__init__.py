"""The performance targets of the issues, measured: ``manage.py bench [PART …]`` (``make bench``
points DATABASE_URL at a throwaway SQLite file) prints one table: figure, measured, target.

``parts.measure`` runs the parts asked for, one module each (``draw``, ``exchange``, ``pdf``
with filled-pdf, ``excel``, ``pages``, ``entry``, ``hall_standings``, ``table_entry``); ``load`` is
table-entry's load generator, ``phone_bytes`` its bytes of a phone, ``server`` the hall server
both hall parts start, ``data`` the tournaments they measure; ``figures`` and ``machine`` read
times and the machine, ``report`` prints the table."""
