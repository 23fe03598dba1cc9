"""Type stubs of the compiled module (PyO3) behind rfc3986_strict."""

from typing import Literal, Optional

__version__: str

Level = Literal["simple", "syntax", "scheme"]

class ParseError(ValueError):
    """The input is not in the language of the grammar rule (RFC 3986 Appendix A)."""

    offset: int
    """Index (in the Python str) of the first character the rule cannot accept; len(input) if the
    input ended too early."""
    byte_offset: int
    """The same offset in UTF-8 bytes, as the Rust crate and its CLI count."""
    kind: str
    """unexpected-end, space, invalid-percent-encoding, brace, bracket, invalid-ip-literal,
    invalid-port, second-hash, non-ascii, invalid-utf8, invalid-character, unexpected, limit-reached."""
    rule: str
    """The ABNF name of the rule matched (URI-reference, URI, ...)."""
    found: Optional[str]
    """The character at offset, None at the end of the input."""
    expected: list[str]
    """ABNF names of what the rule accepts at offset (pchar, "?", end of input, ...)."""
    hint: Optional[str]
    """What to do about a common mistake, with the RFC section; None if nothing more to say."""
    message: str
    """A short message without position: 'space not allowed here'. Never names a character of a
    userinfo password (nor do str() and hint)."""
    input: str
    """The input as given."""

class TemplateError(ValueError):
    """The input is not a URI Template (RFC 6570 section 2)."""

    offset: int
    """Index (in the Python str) where the template stops matching the grammar."""
    byte_offset: int
    input: str

class UriRef:
    """A URI reference split into its components (RFC 3986 3, 4.1); None = undefined, "" = empty.
    Pickles and copies."""

    def __init__(self, text: str) -> None:
        """parse(text); raises ParseError."""

    @property
    def scheme(self) -> Optional[str]: ...
    @property
    def authority(self) -> Optional[str]: ...
    @property
    def userinfo(self) -> Optional[str]: ...
    @property
    def host(self) -> Optional[str]: ...
    @property
    def host_kind(self) -> Optional[Literal["IPv4address", "IPv6address", "IPvFuture", "reg-name"]]: ...
    @property
    def port(self) -> Optional[str]: ...
    @property
    def port_number(self) -> Optional[int]: ...
    @property
    def path(self) -> str: ...
    @property
    def query(self) -> Optional[str]: ...
    @property
    def fragment(self) -> Optional[str]: ...
    @property
    def is_uri(self) -> bool: ...
    def to_dict(self) -> dict[str, Optional[str]]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Finding:
    """A SHOULD-level or security finding (RFC 3986 sections 2 to 7). Pickles and copies."""

    def __init__(self, code: str, section: str, message: str, start: int, end: int) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

    @property
    def code(self) -> str: ...
    @property
    def section(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...

def validate(text: str, rule: str = "URI-reference") -> None:
    """Raise ParseError unless the whole text matches the RFC 3986 ABNF rule (4.1 URI-reference)."""

def is_valid(text: str, rule: str = "URI-reference") -> bool:
    """validate() as a bool, without explaining a rejection."""

def validate_iri(text: str, rule: str = "IRI-reference") -> None:
    """Raise ParseError unless the text matches the RFC 3987 (2.2) rule."""

def validate_template(text: str) -> None:
    """Raise TemplateError unless the text is a URI Template (RFC 6570 section 2)."""

def parse(text: str, rule: str = "URI-reference") -> UriRef:
    """The components of a URI reference (RFC 3986 3, 4.1); raises ParseError."""

def resolve(base: str, reference: str, strict: bool = True) -> str:
    """The target URI of reference against the base URI (RFC 3986 5.2.2, 5.3)."""

def normalize(text: str, level: Level = "scheme", ipv6_rfc5952: bool = False) -> str:
    """The normal form at a rung of the comparison ladder (RFC 3986 6.2.1, 6.2.2, 6.2.3)."""

def equivalent(a: str, b: str, level: Level = "scheme", ipv6_rfc5952: bool = False) -> bool:
    """Whether the normal forms of a and b at level are the same text (RFC 3986 6.2)."""

def lint(text: str) -> list[Finding]:
    """SHOULD-level and security findings on a valid URI reference (RFC 3986 2 to 7)."""

# The batch functions return the chunks of their result: a list of (schema, array) PyCapsule pairs.
def batch_threads() -> int: ...
def batch_check(array: object, rule: str = ..., explain: bool = ...) -> list[tuple[object, object]]: ...
def batch_check_iri(array: object, rule: str = ...) -> list[tuple[object, object]]: ...
def batch_parse_components(array: object, rule: str = ...) -> list[tuple[object, object]]: ...
def batch_normalize(array: object, level: str = ..., ipv6_rfc5952: bool = ...) -> list[tuple[object, object]]: ...
def batch_resolve(base: object, reference: object, strict: bool = ...) -> list[tuple[object, object]]: ...
def _set_max_chunk_bytes(limit: int) -> None: ...
def _at_exit() -> None: ...
