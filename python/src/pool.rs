//! The batch API's thread pool: one rayon pool per process, made at the first batch call that needs
//! it, with `RAYON_NUM_THREADS` threads (all cores when unset).
//!
//! A pool does not survive `fork` (the child has none of its threads: work handed to it would wait
//! forever), so the pool is made again in a process whose id is not the one it was made in; the
//! parent's pool is left alone there (leaked: dropping it would wake threads that do not exist). The
//! pool is looked up with the GIL held, so a fork from Python (which holds the GIL too) cannot happen
//! while another thread holds the lock below. A pool that cannot start (more threads than the process
//! may have) is an ordinary `RuntimeError`, raised by every call that needs the pool, in that process.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::prelude::*;

/// Rows per rayon task: an array of fewer than twice this many rows is worked on by the calling thread
/// alone; a longer one is shared out in tasks of at least this many rows (at about 0.1 us a row, a task
/// is tens of microseconds, well above what handing it to another thread costs).
pub(crate) const MIN_ROWS_PER_TASK: usize = 1024;
const _: () = assert!(MIN_ROWS_PER_TASK.is_multiple_of(64));

struct State {
    pid: u32,
    pool: Result<Arc<rayon::ThreadPool>, String>,
}

static POOL: Mutex<Option<State>> = Mutex::new(None);

/// The pool of this process, made if needed. Called with the GIL held (see the module docs).
pub(crate) fn pool(_py: Python<'_>) -> PyResult<Arc<rayon::ThreadPool>> {
    let pid = std::process::id();
    let mut state = POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(old) = state.take_if(|s| s.pid != pid) {
        // Made before a fork: its threads are the parent's.
        std::mem::forget(old);
    }
    let current = state.get_or_insert_with(|| State {
        pid,
        pool: rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("rfc3986-batch-{i}"))
            .build()
            .map(Arc::new)
            .map_err(|e| e.to_string()),
    });
    current.pool.clone().map_err(|e| {
        PyRuntimeError::new_err(format!(
            "the batch API's thread pool cannot start ({e}); set RAYON_NUM_THREADS to fewer threads \
             (RAYON_NUM_THREADS={})",
            std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "unset".to_string())
        ))
    })
}

/// The pool for work over `rows` rows: `None` (work on the calling thread) when there are too few to
/// share out.
pub(crate) fn for_rows(py: Python<'_>, rows: usize) -> PyResult<Option<Arc<rayon::ThreadPool>>> {
    if rows < 2 * MIN_ROWS_PER_TASK {
        Ok(None)
    } else {
        pool(py).map(Some)
    }
}

/// `f` of `0..n`, in order: on `pool` in tasks of at least `per_task` indices, or on the calling
/// thread when there is no pool or too few indices for two tasks.
pub(crate) fn par_map<T: Send>(
    pool: Option<&rayon::ThreadPool>,
    n: usize,
    per_task: usize,
    f: impl Fn(usize) -> T + Sync + Send,
) -> Vec<T> {
    match pool {
        Some(pool) if n >= 2 * per_task => pool.install(|| {
            (0..n)
                .into_par_iter()
                .with_min_len(per_task)
                .map(f)
                .collect()
        }),
        _ => (0..n).map(f).collect(),
    }
}

/// `f` of each run of [`MIN_ROWS_PER_TASK`] indices of `0..n` (the last one shorter), in order: on
/// `pool`, one task per run, or on the calling thread when there is no pool or too few indices. The
/// runs start at multiples of [`MIN_ROWS_PER_TASK`] (a multiple of 64: a run's bits fill whole words
/// of a bitmap).
pub(crate) fn par_chunks<T: Send>(
    pool: Option<&rayon::ThreadPool>,
    n: usize,
    f: impl Fn(Range<usize>) -> T + Sync + Send,
) -> Vec<T> {
    let run = |c: usize| f(c * MIN_ROWS_PER_TASK..n.min((c + 1) * MIN_ROWS_PER_TASK));
    let runs = n.div_ceil(MIN_ROWS_PER_TASK);
    match pool {
        Some(pool) if n >= 2 * MIN_ROWS_PER_TASK => {
            pool.install(|| (0..runs).into_par_iter().map(run).collect())
        }
        _ => (0..runs).map(run).collect(),
    }
}

/// `(a(), b())`: in parallel on `pool`, or one after the other on the calling thread when there is no
/// pool.
pub(crate) fn join<A: Send, B: Send>(
    pool: Option<&rayon::ThreadPool>,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    match pool {
        Some(pool) => pool.install(|| rayon::join(a, b)),
        None => (a(), b()),
    }
}
