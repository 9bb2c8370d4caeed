"""Django's Content-Security-Policy middleware, with the policy's headers built once.

Django builds the header from `SECURE_CSP` on every response (its directives sorted and joined,
a nonce put in where asked): about 25 µs of a 304 to a live poll that costs 300 µs, on every
answer of the site. The site's policy asks for no nonce, so its header is the same string on
every answer: built once for the settings as they are (again when a test changes them), and
Django's own way still taken where a view set a policy of its own or a nonce is asked for."""

from django.conf import settings
from django.middleware import csp
from django.utils.csp import CSP, build_policy


def _has_nonce(config) -> bool:
    return any(
        CSP.NONCE in (values if isinstance(values, list | tuple | set) else [values])
        for values in (config or {}).values()
    )


class ContentSecurityPolicyMiddleware(csp.ContentSecurityPolicyMiddleware):
    _built: tuple = (None, None, None)  # (enforced config, report-only config, headers)

    def _headers(self) -> list[tuple[str, str]] | None:
        """The policy's headers for the settings as they are; None where one asks a nonce."""
        enforce, report_only = settings.SECURE_CSP, settings.SECURE_CSP_REPORT_ONLY
        built_enforce, built_report_only, headers = self._built
        if enforce is built_enforce and report_only is built_report_only:
            return headers
        headers = None
        if not (_has_nonce(enforce) or _has_nonce(report_only)):
            pairs = [(CSP.HEADER_ENFORCE, enforce), (CSP.HEADER_REPORT_ONLY, report_only)]
            headers = [(str(name), build_policy(config)) for name, config in pairs if config]
        self._built = (enforce, report_only, headers)
        return headers

    def process_response(self, request, response):
        headers = self._headers()
        own = hasattr(response, "_csp_config") or hasattr(response, "_csp_ro_config")
        if headers is None or own:
            return super().process_response(request, response)
        for name, value in headers:
            if name not in response:  # a view's own header stays, as Django leaves it
                response.headers[name] = value
        return response
