"""`tabletop serve`: the browser table. A local web server (Starlette on uvicorn) where
people play the bundled games from a browser, each through a secret link to their own
seat, against each other or computer players; games are saved after every decision and
survive a restart. The web framework is an optional extra: `pip install tabletop[serve]`.
"""
