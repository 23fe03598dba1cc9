//! The verdicts of `batch_check` and `batch_check_iri`: which rows are valid, and why the others are
//! not, as the struct `{valid, offset, kind, message}`.
//!
//! Most rows of real data are valid, and a verdict costs a fraction of what explaining a rejection
//! does. So the rows are worked on in two passes: [`scan`] decides every row, in parallel runs of
//! rows, into two bitmaps (valid rows, non-null rows) and the list of the rejected rows; then
//! [`Scan::explain`] explains only the rejected ones (also in parallel). The result's columns are
//! made from those in bulk: `valid` and the struct's nulls are the bitmaps themselves, `offset`,
//! `kind` and `message` are set at the rejected rows and null elsewhere. No row costs an allocation
//! or an entry of a per-row list, except a rejected one.
//!
//! A dictionary-encoded column has each distinct value decided and explained once (when there are no
//! more values than rows); its rows then take their value's verdict.

use std::ops::Range;
use std::sync::Arc;

use arrow_array::{ArrayRef, BooleanArray, Int64Array, StringArray, StructArray};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::column::{char_offset_in_bytes, Reader, Row};
use crate::pool;

/// Rejected rows (or dictionary values) per task when explaining them: an explanation costs some
/// microseconds, so small tasks share the work out evenly between the threads.
const EXPLAINED_PER_TASK: usize = 32;

/// What check() says about a rejected row: the `offset`, `kind` and `message` of the result.
pub(crate) struct Rejection {
    offset: i64,
    kind: &'static str,
    message: String,
}

impl Rejection {
    /// The rejection of a row whose parse failed with `error`; `input` the row's bytes.
    pub(crate) fn of(error: &rfc3986::ParseError, input: &[u8]) -> Rejection {
        let (kind, message) = crate::redact::kind_and_detail(error, input);
        Rejection {
            offset: char_offset_in_bytes(input, error.offset()) as i64,
            kind,
            message,
        }
    }
}

/// The verdicts on the rows of a column; `E` is what is known about a rejected row (`()` before
/// [`Scan::explain`]).
pub(crate) struct Scan<E> {
    len: usize,
    /// Bit `i` set: row `i` is valid.
    valid: Vec<u64>,
    /// Bit `i` set: row `i` is not null.
    present: Vec<u64>,
    /// The rejected rows, ascending.
    rejected: Vec<usize>,
    /// What was rejected: the rejected rows, or for a dictionary-encoded column the rejected values
    /// (indices into the dictionary), ascending.
    sources: Vec<usize>,
    /// One per source.
    explanations: Vec<E>,
    /// For a dictionary-encoded column, the index into `sources` of each rejected row's value.
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

/// The verdicts on the rows of `reader`: `verdict` of each row that is not null (it is never given
/// [`Row::Null`]), `Err` with what is known about a rejected row.
pub(crate) fn scan<'a, E: Send>(
    reader: &Reader<'a>,
    pool: Option<&rayon::ThreadPool>,
    verdict: impl Fn(Row<'a>) -> Result<(), E> + Sync + Send,
) -> Scan<E> {
    let Some(keys) = reader.shared_values() else {
        return scan_runs(reader, pool, reader.len(), false, &verdict);
    };
    let values = scan_runs(reader, pool, reader.value_count(), true, &verdict);
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
        sources: values.rejected,
        explanations: values.explanations,
        source_of: Some(source_of),
    }
}

