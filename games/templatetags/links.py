"""`{% url %}` as Django's, with each URL worked out once a process for the same view and
arguments (a built-in of the site's templates: settings.TEMPLATES).

Django's `reverse` tries the view's patterns one by one with regular expressions for every
`{% url %}` a page prints: about 12 µs each on this project's machine, five in a save's answer
and its drawn change and dozens in a round page, each giving the same URL for the same
arguments as long as the URLconf and the script prefix are the same. Here a URL of a view named
with plain arguments (`int` or `str`, as every link of the site's templates has) is kept, by
URLconf, prefix, namespace, view and arguments, in a bounded cache; any other is worked out as
Django does."""

from functools import lru_cache

from django import template
from django.conf import settings
from django.template.defaulttags import URLNode, url
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape

register = template.Library()


def _plain(value) -> bool:
    """An int or a str (a literal's SafeString too), not a bool (True would be kept as 1)."""
    return isinstance(value, (int, str)) and not isinstance(value, bool)


class KeptURLNode(URLNode):
    def render(self, context):
        args = tuple(arg.resolve(context) for arg in self.args)
        kwargs = {name: value.resolve(context) for name, value in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        request = getattr(context, "request", None)
        if hasattr(request, "current_app"):
            current_app = request.current_app
        else:
            current_app = getattr(getattr(request, "resolver_match", None), "namespace", None)
        values = (*args, *kwargs.values())
        try:
            if isinstance(view_name, str) and all(_plain(value) for value in values):
                found = _kept(
                    get_urlconf() or settings.ROOT_URLCONF,
                    get_script_prefix(),
                    current_app,
                    view_name,
                    args,
                    tuple(sorted(kwargs.items())),
                )
            else:
                found = reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
            found = ""
        if self.asvar:
            context[self.asvar] = found
            return ""
        return conditional_escape(found) if context.autoescape else found


@lru_cache(maxsize=8192)
def _kept(urlconf, prefix, current_app, view_name, args, kwargs) -> str:
    """`reverse`'s answer; `prefix` (the thread's script prefix, which `reverse` reads itself)
    is part of what it is kept by."""
    return reverse(
        view_name, urlconf=urlconf, args=args, kwargs=dict(kwargs), current_app=current_app
    )


@register.tag(name="url")
def kept_url(parser, token):
    node = url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)


def url_of(view_name: str, *args) -> str:
    """What `{% url view_name *args %}` prints for a view of no namespace and plain arguments,
    kept as the tag keeps it: for drawing in Python what a template would link."""
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    return conditional_escape(_kept(urlconf, get_script_prefix(), None, view_name, args, ()))
