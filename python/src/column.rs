//! Arrow string columns imported through the Arrow C data interface (no copy of the strings), read
//! row by row.
//!
//! Nothing in an imported array is trusted: Parquet, IPC and `Array.view(pa.string())` hand over
//! `string` arrays whose bytes are not UTF-8, and any producer can hand over offsets or views that
//! point outside their buffers. So the array is re-typed as its binary twin (`binary`, `large_binary`,
//! `binary_view`) and validated as such (offsets ascending and in bounds, checked here in one
//! vectorized pass; views in bounds, checked by arrow), its dictionary keys
//! are checked against the dictionary, and UTF-8 is checked here: rows read in runs
//! ([`Reader::for_each_row`], on the worker threads) have the bytes of the whole run of an
//! offset-based array checked once, then row by row only where that fails or a row does not start and
//! end on character boundaries; a row read alone ([`Reader::row`]), and every row of `string_view`,
//! is checked by itself. A row that is not UTF-8 is read as [`Row::NotUtf8`], which every batch
//! function reports as it reports any invalid row.

use std::ops::Range;

use arrow_array::cast::AsArray;
use arrow_array::ffi::{from_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{
    make_array, Array, BinaryArray, BinaryViewArray, GenericBinaryArray, LargeBinaryArray,
    OffsetSizeTrait,
};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_data::ArrayData;
use arrow_schema::DataType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyTuple};

/// One row of a column.
#[derive(Clone, Copy)]
pub(crate) enum Row<'a> {
    Null,
    Text(&'a str),
    /// Bytes that are not UTF-8: an invalid row, of kind `invalid-utf8` where it is explained.
    NotUtf8(&'a [u8]),
}

/// The values of a column (of the dictionary, for a dictionary-encoded one).
enum Values {
    Null(usize),
    Binary(BinaryArray),
    LargeBinary(LargeBinaryArray),
    View(BinaryViewArray),
}

/// An imported column of strings.
pub(crate) struct Column {
    values: Values,
    /// For a dictionary-encoded array, each row's index into `values` (`None`: a null row).
    keys: Option<Vec<Option<usize>>>,
    /// Whether the strings are `large_string` (the text outputs then are too).
    pub(crate) large: bool,
}

/// Imports an object with `__arrow_c_array__` (a pyarrow Array) without copying its buffers.
pub(crate) fn import(obj: &Bound<'_, PyAny>) -> PyResult<Column> {
    if !obj.hasattr("__arrow_c_array__")? {
        return Err(PyTypeError::new_err(
            "expected an Arrow array (an object with __arrow_c_array__, such as a pyarrow.Array)",
        ));
    }
    let tuple = obj.call_method0("__arrow_c_array__")?;
    let tuple = tuple.cast::<PyTuple>()?;
    if tuple.len() != 2 {
        return Err(PyTypeError::new_err(
            "__arrow_c_array__ must return (schema, array) capsules",
        ));
    }
    let schema_capsule = tuple.get_item(0)?;
    let schema_capsule = schema_capsule.cast::<PyCapsule>()?;
    let array_capsule = tuple.get_item(1)?;
    let array_capsule = array_capsule.cast::<PyCapsule>()?;
    let schema_ptr = schema_capsule.pointer_checked(Some(c"arrow_schema"))?;
    let array_ptr = array_capsule.pointer_checked(Some(c"arrow_array"))?;
    // SAFETY: the capsules are named as the Arrow PyCapsule interface says, so they hold an
    // ArrowSchema and an ArrowArray. The array is moved out of its capsule (its release callback is
    // left null there, so the capsule's destructor does nothing), the schema only borrowed.
    let mut data = unsafe {
        let array = FFI_ArrowArray::from_raw(array_ptr.as_ptr().cast());
        let schema: &FFI_ArrowSchema = &*schema_ptr.as_ptr().cast::<FFI_ArrowSchema>();
        from_ffi(array, schema)
    }
    .map_err(|e| PyValueError::new_err(format!("cannot import the Arrow array: {e}")))?;
    data.align_buffers();
    data.validate().map_err(malformed)?;
    column_of(data)
}

fn malformed(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("malformed Arrow array: {e}"))
}

