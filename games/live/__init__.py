"""The live table: the one place that learns of a change and tells the phones following it.

A page that follows a table (the score table, a round, a game night) holds one stream of
server-sent events (`/games/<id>/stream/`, `/nights/<id>/stream/`). The stream carries word of
a change, never the change itself: the page then asks its live URL once, with the ETag of what
it shows, and swaps in what changed (static/js/live.js), so what a phone is shown is decided
by the same views, access checks and templates as every page.

- `announce`: a save, an undo, a finish or a reopen counts the game's version in its own
  transaction (`Game.changed`); on PostgreSQL it also sends a NOTIFY, delivered at commit to
  every worker of every server.
- `hub`: each server process (an ASGI worker) keeps its streams by game and night. It learns of
  changes by LISTEN on PostgreSQL, and on SQLite by reading the versions of the games its
  streams show, one query an interval for all of them. Before telling anyone it asks, once for
  all the streams of that game, who may still see it (`games.access.streams`).
- `asgi`: the site's ASGI application. The pages run as ever, Django's WSGI handler on a fixed
  pool of threads (each keeping its database connection); a stream's view answers its first
  event and hands the open response to the hub, so an idle stream holds neither a thread nor a
  database connection. Served another way (runserver, a WSGI server), a stream's view answers
  204 and the page polls its live URL instead.
"""
