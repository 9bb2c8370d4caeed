"""A link as a QR code, for a phone at the table to open it with its camera."""

import segno


def qr_svg(link: str, title: str) -> str:
    """The link as a QR code, inline SVG drawn on the server (classes only, no style)."""
    code = segno.make(link, error="m")
    return code.svg_inline(scale=4, border=2, omitsize=True, svgclass="qr", title=title)
