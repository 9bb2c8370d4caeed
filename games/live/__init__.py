"""The live table: the one place that learns of a change and tells the phones following it.

A page that follows a table (the score table, a round, a game night) holds one stream of
server-sent events (`/games/<id>/stream/`, `/nights/<id>/stream/`). The stream carries word of
a change: the page then asks its live URL once, with the ETag of what it shows, and swaps in
what changed (static/js/live.js), so what a phone is shown is decided by the same views, access
checks and templates as every page. A round page's stream (`?round=<n>`) carries a save's or an
undo's change itself when its phone shows the version before: drawn once where it was made, by
the same templates, for each kind of viewer (`changes`), so the phones need not ask.

- `announce`: a save, an undo, a finish or a reopen counts the game's version in its own
  transaction (`Game.changed`); on PostgreSQL it also sends a NOTIFY, delivered at commit to
  every worker of every server.
- `changes`: where a save or an undo is made, the parts of its round page it changed are drawn
  for a member, a guest, and the guest link that may undo it, and kept a while (`LiveChange`).
- `hub`: each server process (an ASGI worker) keeps its streams by game and night. It learns of
  changes by LISTEN on PostgreSQL, and on SQLite by reading the versions of the games its
  streams show, one query an interval for all of them. Before telling anyone it asks, once for
  all the streams of that game, who may still see it (`games.access.streams`), and on the same
  trip to the database reads the change as drawn, to send on the streams one version behind.
- `asgi`: the site's ASGI application. The pages run as ever, Django's WSGI handler on a fixed
  pool of threads (each keeping its database connection); a stream's view answers its first
  event and hands the open response to the hub, so an idle stream holds neither a thread nor a
  database connection. Served another way (runserver, a WSGI server), a stream's view answers
  204 and the page polls its live URL instead.
"""