fn not_strings(other: &DataType) -> PyErr {
    PyTypeError::new_err(format!(
        "expected an Arrow array of strings (utf8, large_utf8 or utf8_view, or a dictionary of \
         them), got {other}"
    ))
}

fn column_of(data: ArrayData) -> PyResult<Column> {
    let len = data.len();
    match data.data_type().clone() {
        DataType::Dictionary(_, value_type) => {
            if !matches!(
                *value_type,
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Null
            ) {
                return Err(not_strings(data.data_type()));
            }
            let array = make_array(data);
            let dictionary = array
                .as_any_dictionary_opt()
                .ok_or_else(|| malformed("not a dictionary"))?;
            let (values, large) = values_of(dictionary.values().to_data())?;
            let count = dictionary.values().len();
            let keys = dictionary.keys();
            let normalized = dictionary.normalized_keys();
            let keys: Vec<Option<usize>> = (0..len)
                .map(|i| keys.is_valid(i).then(|| normalized[i]))
                .collect();
            if let Some(bad) = keys.iter().flatten().find(|&&k| k >= count) {
                return Err(malformed(format!(
                    "dictionary key {bad} out of range (the dictionary has {count} values)"
                )));
            }
            Ok(Column {
                values,
                keys: Some(keys),
                large,
            })
        }
        _ => {
            let (values, large) = values_of(data)?;
            Ok(Column {
                values,
                keys: None,
                large,
            })
        }
    }
}

/// The values of a string (or null) array, re-typed as binary and validated.
fn values_of(data: ArrayData) -> PyResult<(Values, bool)> {
    match data.data_type() {
        DataType::Null => Ok((Values::Null(data.len()), false)),
        DataType::Utf8 => Ok((Values::Binary(binary_of(&data)?), false)),
        DataType::LargeUtf8 => Ok((Values::LargeBinary(binary_of(&data)?), true)),
        DataType::Utf8View => {
            // Validated by arrow (each view within its buffer).
            let data = data
                .into_builder()
                .data_type(DataType::BinaryView)
                .align_buffers(true)
                .build()
                .map_err(malformed)?;
            Ok((Values::View(BinaryViewArray::from(data)), false))
        }
        other => Err(not_strings(other)),
    }
}

/// The binary twin of an offset-based string array (`data`, which passed [`ArrayData::validate`]:
/// aligned, its buffers as long as its offset and length say), with what arrow's full validation
/// checks of it: the offsets ascend from 0 or more and end within the bytes. The offsets are looked at
/// in one pass without an exit, which the compiler vectorizes (arrow's full validation looks at each
/// one with its own error, several times the cost, on the calling thread).
fn binary_of<O: OffsetSizeTrait>(data: &ArrayData) -> PyResult<GenericBinaryArray<O>> {
    let offsets = ScalarBuffer::<O>::new(data.buffers()[0].clone(), data.offset(), data.len() + 1);
    let ascending = offsets.windows(2).fold(true, |ok, w| ok & (w[0] <= w[1]));
    if !ascending || offsets[0] < O::usize_as(0) {
        return Err(malformed("offsets that do not ascend from 0 or more"));
    }
    GenericBinaryArray::try_new(
        OffsetBuffer::new(offsets),
        data.buffers()[1].clone(),
        data.nulls().cloned(),
    )
    .map_err(malformed)
}

impl Column {
    /// A reader of the rows.
    pub(crate) fn reader(&self) -> Reader<'_> {
        let values = match &self.values {
            Values::Null(n) => ValuesReader::Null(*n),
            Values::Binary(a) => offsets_reader(a, Offsets::Small(a.value_offsets())),
            Values::LargeBinary(a) => offsets_reader(a, Offsets::Large(a.value_offsets())),
            Values::View(a) => ValuesReader::View(a),
        };
        Reader {
            values,
            keys: self.keys.as_deref(),
        }
    }
}

