"""Pages and pictures that a secret link opens (a shared night, a guest link, an invitation):
for whoever holds the link, not for search engines."""

from functools import wraps


def not_indexed(view):
    """No search engine indexes the page or picture, or follows its links, whoever the link
    reaches (X-Robots-Tag, which covers the pictures as well as the pages)."""

    @wraps(view)
    def answered(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return answered
