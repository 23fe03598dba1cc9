"""The exception of a rejected input, :class:`ParseError`.

A plain Python class, raised by the compiled module with one argument, a diagnosis that holds the
input and what the parser found; the fields below are worked out from it when they are read, so
raising costs little and ``try: validate(s) except ParseError`` over many inputs pays for no message
it does not read. A ParseError pickles (multiprocessing, Dask) with all its fields.
"""

from __future__ import annotations

from typing import Optional

from ._native import _Diagnosis

__all__ = ["ParseError"]


class ParseError(ValueError):
    """The input is not in the language of the grammar rule (RFC 3986 Appendix A; RFC 3987 2.2 for
    the IRI functions).

    ``str(e)`` is ``at offset N: DETAIL`` (the message, the hint and the expected items). The messages
    (``str()``, ``message``, ``hint``) never name a character of a userinfo password (RFC 3986 3.2.1,
    7.5); ``input`` and ``found`` are the data as given. The fields are read-only.
    """

    def _diagnosis(self) -> _Diagnosis:
        d = self.args[0] if self.args else None
        if not isinstance(d, _Diagnosis):
            raise AttributeError("this ParseError was not raised by rfc3986_strict: it has no diagnosis")
        return d

    @property
    def offset(self) -> int:
        """Index (in the Python str) of the first character the rule cannot accept; ``len(input)``
        if the input ended too early."""
        return self._diagnosis().offset

    @property
    def byte_offset(self) -> int:
        """The same offset in UTF-8 bytes, as the Rust crate and its command line count."""
        return self._diagnosis().byte_offset

    @property
    def kind(self) -> str:
        """A stable kebab-case name: unexpected-end, space, invalid-percent-encoding, brace, bracket,
        invalid-ip-literal, invalid-port, second-hash, non-ascii, invalid-utf8, invalid-character,
        unexpected, limit-reached (``invalid-character`` at a character of a password)."""
        return self._diagnosis().kind

    @property
    def rule(self) -> str:
        """The ABNF name of the rule matched (``URI-reference``, ``URI``, ...)."""
        return self._diagnosis().rule

    @property
    def found(self) -> Optional[str]:
        """The character at ``offset``; None at the end of the input."""
        return self._diagnosis().found

    @property
    def expected(self) -> list[str]:
        """ABNF names of what the rule accepts at ``offset`` (``pchar``, ``"?"``, end of input, ...)."""
        return self._diagnosis().expected

    @property
    def hint(self) -> Optional[str]:
        """What to do about a common mistake, with the RFC section; None if there is nothing more to
        say."""
        return self._diagnosis().hint

    @property
    def message(self) -> str:
        """Short, without the position: ``space not allowed here``."""
        return self._diagnosis().message

    @property
    def input(self) -> str:
        """The input as given."""
        return self._diagnosis().input

    def __str__(self) -> str:
        d = self.args[0] if len(self.args) == 1 else None
        return d.text if isinstance(d, _Diagnosis) else super().__str__()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"