fn offsets_reader<'a, O: OffsetSizeTrait>(
    array: &'a GenericBinaryArray<O>,
    offsets: Offsets<'a>,
) -> ValuesReader<'a> {
    ValuesReader::Offsets {
        offsets,
        data: array.value_data(),
        nulls: array.nulls(),
        len: array.len(),
    }
}

#[derive(Clone, Copy)]
enum Offsets<'a> {
    Small(&'a [i32]),
    Large(&'a [i64]),
}

impl Offsets<'_> {
    #[inline]
    fn at(self, i: usize) -> usize {
        // Validated by arrow: non-negative, ascending, within the values buffer.
        match self {
            Offsets::Small(o) => o[i] as usize,
            Offsets::Large(o) => o[i] as usize,
        }
    }
}

enum ValuesReader<'a> {
    Null(usize),
    Offsets {
        offsets: Offsets<'a>,
        data: &'a [u8],
        nulls: Option<&'a NullBuffer>,
        len: usize,
    },
    View(&'a BinaryViewArray),
}

/// Reads the rows of a [`Column`].
pub(crate) struct Reader<'a> {
    values: ValuesReader<'a>,
    keys: Option<&'a [Option<usize>]>,
}

impl<'a> Reader<'a> {
    /// The number of rows.
    pub(crate) fn len(&self) -> usize {
        match self.keys {
            Some(keys) => keys.len(),
            None => self.value_count(),
        }
    }

    /// The number of values: the rows, or a dictionary's distinct values.
    pub(crate) fn value_count(&self) -> usize {
        match &self.values {
            ValuesReader::Null(n) => *n,
            ValuesReader::Offsets { len, .. } => *len,
            ValuesReader::View(a) => a.len(),
        }
    }

    /// Roughly how many bytes the rows hold: whether a call is long enough to release the GIL for.
    pub(crate) fn weight(&self) -> usize {
        let text = match &self.values {
            ValuesReader::Null(_) => 0,
            ValuesReader::Offsets { offsets, len, .. } => offsets.at(*len) - offsets.at(0),
            ValuesReader::View(a) => a.data_buffers().iter().map(|b| b.len()).sum::<usize>(),
        };
        text + 16 * self.len()
    }

