//! The verdicts of `batch_check` and `batch_check_iri`: which rows are valid, and why the others are
//! not, as the struct `{valid, offset, kind, message}`.
//!
//! Most rows of real data are valid, and a verdict costs a fraction of what explaining a rejection
//! does. So [`scan`] decides every row, in parallel runs of rows, into two bitmaps (valid rows,
//! non-null rows) and the list of the rejected rows: a run's rows are decided in a loop that does
//! nothing else, then the run's rejected rows are explained, on the same thread (the rows are read
//! once, and the explanations are shared out between the threads with the runs). The messages of a
//! run are written one after the other into one text, not a `String` each. The result's columns are
//! made from those in bulk: `valid` and the struct's nulls are the bitmaps themselves, `offset`,
//! `kind` and `message` are set at the rejected rows and null elsewhere. No row costs an allocation or an entry of a per-row list, except a
//! rejected one (an entry).
//!
//! A dictionary-encoded column has each distinct value decided and explained once (when there are no
//! more values than rows); its rows then take their value's verdict.

use std::ops::Range;
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{ArrayRef, BooleanArray, Int64Array, StringArray, StructArray};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer};
use arrow_schema::{DataType, Field, Fields};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::column::{char_offset_in_bytes, Reader, Row};
use crate::pool;

/// What check() says about a rejected row: the `offset` and `kind` of the result (the `message` is
/// in the [`Scan`]'s text).
pub(crate) struct Rejection {
    offset: i64,
    kind: &'static str,
}

impl Rejection {
    /// The rejection of a row whose parse failed with `error`, its message appended to `message`;
    /// `input` the row's bytes.
    pub(crate) fn write(
        error: &rfc3986::ParseError,
        input: &[u8],
        message: &mut String,
    ) -> Rejection {
        Rejection {
            kind: crate::redact::write_kind_and_detail(error, input, message),
            offset: char_offset_in_bytes(input, error.offset()) as i64,
        }
    }
}

/// The verdicts on the rows of a column; `E` is what is known about a rejected row (`()` when it is
/// not explained).
pub(crate) struct Scan<E> {
    len: usize,
    /// Bit `i` set: row `i` is valid.
    valid: Vec<u64>,
    /// Bit `i` set: row `i` is not null.
    present: Vec<u64>,
    /// The rejected rows, ascending.
    rejected: Vec<usize>,
    /// What is known about what was rejected: the rejected rows, or for a dictionary-encoded column
    /// the rejected values (ascending), one each.
    explanations: Vec<E>,
    /// The messages the verdicts wrote, one after the other: explanation `k`'s is
    /// `text[ends[k - 1]..ends[k]]` (from 0 for the first).
    text: String,
    ends: Vec<usize>,
    /// For a dictionary-encoded column, the index into `explanations` of each rejected row's value.
    source_of: Option<Vec<usize>>,
}

