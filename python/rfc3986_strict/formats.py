"""JSON Schema formats checked strictly with this package: a ``jsonschema.FormatChecker``.

==================  ==========================================================
format              rule
==================  ==========================================================
``uri``             ``URI`` (RFC 3986 section 3: a scheme, then the rest)
``uri-reference``   ``URI-reference`` (RFC 3986 4.1: a URI or a relative reference)
``iri``             ``IRI`` (RFC 3987 section 2.2)
``iri-reference``   ``IRI-reference`` (RFC 3987 section 2.2)
``uri-template``    ``URI-Template`` (RFC 6570 section 2)
==================  ==========================================================

As JSON Schema says (2020-12 Validation, 7.1), a format applies only to strings: any other instance
conforms.

>>> import jsonschema
>>> from rfc3986_strict.formats import format_checker
>>> checker = format_checker()
>>> jsonschema.validate("https://example.com/a", {"format": "uri"}, format_checker=checker)
>>> checker.conforms("//example.com/a", "uri"), checker.conforms("//example.com/a", "uri-reference")
(False, True)
>>> checker.conforms("https://example.com/{user}{?q,lang}", "uri-template"), checker.conforms("/{a", "uri-template")
(True, False)
"""

from __future__ import annotations

from typing import Callable, Optional

import jsonschema

from ._errors import ParseError
from ._native import TemplateError, validate, validate_iri, validate_template

__all__ = ["FORMATS", "format_checker"]


def _template(text: str, rule: str) -> None:
    validate_template(text)


def _checker(check: Callable[[str, str], None], rule: str) -> Callable[[object], bool]:
    def conforms(instance: object) -> bool:
        if not isinstance(instance, str):
            return True
        try:
            check(instance, rule)
        except UnicodeEncodeError:
            # A str with lone surrogates is no sequence of Unicode characters, so no URI.
            return False
        return True

    conforms.__name__ = f"is_{rule.replace('-', '_').lower()}"
    conforms.__doc__ = f"Whether a string instance matches the ABNF rule {rule}; non-strings conform."
    return conforms


#: The formats this package checks, with the function jsonschema calls for each.
FORMATS: dict[str, Callable[[object], bool]] = {
    "uri": _checker(validate, "URI"),
    "uri-reference": _checker(validate, "URI-reference"),
    "iri": _checker(validate_iri, "IRI"),
    "iri-reference": _checker(validate_iri, "IRI-reference"),
    "uri-template": _checker(_template, "URI-Template"),
}


def format_checker(checker: Optional[jsonschema.FormatChecker] = None) -> jsonschema.FormatChecker:
    """A ``FormatChecker`` whose ``uri``, ``uri-reference``, ``iri``, ``iri-reference`` and
    ``uri-template`` are this package's (strict RFC 3986 / RFC 3987 / RFC 6570).

    Without an argument it starts from a new ``jsonschema.FormatChecker()`` (every format jsonschema
    knows); given a checker, it registers the five formats on it and returns it. A rejected string
    gives a ``ValidationError`` whose ``cause`` is the :class:`rfc3986_strict.ParseError` (offset,
    kind, expected items, hint), or for ``uri-template`` the :class:`rfc3986_strict.TemplateError`.
    """
    if checker is None:
        checker = jsonschema.FormatChecker()
    for name, fn in FORMATS.items():
        checker.checks(name, raises=(ParseError, TemplateError))(fn)
    return checker
