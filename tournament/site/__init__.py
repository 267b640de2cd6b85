"""Pages that compose several capabilities: the dashboard, the public overview, the referee's
board, retention."""
