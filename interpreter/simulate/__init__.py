"""Playing whole games without a person: playouts with agents, the record of a game
and the backends that run many games at once (processes, Ray)."""
