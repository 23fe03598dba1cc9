//! A progress bar on standard error for long runs of `check`, drawn by indicatif.
//!
//! Shown only when asked for (standard error is a terminal, no `--quiet`, input not typed on a
//! terminal) and only once a run has taken [`DELAY`]: short runs, pipes, files and tests never see it.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before the bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// Lines and bytes done so far, and the bar once it is shown.
#[derive(Debug)]
pub(crate) struct Progress {
    enabled: bool,
    start: Instant,
    /// Total bytes of the inputs when all are regular files.
    total: Option<u64>,
    lines: u64,
    bytes: u64,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A progress that may show a bar (`enabled`) over `total` bytes, if known.
    pub(crate) fn new(enabled: bool, total: Option<u64>) -> Progress {
        Progress {
            enabled,
            start: Instant::now(),
            total,
            lines: 0,
            bytes: 0,
            bar: None,
        }
    }

    /// Counts `lines` more lines of `bytes` bytes done, and draws the bar if it is due.
    pub(crate) fn advance(&mut self, lines: u64, bytes: u64) {
        self.lines += lines;
        self.bytes += bytes;
        if !self.enabled {
            return;
        }
        let elapsed = self.start.elapsed();
        if self.bar.is_none() {
            if elapsed < DELAY {
                return;
            }
            self.bar = Some(self.show(elapsed));
        }
        if let Some(bar) = &self.bar {
            bar.set_position(self.bytes);
            let rate = self.lines as f64 / elapsed.as_secs_f64().max(1e-3);
            bar.set_message(format!("{} lines, {} lines/s", self.lines, rate as u64));
        }
    }

    /// Runs `write` (output to a terminal) with the bar cleared out of its way.
    pub(crate) fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// Removes the bar before the summary line.
    pub(crate) fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn show(&self, elapsed: Duration) -> ProgressBar {
        let template = if self.total.is_some() {
            "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg}"
        } else {
            "{spinner} [{elapsed_precise}] {bytes} {msg}"
        };
        let style =
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
        ProgressBar::with_draw_target(self.total, ProgressDrawTarget::stderr())
            .with_style(style)
            .with_elapsed(elapsed)
    }
}
