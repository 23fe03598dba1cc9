//! The batch API's thread pool: one rayon pool per process, made at the first batch call that needs
//! it, with `RAYON_NUM_THREADS` threads (all cores when unset).
//!
//! A pool does not survive `fork` (the child has none of its threads: work handed to it would wait
//! forever), so the pool is made again in a process whose id is not the one it was made in; the
//! parent's pool is left alone there (leaked: dropping it would wake threads that do not exist). The
//! pool is looked up with the GIL held, so a fork from Python (which holds the GIL too) cannot happen
//! while another thread holds the lock below. A pool that cannot start (more threads than the process
//! may have) is an ordinary `RuntimeError`, raised by every call that needs the pool, in that process.

use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::prelude::*;

/// Rows per rayon task: an array of fewer than twice this many rows is worked on by the calling thread
/// alone; a longer one is shared out in tasks of at least this many rows (at about 0.1 us a row, a task
/// is tens of microseconds, well above what handing it to another thread costs).
pub(crate) const MIN_ROWS_PER_TASK: usize = 1024;

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

/// `f` of `0..n`, in order: on `pool` in tasks of at least [`MIN_ROWS_PER_TASK`] indices, or on the
/// calling thread when there is no pool or too few indices.
pub(crate) fn par_map<T: Send>(
    pool: Option<&rayon::ThreadPool>,
    n: usize,
    f: impl Fn(usize) -> T + Sync + Send,
) -> Vec<T> {
    match pool {
        Some(pool) if n >= 2 * MIN_ROWS_PER_TASK => pool.install(|| {
            (0..n)
                .into_par_iter()
                .with_min_len(MIN_ROWS_PER_TASK)
                .map(f)
                .collect()
        }),
        _ => (0..n).map(f).collect(),
    }
}
