"""Type stubs of the compiled module (PyO3) behind rfc3986_strict."""

from typing import Iterable, Literal, Mapping, Optional, Sequence, Union

__version__: str

Level = Literal["simple", "syntax", "scheme"]

class _Diagnosis:
    """What a rejection says, computed when read: the one argument of rfc3986_strict.ParseError
    (rfc3986_strict/_errors.py), which reads its fields from it."""

    @property
    def offset(self) -> int: ...
    @property
    def byte_offset(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def found(self) -> Optional[str]: ...
    @property
    def expected(self) -> list[str]: ...
    @property
    def hint(self) -> Optional[str]: ...
    @property
    def message(self) -> str: ...
    @property
    def input(self) -> str: ...
    @property
    def text(self) -> str: ...

def _rediagnose(grammar: Literal["uri", "iri"], rule: str, input: str) -> _Diagnosis: ...

class BuildError(ValueError):
    """An edit or build would not give a URI reference (RFC 3986 3, 3.3, 4.2)."""

class UnrepairableError(ValueError):
    """fix() cannot make a URI reference of the text by percent-encoding."""

    cause: Literal[
        "syntax", "template", "format-placeholder", "regular-expression", "markup", "whitespace", "delimiters", "host"
    ]
    offset: int
    """Index in the input str of the character that stopped the repair."""
    byte_offset: int
    partial: str
    """The text with the repairs made before the stop (not a URI reference)."""
    input: str

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
    def port_number(self) -> Optional[int]:
        """The port as an int; None without a port, with an empty one or one above 65535."""
    @property
    def port_int(self) -> Optional[int]:
        """port_number, by the name urllib users look for (``port`` is the text as written)."""
    @property
    def path(self) -> str: ...
    @property
    def query(self) -> Optional[str]: ...
    @property
    def fragment(self) -> Optional[str]: ...
    @property
    def is_uri(self) -> bool: ...
    def to_dict(self) -> dict[str, Optional[str]]: ...
    # Edits: UriRef is immutable, each returns a new value (BuildError if it would not be a URI
    # reference). Components are given as written in a URI (see percent_encode).
    def with_scheme(self, scheme: Optional[str]) -> UriRef: ...
    def with_userinfo(self, userinfo: Optional[str]) -> UriRef: ...
    def with_host(self, host: Optional[str]) -> UriRef: ...
    def with_port(self, port: Union[int, str, None]) -> UriRef: ...
    def with_path(self, path: str) -> UriRef: ...
    def with_segment(self, segment: str) -> UriRef: ...
    def with_query(self, query: Optional[str]) -> UriRef: ...
    def with_fragment(self, fragment: Optional[str]) -> UriRef: ...
    def with_query_pairs(self, pairs: Iterable[tuple[str, str]]) -> UriRef: ...
    def query_pairs(self) -> list[tuple[str, str]]:
        """The query's key=value pairs, decoded as forms are ("+" is a space)."""
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

Component = Literal["userinfo", "host", "path", "segment", "query", "fragment"]

def percent_encode(text: str, component: Component) -> str:
    """text percent-encoded for the component (RFC 3986 2.1, 2.4, 2.5): always in its rule."""

def percent_decode(text: str) -> str:
    """Every %XX decoded, read as UTF-8 (RFC 3986 2.1, 2.5); "+" stays. ValueError if it cannot be."""

def percent_decode_bytes(text: str) -> bytes:
    """Every %XX decoded (RFC 3986 2.1), as bytes. ValueError for a "%" without two hex digits."""

def query_pairs(query: str) -> list[tuple[str, str]]:
    """The key=value pairs of a query, decoded as forms are ("+" is a space, then %XX as UTF-8)."""

TemplateValue = Union[str, int, float, Sequence[Union[str, int, float]], Mapping[str, Union[str, int, float]], None]

def expand_template(template: str, variables: Mapping[str, TemplateValue]) -> str:
    """RFC 6570 expansion (levels 1 to 4); TemplateError for a template it cannot expand."""

def make_relative(base: str, target: str) -> Optional[str]:
    """A short reference resolving against base to exactly target (inverse of RFC 3986 5.2), or None."""

def iri_to_uri(iri: str) -> str:
    """RFC 3987 3.1: non-ASCII characters as percent-encoded UTF-8 octets."""

def uri_to_iri(uri: str) -> str:
    """RFC 3987 3.2: percent-encoded UTF-8 that an IRI allows, decoded."""

class Repair:
    """One character fix() percent-encoded."""

    @property
    def offset(self) -> int: ...
    @property
    def byte_offset(self) -> int: ...
    @property
    def found(self) -> str: ...
    @property
    def replacement(self) -> str: ...
    @property
    def reason(self) -> Literal["space", "not-allowed", "non-ascii", "percent-sign", "second-hash", "bracket"]: ...
    @property
    def section(self) -> str: ...

class Fixed:
    """fix()'s result; str() is the text."""

    @property
    def text(self) -> str: ...
    @property
    def repairs(self) -> list[Repair]: ...

def fix(text: str) -> Fixed:
    """A near-URI made a URI reference by percent-encoding; UnrepairableError when that cannot help."""

def build(
    *,
    scheme: Optional[str] = None,
    userinfo: Optional[str] = None,
    host: Optional[str] = None,
    port: Union[int, str, None] = None,
    path: str = "",
    query: Optional[str] = None,
    fragment: Optional[str] = None,
) -> UriRef:
    """A UriRef from components as written (RFC 3986 5.3); BuildError if it would not be one."""

# The batch functions return the chunks of their result: a list of (schema, array) PyCapsule pairs.
def batch_threads() -> int: ...
def batch_check(array: object, rule: str = ..., explain: bool = ...) -> list[tuple[object, object]]: ...
def batch_check_iri(array: object, rule: str = ...) -> list[tuple[object, object]]: ...
def batch_parse_components(array: object, rule: str = ...) -> list[tuple[object, object]]: ...
def batch_normalize(array: object, level: str = ..., ipv6_rfc5952: bool = ...) -> list[tuple[object, object]]: ...
def batch_resolve(base: object, reference: object, strict: bool = ...) -> list[tuple[object, object]]: ...
def _set_max_chunk_bytes(limit: int) -> None: ...
def _at_exit() -> None: ...
