"""Play and analyse in the browser: ``territory serve`` (docs/web.md).

Needs the ``web`` extra (``pip install 'territory-games[web]'``: Starlette and uvicorn);
``import territory`` never imports this package. ``create_app()`` (in ``app.py``) is the
ASGI app; ``session.py`` holds the games and talks to the engine; ``static/`` is the page
(plain HTML, JavaScript and CSS, no build step, nothing fetched from elsewhere).
"""
