"""The site's template backend: Django's, with numbers and dates printed as the site's own
settings format them rather than through the active language's formats.

The site is in English only (`USE_I18N = False`), so localizing a value finds the formats that
the settings give anyway; but Django looks them up for every number and date a template prints
(`formats.localize`: the language, its format modules, the setting, 3-4 calls for each), dozens
of times a page. A context that does not localize (`use_l10n=False`, as `{% localize off %}`
makes it) prints an integer with `str` and a date with the settings' format: the same text. A
template may still localize a value where it asks (`{% localize on %}`, `|localize`)."""

from django.template.backends.django import DjangoTemplates, Template, reraise
from django.template.context import make_context
from django.template.exceptions import TemplateDoesNotExist


class EnglishTemplate(Template):
    def render(self, context=None, request=None):
        context = make_context(context, request, autoescape=self.backend.engine.autoescape)
        context.use_l10n = False
        try:
            return self.template.render(context)
        except TemplateDoesNotExist as exc:
            reraise(exc, self.backend)


class EnglishTemplates(DjangoTemplates):
    def from_string(self, template_code):
        return EnglishTemplate(self.engine.from_string(template_code), self)

    def get_template(self, template_name):
        try:
            return EnglishTemplate(self.engine.get_template(template_name), self)
        except TemplateDoesNotExist as exc:
            reraise(exc, self)