    /// The keys of a dictionary-encoded column whose values are worth working out once each (there
    /// are no more of them than rows): each row's index into the values, `None` for a null row.
    pub(crate) fn shared_values(&self) -> Option<&'a [Option<usize>]> {
        self.keys.filter(|keys| self.value_count() <= keys.len())
    }

    /// Value `j` (of the dictionary, for a dictionary-encoded column), its UTF-8 checked alone.
    #[inline]
    pub(crate) fn value(&self, j: usize) -> Row<'a> {
        match &self.values {
            ValuesReader::Null(_) => Row::Null,
            ValuesReader::Offsets {
                offsets,
                data,
                nulls,
                ..
            } => {
                if nulls.is_some_and(|n| n.is_null(j)) {
                    return Row::Null;
                }
                text_or_bytes(&data[offsets.at(j)..offsets.at(j + 1)])
            }
            ValuesReader::View(a) => {
                if a.is_null(j) {
                    Row::Null
                } else {
                    text_or_bytes(a.value(j))
                }
            }
        }
    }

    /// `f(j, value j)` for the values `js` in order, with the UTF-8 of an offset-based column checked
    /// once for the bytes of the whole run, then only for the values that do not start and end on
    /// character boundaries of UTF-8 bytes.
    #[inline]
    pub(crate) fn for_each_value(&self, js: Range<usize>, mut f: impl FnMut(usize, Row<'a>)) {
        match &self.values {
            ValuesReader::Offsets {
                offsets,
                data,
                nulls,
                ..
            } => match offsets {
                Offsets::Small(o) => offset_run(o, data, *nulls, js, f),
                Offsets::Large(o) => offset_run(o, data, *nulls, js, f),
            },
            _ => js.for_each(|j| f(j, self.value(j))),
        }
    }

    /// Row `i`.
    #[inline]
    pub(crate) fn row(&self, i: usize) -> Row<'a> {
        match self.keys {
            Some(keys) => keys[i].map_or(Row::Null, |j| self.value(j)),
            None => self.value(i),
        }
    }

    /// `f(i, row i)` for the rows `rows` in order (see [`Reader::for_each_value`]).
    #[inline]
    pub(crate) fn for_each_row(&self, rows: Range<usize>, mut f: impl FnMut(usize, Row<'a>)) {
        match self.keys {
            Some(_) => rows.for_each(|i| f(i, self.row(i))),
            None => self.for_each_value(rows, f),
        }
    }

    /// `f` of every row, in row order. A dictionary's values are worked out once each (when there are
    /// no more of them than rows), then handed out to the rows that use them.
    pub(crate) fn map<T: Clone + Send>(
        &self,
        pool: Option<&rayon::ThreadPool>,
        f: impl Fn(Row<'a>) -> T + Sync + Send,
    ) -> Vec<T> {
        let runs = |n: usize, each: &(dyn Fn(Range<usize>, &mut Vec<T>) + Sync)| -> Vec<T> {
            let runs = crate::pool::par_chunks(pool, n, |r| {
                let mut out = Vec::with_capacity(r.len());
                each(r, &mut out);
                out
            });
            let mut all = Vec::with_capacity(n);
            runs.into_iter().for_each(|mut run| all.append(&mut run));
            all
        };
        match self.shared_values() {
            Some(keys) => {
                let values = runs(self.value_count(), &|js, out| {
                    self.for_each_value(js, |_, v| out.push(f(v)))
                });
                let null = f(Row::Null);
                keys.iter()
                    .map(|k| k.map_or_else(|| null.clone(), |j| values[j].clone()))
                    .collect()
            }
            None => runs(self.len(), &|rows, out| {
                self.for_each_row(rows, |_, row| out.push(f(row)))
            }),
        }
    }
}

/// [`Reader::for_each_value`] of an offset-based column: `offsets` and `data` validated by arrow.
#[inline]
fn offset_run<'a, O: OffsetSizeTrait>(
    offsets: &'a [O],
    data: &'a [u8],
    nulls: Option<&NullBuffer>,
    js: Range<usize>,
    mut f: impl FnMut(usize, Row<'a>),
) {
    if js.is_empty() {
        return;
    }
    let ends = &offsets[js.start..=js.end];
    let base = ends[0].as_usize();
    let run = std::str::from_utf8(&data[base..ends[ends.len() - 1].as_usize()]).ok();
    for (j, pair) in js.zip(ends.windows(2)) {
        if nulls.is_some_and(|n| n.is_null(j)) {
            f(j, Row::Null);
            continue;
        }
        let (start, end) = (pair[0].as_usize(), pair[1].as_usize());
        // Within UTF-8 bytes a value is text when it starts and ends on character boundaries.
        let row = match run.and_then(|r| r.get(start - base..end - base)) {
            Some(text) => Row::Text(text),
            None => text_or_bytes(&data[start..end]),
        };
        f(j, row);
    }
}

fn text_or_bytes(bytes: &[u8]) -> Row<'_> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Row::Text(text),
        Err(_) => Row::NotUtf8(bytes),
    }
}

/// The index in `bytes` counted in Unicode code points of byte `offset`, which ends a UTF-8 prefix (the
/// offset of an `invalid-utf8` error, or of an error before it).
pub(crate) fn char_offset_in_bytes(bytes: &[u8], offset: usize) -> usize {
    let prefix = &bytes[..offset.min(bytes.len())];
    if prefix.is_ascii() {
        return prefix.len();
    }
    match std::str::from_utf8(prefix) {
        Ok(text) => text.chars().count(),
        Err(e) => std::str::from_utf8(&prefix[..e.valid_up_to()]).map_or(0, |t| t.chars().count()),
    }
}
