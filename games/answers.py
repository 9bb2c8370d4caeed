"""The parts of a page a page's own script (htmx) asks for and swaps in."""

from django.shortcuts import render

# A refusal's status, where the answer to the page's script is 200 (`fragment`).
REFUSED = "X-Refused"


def status_read(status: int, refused: str | None) -> int:
    """An answer's status as its page reads it: the refusal's where X-Refused (`refused`) says
    one, else the HTTP status."""
    return int(refused) if refused else status


def fragment(request, template_name: str, context: dict, status: int = 200):
    """The part of a page htmx swaps in. A refusal (422: the entry or the photo is wrong; 409:
    another phone saved first) is answered 200, its status in the X-Refused header: browsers
    write each 4xx answer a script receives into the console as an error ("Failed to load
    resource"), and a hand refused is the page working, not failing. The page's script reads
    the refusal from the panel it swaps in, as before. Without JavaScript (a whole page) the
    status stays."""
    response = render(request, template_name, context)
    if status != 200:
        response[REFUSED] = str(status)
    return response
