"""Play: tables, lobbies, moves, seat changes, clocks, deals, notices, resuming."""
