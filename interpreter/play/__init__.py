"""A compiled game: the Game that creates states, tells who decides, lists the legal
options and carries out a choice (with run/, the runtime library). assemble/ fills it in;
agents, views and every tool above play it."""
