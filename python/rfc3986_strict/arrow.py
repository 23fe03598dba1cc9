"""The batch API: Apache Arrow arrays of URI references in, Arrow arrays out.

Every function takes a ``pyarrow.Array`` of strings (``string``, ``large_string`` or ``string_view``,
or a dictionary of them such as ``dictionary_encode()`` and Polars ``Categorical`` give, each distinct
value checked once; an all-null array of type ``null`` too), a ``pyarrow.ChunkedArray`` (processed
chunk by chunk), or anything ``pyarrow.array`` accepts (a list, a pandas Series). A ``str`` or
``bytes`` is refused with ``TypeError`` (it is one value, not a column). Arrays cross into Rust through
the Arrow C data interface without copying the strings; long work runs without the GIL, in parallel
over the rows (``RAYON_NUM_THREADS`` sets the number of threads; the pool is made again in a process
forked from one that had it). A null input row gives a null output row.

Nothing in the array is trusted: a ``string`` row whose bytes are not UTF-8 (Parquet, IPC and
``.view(pa.string())`` hand them over) is an invalid row of kind ``invalid-utf8``, as the ``rfc3986``
command line reports such a line, and a null row in the other functions' results.

Text results are ``string`` (``large_string`` for a ``large_string`` input); a ``string`` result of
more than 2 GiB of text comes back as a ``pyarrow.ChunkedArray`` of chunks under that size, as
``pyarrow.array`` itself does.

Offsets are indices into the Python ``str`` (code points), as in :class:`rfc3986_strict.ParseError`;
for an ``invalid-utf8`` row, the number of characters before the first byte that is not UTF-8.
Messages do not name a character of a userinfo password (see :class:`rfc3986_strict.ParseError`).
"""

from __future__ import annotations

from typing import Any, Callable, Union

import pyarrow as pa

from . import _native

__all__ = [
    "CHECK_TYPE",
    "COMPONENTS_TYPE",
    "LARGE_COMPONENTS_TYPE",
    "check",
    "check_iri",
    "normalize",
    "parse_components",
    "resolve",
]

#: The type of :func:`check`'s result.
CHECK_TYPE = pa.struct(
    [
        pa.field("valid", pa.bool_()),
        pa.field("offset", pa.int64()),
        pa.field("kind", pa.string()),
        pa.field("message", pa.string()),
    ]
)

_COMPONENTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")

#: The type of :func:`parse_components`'s result (RFC 3986 section 3).
COMPONENTS_TYPE = pa.struct([pa.field(name, pa.string()) for name in _COMPONENTS])

#: The type of :func:`parse_components`'s result for a ``large_string`` input.
LARGE_COMPONENTS_TYPE = pa.struct([pa.field(name, pa.large_string()) for name in _COMPONENTS])

ArrayLike = Union[pa.Array, pa.ChunkedArray, Any]


class _Exported:
    """Holds the (schema, array) capsules returned by Rust, for ``pyarrow.array``."""

    __slots__ = ("_capsules",)

    def __init__(self, capsules: tuple) -> None:
        self._capsules = capsules

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple:
        return self._capsules


def _as_arrow(values: ArrayLike) -> pa.Array | pa.ChunkedArray:
    if isinstance(values, (str, bytes, bytearray, memoryview)):
        raise TypeError(
            f"expected an array of strings, got a {type(values).__name__}: "
            "wrap one value in a list ([value]) or use the scalar API (rfc3986_strict)"
        )
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values
    if hasattr(values, "__arrow_c_array__"):
        return pa.array(values)
    if hasattr(values, "__arrow_c_stream__"):
        return pa.chunked_array(values)
    return pa.array(values, type=pa.string())


def _is_large(arrow_type: pa.DataType) -> bool:
    if pa.types.is_dictionary(arrow_type):
        arrow_type = arrow_type.value_type
    return pa.types.is_large_string(arrow_type)


def _text_type(*types: pa.DataType) -> pa.DataType:
    """A text result's type: ``large_string`` when an input is."""
    return pa.large_string() if any(_is_large(t) for t in types) else pa.string()


def _arrays(capsule_pairs: list) -> list[pa.Array]:
    return [pa.array(_Exported(pair)) for pair in capsule_pairs]


def _result(chunks: list[pa.Array], out_type: pa.DataType, chunked: bool):
    if len(chunks) == 1 and not chunked:
        return chunks[0]
    return pa.chunked_array(chunks, type=out_type)