/// [`scan`] of the first `n` rows (`by_value`: values of the dictionary), in parallel runs.
fn scan_runs<'a, E: Send>(
    reader: &Reader<'a>,
    pool: Option<&rayon::ThreadPool>,
    n: usize,
    by_value: bool,
    verdict: &(impl Fn(Row<'a>) -> Result<(), E> + Sync + Send),
) -> Scan<E> {
    struct Run<E> {
        valid: Vec<u64>,
        present: Vec<u64>,
        rejected: Vec<usize>,
        explanations: Vec<E>,
    }
    let runs = pool::par_chunks(pool, n, |rows: Range<usize>| {
        let words = rows.len().div_ceil(64);
        let mut run = Run {
            valid: vec![0; words],
            present: vec![0; words],
            rejected: Vec::new(),
            explanations: Vec::new(),
        };
        let first = rows.start;
        let each = |i: usize, row: Row<'a>| {
            if matches!(row, Row::Null) {
                return;
            }
            set(&mut run.present, i - first);
            match verdict(row) {
                Ok(()) => set(&mut run.valid, i - first),
                Err(e) => {
                    run.rejected.push(i);
                    run.explanations.push(e);
                }
            }
        };
        if by_value {
            reader.for_each_value(rows, each);
        } else {
            reader.for_each_row(rows, each);
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
        sources: Vec::new(),
        explanations: Vec::new(),
        source_of: None,
    };
    for mut run in runs {
        scan.valid.append(&mut run.valid);
        scan.present.append(&mut run.present);
        scan.rejected.append(&mut run.rejected);
        scan.explanations.append(&mut run.explanations);
    }
    scan.sources = scan.rejected.clone();
    scan
}

impl<E> Scan<E> {
    /// The rejected rows, ascending, each with what is known about it.
    fn rejections(&self) -> impl Iterator<Item = (usize, &E)> + '_ {
        self.rejected.iter().enumerate().map(|(k, &row)| {
            let source = self.source_of.as_ref().map_or(k, |s| s[k]);
            (row, &self.explanations[source])
        })
    }

    /// The same verdicts, with each rejected row (dictionary value) explained by `f` (never given
    /// [`Row::Null`]), in parallel. A row that `f` finds valid after all (`None`) becomes valid.
    pub(crate) fn explain<'a, F: Send>(
        self,
        reader: &Reader<'a>,
        pool: Option<&rayon::ThreadPool>,
        f: impl Fn(Row<'a>) -> Option<F> + Sync + Send,
    ) -> Scan<F> {
        let by_value = self.source_of.is_some();
        let explained = pool::par_map(pool, self.sources.len(), EXPLAINED_PER_TASK, |k| {
            let source = self.sources[k];
            f(if by_value {
                reader.value(source)
            } else {
                reader.row(source)
            })
        });
        let Scan {
            len,
            mut valid,
            present,
            rejected,
            sources,
            source_of,
            ..
        } = self;
        if explained.iter().all(Option::is_some) {
            return Scan {
                len,
                valid,
                present,
                rejected,
                sources,
                explanations: explained.into_iter().flatten().collect(),
                source_of,
            };
        }
        // The sources still rejected, renumbered.
        let mut renumbered = vec![None; sources.len()];
        let (mut kept_sources, mut explanations) = (Vec::new(), Vec::new());
        for (k, e) in explained.into_iter().enumerate() {
            if let Some(e) = e {
                renumbered[k] = Some(kept_sources.len());
                kept_sources.push(sources[k]);
                explanations.push(e);
            }
        }
        let (mut kept_rows, mut kept_source_of) = (Vec::new(), Vec::new());
        for (k, &row) in rejected.iter().enumerate() {
            match renumbered[source_of.as_ref().map_or(k, |s| s[k])] {
                Some(source) => {
                    kept_rows.push(row);
                    kept_source_of.push(source);
                }
                None => set(&mut valid, row),
            }
        }
        Scan {
            len,
            valid,
            present,
            rejected: kept_rows,
            sources: kept_sources,
            explanations,
            source_of: by_value.then_some(kept_source_of),
        }
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
        .map(|(row, r)| (row, r.kind.len() + r.message.len()));
    crate::chunk_ranges_of(n, false, sizes)?
        .into_iter()
        .map(|rows| {
            let (start, len) = (rows.start, rows.len());
            let first = scan.rejected.partition_point(|&row| row < start);
            let last = scan.rejected.partition_point(|&row| row < rows.end);
            // The chunk's rejected rows, numbered from the chunk's first row.
            let rejected: Vec<(usize, &Rejection)> = scan
                .rejections()
                .skip(first)
                .take(last - first)
                .map(|(row, r)| (row - start, r))
                .collect();
            let mut words = vec![0u64; len.div_ceil(64)];
            rejected.iter().for_each(|&(row, _)| set(&mut words, row));
            let explained = null_buffer(&words, len);
            let text = |field: fn(&Rejection) -> &str| {
                text_at(
                    len,
                    rejected.iter().map(|&(row, r)| (row, field(r))),
                    explained.clone(),
                )
            };
            let (offset, (kind, message)) = pool::join(
                pool,
                || {
                    let mut offsets = vec![0i64; len];
                    rejected
                        .iter()
                        .for_each(|&(row, r)| offsets[row] = r.offset);
                    Int64Array::new(offsets.into(), explained.clone())
                },
                || pool::join(pool, || text(|r| r.kind), || text(|r| &r.message)),
            );
            check_struct(
                BooleanArray::new(
                    valid.slice(start, len),
                    nulls.as_ref().map(|b| b.slice(start, len)),
                ),
                offset,
                kind?,
                message?,
                nulls.as_ref().map(|b| b.slice(start, len)),
            )
        })
        .collect()
}

/// A string array of `len` rows, `texts` (row, text) at the given rows (ascending) and empty elsewhere
/// (null by `nulls`).
fn text_at<'t>(
    len: usize,
    texts: impl Iterator<Item = (usize, &'t str)>,
    nulls: Option<NullBuffer>,
) -> PyResult<StringArray> {
    let too_long = |_| PyValueError::new_err("check()'s messages exceed a string array (2 GiB)");
    // Each row's end offset; a run of rows without text repeats the end before it (a fill).
    let mut ends = vec![0i32; len + 1];
    let mut filled = 1;
    let mut bytes = Vec::new();
    for (row, text) in texts {
        let end = i32::try_from(bytes.len()).map_err(too_long)?;
        ends[filled..=row].fill(end);
        bytes.extend_from_slice(text.as_bytes());
        ends[row + 1] = i32::try_from(bytes.len()).map_err(too_long)?;
        filled = row + 2;
    }
    let end = i32::try_from(bytes.len()).map_err(too_long)?;
    ends[filled..].fill(end);
    StringArray::try_new(
        OffsetBuffer::new(ScalarBuffer::from(ends)),
        Buffer::from_vec(bytes),
        nulls,
    )
    .map_err(|e| PyValueError::new_err(e.to_string()))
}