#[inline]
fn set(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

#[inline]
fn get(words: &[u64], i: usize) -> bool {
    words[i / 64] >> (i % 64) & 1 == 1
}

fn bits(words: &[u64], len: usize) -> BooleanBuffer {
    BooleanBuffer::new(Buffer::from_slice_ref(words), 0, len)
}

/// The null buffer whose valid (non-null) rows are the set bits; `None` when no row is null.
fn null_buffer(words: &[u64], len: usize) -> Option<NullBuffer> {
    Some(NullBuffer::new(bits(words, len))).filter(|n| n.null_count() > 0)
}

/// The verdicts on the rows of `reader`: valid where `accept` says so, else what `explain` says, `Err`
/// with what is known about a rejected row, whose message it appends to the `String` it is given (it
/// appends nothing for a valid row). Neither is given [`Row::Null`]. A run of rows is decided by
/// `accept` first, in a loop with nothing else in it (most rows are valid), then its rows that `accept`
/// rejected are given to `explain`, on the same thread.
pub(crate) fn scan<'a, E: Send>(
    reader: &Reader<'a>,
    pool: Option<&rayon::ThreadPool>,
    accept: impl Fn(Row<'a>) -> bool + Sync + Send,
    explain: impl Fn(Row<'a>, &mut String) -> Result<(), E> + Sync + Send,
) -> Scan<E> {
    let verdict = (&accept, &explain);
    let Some(keys) = reader.shared_values() else {
        return scan_runs(reader, pool, reader.len(), false, verdict);
    };
    let values = scan_runs(reader, pool, reader.value_count(), true, verdict);
    // The rows take their value's verdict: bit operations only, on the calling thread.
    let n = keys.len();
    let words = n.div_ceil(64);
    let (mut valid, mut present) = (vec![0u64; words], vec![0u64; words]);
    let (mut rejected, mut source_of) = (Vec::new(), Vec::new());
    for (i, key) in keys.iter().enumerate() {
        let Some(j) = *key else { continue };
        if !get(&values.present, j) {
            continue;
        }
        set(&mut present, i);
        if get(&values.valid, j) {
            set(&mut valid, i);
        } else {
            rejected.push(i);
            // The value is among the rejected ones.
            source_of.push(values.rejected.partition_point(|&v| v < j));
        }
    }
    Scan {
        len: n,
        valid,
        present,
        rejected,
        explanations: values.explanations,
        text: values.text,
        ends: values.ends,
        source_of: Some(source_of),
    }
}

/// [`scan`] of the first `n` rows (`by_value`: values of the dictionary), in parallel runs.
fn scan_runs<'a, E: Send>(
    reader: &Reader<'a>,
    pool: Option<&rayon::ThreadPool>,
    n: usize,
    by_value: bool,
    (accept, explain): (
        &(impl Fn(Row<'a>) -> bool + Sync + Send),
        &(impl Fn(Row<'a>, &mut String) -> Result<(), E> + Sync + Send),
    ),
) -> Scan<E> {
    let runs = pool::par_chunks(pool, n, |rows: Range<usize>| {
        let words = rows.len().div_ceil(64);
        let mut run = Scan {
            len: rows.len(),
            valid: vec![0; words],
            present: vec![0; words],
            rejected: Vec::new(),
            explanations: Vec::new(),
            text: String::new(),
            ends: Vec::new(),
            source_of: None,
        };
        let first = rows.start;
        // The rows `accept` rejected, to explain after the loop.
        let mut doubtful = Vec::new();
        let each = |i: usize, row: Row<'a>| {
            if matches!(row, Row::Null) {
                return;
            }
            set(&mut run.present, i - first);
            if accept(row) {
                set(&mut run.valid, i - first);
            } else {
                push_cold(&mut doubtful, (i, row));
            }
        };
        if by_value {
            reader.for_each_value(rows, each);
        } else {
            reader.for_each_row(rows, each);
        }
        for (i, row) in doubtful {
            match explain(row, &mut run.text) {
                Ok(()) => set(&mut run.valid, i - first),
                Err(e) => run.reject(i, e),
            }
        }
        run
    });
    // The runs start at multiples of 64 rows: their words follow each other.
    let words = n.div_ceil(64);
    let mut scan = Scan {
        len: n,
        valid: Vec::with_capacity(words),
        present: Vec::with_capacity(words),
        rejected: Vec::new(),
        explanations: Vec::new(),
        text: String::new(),
        ends: Vec::new(),
        source_of: None,
    };
    for mut run in runs {
        scan.valid.append(&mut run.valid);
        scan.present.append(&mut run.present);
        scan.rejected.append(&mut run.rejected);
        scan.explanations.append(&mut run.explanations);
        let base = scan.text.len();
        scan.ends.extend(run.ends.iter().map(|end| base + end));
        scan.text.push_str(&run.text);
    }
    scan
}

/// `list.push(item)`, out of line: the loop that decides the rows stays small.
#[cold]
#[inline(never)]
fn push_cold<T>(list: &mut Vec<T>, item: T) {
    list.push(item);
}

impl<E> Scan<E> {
    /// Notes row `i` as rejected, with what is known about it (its message already at the end of
    /// `text`).
    fn reject(&mut self, i: usize, e: E) {
        self.rejected.push(i);
        self.explanations.push(e);
        self.ends.push(self.text.len());
    }

    /// The rejected rows, ascending, each with what is known about it and its message.
    fn rejections(&self) -> impl Iterator<Item = (usize, &E, &str)> + '_ {
        self.rejected.iter().enumerate().map(|(k, &row)| {
            let source = self.source_of.as_ref().map_or(k, |s| s[k]);
            let start = source.checked_sub(1).map_or(0, |p| self.ends[p]);
            (
                row,
                &self.explanations[source],
                &self.text[start..self.ends[source]],
            )
        })
    }
}

fn check_fields() -> Fields {
    Fields::from(vec![
        Field::new("valid", DataType::Boolean, true),
        Field::new("offset", DataType::Int64, true),
        Field::new("kind", DataType::Utf8, true),
        Field::new("message", DataType::Utf8, true),
    ])
}

fn check_struct(
    valid: BooleanArray,
    offset: Int64Array,
    kind: StringArray,
    message: StringArray,
    nulls: Option<NullBuffer>,
) -> PyResult<ArrayRef> {
    let s = StructArray::try_new(
        check_fields(),
        vec![
            Arc::new(valid),
            Arc::new(offset),
            Arc::new(kind),
            Arc::new(message),
        ],
        nulls,
    )
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Arc::new(s))
}

/// check(explain=False)'s struct: only `valid` is set (null on null rows), the other fields are null.
pub(crate) fn unexplained<E>(scan: &Scan<E>) -> PyResult<ArrayRef> {
    let n = scan.len;
    let nulls = null_buffer(&scan.present, n);
    check_struct(
        BooleanArray::new(bits(&scan.valid, n), nulls.clone()),
        Int64Array::new_null(n),
        StringArray::new_null(n),
        StringArray::new_null(n),
        nulls,
    )
}

/// The chunks of check()'s result: `offset`, `kind` and `message` set on the rejected rows only;
/// more than one chunk when the messages exceed a string array. The three columns of a chunk are made
/// in parallel on `pool`.
pub(crate) fn explained(
    scan: &Scan<Rejection>,
    pool: Option<&rayon::ThreadPool>,
) -> PyResult<Vec<ArrayRef>> {
    let n = scan.len;
    let nulls = null_buffer(&scan.present, n);
    let valid = bits(&scan.valid, n);
    let sizes = scan
        .rejections()
        .map(|(row, r, message)| (row, r.kind.len() + message.len()));
    crate::chunk_ranges_of(n, false, sizes)?
        .into_iter()
        .map(|rows| {
            let (start, len) = (rows.start, rows.len());
            let first = scan.rejected.partition_point(|&row| row < start);
            let last = scan.rejected.partition_point(|&row| row < rows.end);
            // The chunk's rejected rows, numbered from the chunk's first row.
            let rejected: Vec<(usize, &Rejection, &str)> = scan
                .rejections()
                .skip(first)
                .take(last - first)
                .map(|(row, r, message)| (row - start, r, message))
                .collect();
            let (offset, (kind, message)) = pool::join(
                pool,
                || {
                    let mut offsets = vec![0i64; len];
                    let mut words = vec![0u64; len.div_ceil(64)];
                    for &(row, r, _) in &rejected {
                        offsets[row] = r.offset;
                        set(&mut words, row);
                    }
                    Int64Array::new(offsets.into(), null_buffer(&words, len))
                },
                || {
                    pool::join(
                        pool,
                        || text_at(len, rejected.iter().map(|&(row, r, _)| (row, r.kind))),
                        || {
                            text_at(
                                len,
                                rejected.iter().map(|&(row, _, message)| (row, message)),
                            )
                        },
                    )
                },
            );
            check_struct(
                BooleanArray::new(
                    valid.slice(start, len),
                    nulls.as_ref().map(|b| b.slice(start, len)),
                ),
                offset,
                kind,
                message,
                nulls.as_ref().map(|b| b.slice(start, len)),
            )
        })
        .collect()
}

/// A string array of `len` rows, `texts` (row, text) at the given rows (ascending) and null elsewhere.
/// The caller keeps a chunk's text within what a string array holds ([`crate::chunk_ranges_of`]).
fn text_at<'t>(len: usize, texts: impl Iterator<Item = (usize, &'t str)> + Clone) -> StringArray {
    let bytes = texts.clone().map(|(_, text)| text.len()).sum();
    // A builder: its array is made without checking again what it was built from (the offsets
    // ascend and the bytes are whole strings), and a run of null rows is filled in bulk.
    let mut out = StringBuilder::with_capacity(len, bytes);
    let mut next = 0;
    for (row, text) in texts {
        out.append_nulls(row - next);
        out.append_value(text);
        next = row + 1;
    }
    out.append_nulls(len - next);
    out.finish()
}