def _apply(values: ArrayLike, fn: Callable[[pa.Array], list], out_type: Callable[[pa.DataType], pa.DataType]):
    arrow = _as_arrow(values)
    if isinstance(arrow, pa.ChunkedArray):
        chunks = [array for chunk in arrow.chunks for array in _arrays(fn(chunk))]
        return _result(chunks, out_type(arrow.type), chunked=True)
    return _result(_arrays(fn(arrow)), out_type(arrow.type), chunked=False)


def check(values: ArrayLike, rule: str = "URI-reference", explain: bool = True) -> pa.Array:
    """Validates every row against the RFC 3986 ABNF rule ``rule`` (``URI-reference``, RFC 3986 4.1).

    Returns a struct array ``{valid: bool, offset: int64, kind: string, message: string}``: for an
    invalid row the index of the first character the rule cannot accept, the error's kind (``space``,
    ``brace``, ``non-ascii``, ...) and a one-line message with the hint and what was expected there
    (what :class:`rfc3986_strict.ParseError` says); for a valid row only ``valid`` is set; a null row
    is null.

    Every row is decided by the compiled recognizer; with ``explain=True`` only the rejected rows are
    then explained (the crate's explaining parser, some microseconds each), so a valid row costs the
    same either way. ``explain=False`` fills only ``valid``.

    ``rule`` is any ABNF rule name of RFC 3986, in any case. A row that is not UTF-8 is invalid with
    kind ``invalid-utf8`` (or the grammar's error before its first bad byte).
    """
    return _apply(values, lambda a: _native.batch_check(a, rule, explain), lambda t: CHECK_TYPE)


def check_iri(values: ArrayLike, rule: str = "IRI-reference") -> pa.Array:
    """As :func:`check`, against the IRI grammar of RFC 3987 section 2.2."""
    return _apply(values, lambda a: _native.batch_check_iri(a, rule), lambda t: CHECK_TYPE)


def parse_components(values: ArrayLike, rule: str = "URI-reference") -> pa.Array:
    """The components of every row (RFC 3986 section 3), a struct array of strings ``scheme``,
    ``authority``, ``userinfo``, ``host``, ``port``, ``path``, ``query``, ``fragment``.

    An undefined component is null and an empty one ``""``, as in :func:`rfc3986_strict.parse`; a row
    that is null or not in the rule's language is a null struct (see :func:`check` for why). ``rule``
    is ``URI-reference``, ``URI``, ``absolute-URI`` or ``relative-ref``, in any case. The fields are
    ``large_string`` for a ``large_string`` input (:data:`LARGE_COMPONENTS_TYPE`).
    """
    return _apply(
        values,
        lambda a: _native.batch_parse_components(a, rule),
        lambda t: LARGE_COMPONENTS_TYPE if _is_large(t) else COMPONENTS_TYPE,
    )


def normalize(values: ArrayLike, level: str = "scheme", ipv6_rfc5952: bool = False) -> pa.Array:
    """The normal form of every row (RFC 3986 6.2.2 ``syntax``, 6.2.3 ``scheme``, 6.2.1 ``simple``),
    a string array; null for a null or invalid row."""
    return _apply(values, lambda a: _native.batch_normalize(a, level, ipv6_rfc5952), _text_type)


def resolve(base: str | ArrayLike, reference: ArrayLike, strict: bool = True) -> pa.Array:
    """The target URI of every reference against its base URI (RFC 3986 5.2.2, recomposed as in 5.3).

    ``base`` is one base URI as a ``str`` (used for every row; :class:`rfc3986_strict.ParseError` if
    it is not a URI) or an array as long as ``reference`` (``ValueError`` otherwise). A row is null
    when its base or reference is null, its base is not a URI (5.1: a base has a scheme) or its
    reference is not a URI-reference. ``strict=False``: see :func:`rfc3986_strict.resolve`.
    """
    refs = _as_arrow(reference)
    if isinstance(base, str):
        return _apply(refs, lambda a: _native.batch_resolve(base, a, strict), _text_type)
    bases = _as_arrow(base)
    if len(bases) != len(refs):
        raise ValueError(
            f"base and reference arrays differ in length ({len(bases)} and {len(refs)}); "
            "give one base URI as a str to use it for every reference"
        )
    if isinstance(bases, pa.ChunkedArray):
        bases = bases.combine_chunks()
    if isinstance(refs, pa.ChunkedArray):
        refs = refs.combine_chunks()
    chunks = _arrays(_native.batch_resolve(bases, refs, strict))
    return _result(chunks, _text_type(bases.type, refs.type), chunked=False)
