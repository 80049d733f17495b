//! Batches on every core, with results in input order.
//!
//! [`run_ordered`] is a three-stage pipeline:
//!
//! 1. a reader thread pulls inputs from an iterator (files, JSON lines) and
//!    hands them to the calling thread, at most [`in_flight`] ahead of the
//!    output, so memory stays bounded however long the stream;
//! 2. workers run the work on each input: at most `--jobs` of them, each
//!    started when an input is queued and every worker already has one, so
//!    never more workers than inputs;
//! 3. the calling thread puts the results back in input order and emits
//!    each as soon as every earlier one is out, flushing whenever it has to
//!    wait, so a program that writes one puzzle and waits for its verdict
//!    gets it at once.
//!
//! What the work returns is independent of the thread that ran it, so the
//! output is byte for byte that of a one-thread run. [`Terminal`] writes the
//! results to stdout and stderr, with a progress bar on a terminal.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, StdoutLock, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use anstream::AutoStream;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::input::LoadError;

/// How many inputs may be read but not yet emitted: enough to keep every
/// thread busy while an early, slow input holds the output back, few
/// enough that inputs of a megabyte each stay within memory.
fn in_flight(threads: usize) -> usize {
    threads.saturating_mul(16).max(64)
}

/// What travels to the calling thread.
enum Message<T, R> {
    /// The next input, from the reader.
    Input(T),
    /// The reader is done (its iterator ended, or it stopped).
    End,
    /// Input `i`'s result, from a worker; `Err` holds a panic's payload.
    Done(usize, thread::Result<R>),
}

/// Sends [`Message::End`] when the reader stops, even by a panic.
struct EndGuard<T, R>(mpsc::Sender<Message<T, R>>);

impl<T, R> Drop for EndGuard<T, R> {
    fn drop(&mut self) {
        let _ = self.0.send(Message::End);
    }
}

/// Where [`run_ordered`] puts the results.
pub(crate) trait Sink<R> {
    /// Takes the next result, in input order.
    fn emit(&mut self, result: R) -> io::Result<()>;

    /// Called whenever the next result is not ready yet: the place to
    /// flush what was emitted.
    fn idle(&mut self) -> io::Result<()>;
}

/// Runs `work(i, input)` for every input on `threads` threads (fewer when
/// there are fewer inputs) and hands the results to `sink` in input order.
///
/// The reader thread is not joined: if the sink fails (the reader of our
/// output went away), this returns at once even while the reader waits for
/// input that may never come, and the process ends it by exiting.
///
/// # Errors
///
/// The first error of the sink, or a thread that cannot start.
///
/// # Panics
///
/// A panic in `work` is raised again here, after the other workers finish.
pub(crate) fn run_ordered<I, R, W>(
    threads: usize,
    inputs: I,
    work: W,
    sink: &mut impl Sink<R>,
) -> io::Result<()>
where
    I: Iterator + Send + 'static,
    I::Item: Send + 'static,
    R: Send + 'static,
    W: Fn(usize, I::Item) -> R + Sync,
{
    let threads = threads.max(1);
    let (messages, inbox) = mpsc::channel::<Message<I::Item, R>>();
    // The reader takes a permit before each input; one comes back with
    // each result emitted.
    let (permits, permit_box) = mpsc::channel::<()>();
    for _ in 0..in_flight(threads) {
        permits.send(()).expect("the receiver is alive");
    }
    let guard = EndGuard(messages.clone());
    thread::Builder::new()
        .name("bitfd-reader".to_owned())
        .spawn(move || {
            let guard = guard;
            let mut inputs = inputs;
            while permit_box.recv().is_ok() {
                let Some(input) = inputs.next() else { break };
                if guard.0.send(Message::Input(input)).is_err() {
                    break;
                }
            }
        })?;

    // The work queue: workers take the next input from it. A worker is
    // started when an input is queued and every worker already has one, up
    // to `threads`: never more workers than inputs, and a program that
    // writes one input and waits for its result gets it at once.
    let (jobs, job_box) = mpsc::channel::<(usize, I::Item)>();
    let job_box = Mutex::new(job_box);
    // Set once this returns (an error, a panic, or the end): the workers
    // then leave the queued inputs alone.
    let stop = AtomicBool::new(false);
    let (work, job_box, stop) = (&work, &job_box, &stop);
    thread::scope(|scope| {
        let _stop = StopGuard(stop);
        // Dropped when this closure ends, however: the workers then stop.
        let jobs = jobs;
        let mut workers = 0;
        let mut read = 0;
        let mut done = 0;
        let mut emitted = 0;
        let mut ended = false;
        let mut waiting: BTreeMap<usize, R> = BTreeMap::new();
        while !(ended && emitted == read) {
            let message = match inbox.try_recv() {
                Ok(message) => message,
                Err(_) => {
                    sink.idle()?;
                    inbox.recv().expect("this thread holds a sender")
                }
            };
            match message {
                Message::Input(input) => {
                    let i = read;
                    read += 1;
                    // The workers' end of the queue lives as long as this.
                    let _ = jobs.send((i, input));
                    if read - done > workers && workers < threads {
                        let messages = messages.clone();
                        thread::Builder::new()
                            .name(format!("bitfd-worker-{workers}"))
                            .spawn_scoped(scope, move || worker(job_box, stop, work, &messages))?;
                        workers += 1;
                    }
                }
                Message::End => ended = true,
                Message::Done(i, result) => {
                    done += 1;
                    match result {
                        Ok(r) => waiting.insert(i, r),
                        Err(payload) => panic::resume_unwind(payload),
                    };
                    while let Some(r) = waiting.remove(&emitted) {
                        sink.emit(r)?;
                        emitted += 1;
                        // The reader may have finished: nobody needs it then.
                        let _ = permits.send(());
                    }
                }
            }
        }
        Ok(())
    })
}

/// A worker: runs `work` on each input it takes from the queue until the
/// queue closes or the batch stops, and sends back each result (or the
/// payload of a panic).
fn worker<T, R>(
    job_box: &Mutex<mpsc::Receiver<(usize, T)>>,
    stop: &AtomicBool,
    work: &(impl Fn(usize, T) -> R + Sync),
    messages: &mpsc::Sender<Message<T, R>>,
) {
    loop {
        // A panic never happens while the lock is held: a poisoned lock
        // still guards a sound queue.
        let job = job_box
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv();
        let Ok((i, input)) = job else { return };
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let result = panic::catch_unwind(AssertUnwindSafe(|| work(i, input)));
        if messages.send(Message::Done(i, result)).is_err() {
            return;
        }
    }
}

/// Sets its flag when dropped.
struct StopGuard<'a>(&'a AtomicBool);

impl Drop for StopGuard<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// One input's output: text for stdout and for stderr, styled (anstream
/// strips the styles where colour is off), and whether it failed.
#[derive(Debug, Default)]
pub(crate) struct Output {
    /// For stdout.
    pub(crate) out: String,
    /// For stderr, written before `out`.
    pub(crate) err: String,
    /// Whether this input makes the exit code 1.
    pub(crate) failed: bool,
    /// Whether a limit left this input's answer unknown (exit code 3,
    /// unless another input makes it 1).
    pub(crate) unknown: bool,
}

impl Output {
    /// The output for an input that gave no puzzle: its diagnostics on
    /// stderr, and with `json` a document that says so, so that stdout
    /// keeps one line an input.
    pub(crate) fn load_error(e: &LoadError, json: bool) -> Output {
        let out = if json {
            let doc = serde_json::json!({
                "file": e.input.file,
                "line": e.input.line,
                "verdict": "error",
                "error": e.message,
            });
            format!("{doc}\n")
        } else {
            String::new()
        };
        Output {
            out,
            err: e.rendered.clone(),
            failed: true,
            unknown: false,
        }
    }
}

/// Stdout and stderr of a batch, with its progress bar.
#[derive(Debug)]
pub(crate) struct Terminal {
    out: io::BufWriter<AutoStream<StdoutLock<'static>>>,
    progress: Progress,
    /// Whether stdout is a terminal: then the bar must be cleared before
    /// each write to it.
    stdout_is_terminal: bool,
    /// Whether any input failed.
    pub(crate) failed: bool,
    /// Whether a limit left any input's answer unknown.
    pub(crate) unknown: bool,
}

impl Sink<Output> for Terminal {
    fn emit(&mut self, output: Output) -> io::Result<()> {
        self.write(&output)
    }

    fn idle(&mut self) -> io::Result<()> {
        self.flush()
    }
}

impl Terminal {
    /// A terminal for a batch of `total` inputs, when known beforehand.
    pub(crate) fn new(total: Option<u64>) -> Terminal {
        Terminal {
            out: io::BufWriter::new(anstream::stdout().lock()),
            progress: Progress::new(total),
            stdout_is_terminal: io::stdout().is_terminal(),
            failed: false,
            unknown: false,
        }
    }

    /// Writes one input's output: stderr first, then stdout.
    pub(crate) fn write(&mut self, output: &Output) -> io::Result<()> {
        self.failed |= output.failed;
        self.unknown |= output.unknown;
        let out = &mut self.out;
        let to_terminal = self.stdout_is_terminal;
        self.progress.around(|| {
            if !output.err.is_empty() {
                // Earlier results first, so the message lands beside its input.
                out.flush()?;
                let mut err = anstream::stderr().lock();
                err.write_all(output.err.as_bytes())?;
                err.flush()?;
            }
            out.write_all(output.out.as_bytes())?;
            if to_terminal {
                out.flush()?;
            }
            Ok::<(), io::Error>(())
        })?;
        self.progress.advance();
        Ok(())
    }

    /// Flushes stdout.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        let out = &mut self.out;
        self.progress.around(|| out.flush())
    }

    /// Flushes stdout and clears the progress bar; whether any input
    /// failed, and whether any was left unknown.
    pub(crate) fn finish(mut self) -> io::Result<(bool, bool)> {
        self.progress.finish();
        self.out.flush()?;
        Ok((self.failed, self.unknown))
    }
}

/// A batch's progress bar: on stderr, only when stderr is a terminal, and
/// only once the batch is long (see [`Progress::shows`]).
#[derive(Debug)]
pub(crate) struct Progress {
    /// `None` when stderr is not a terminal: nothing is ever drawn.
    bar: Option<ProgressBar>,
    /// Whether the bar is drawn yet.
    visible: bool,
    total: Option<u64>,
    started: Instant,
}

impl Progress {
    /// A bar for `total` inputs (unknown for a stream), hidden until the
    /// batch turns out long.
    pub(crate) fn new(total: Option<u64>) -> Progress {
        let bar = io::stderr().is_terminal().then(|| {
            let template = match total {
                Some(_) => "{bar:30} {pos}/{len} puzzles  {rate}  {elapsed} (eta {eta})",
                None => "{spinner} {pos} puzzles  {rate}  {elapsed}",
            };
            let style = ProgressStyle::with_template(template)
                .expect("a valid template")
                .with_key(
                    "rate",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0} puzzles/s", state.per_sec());
                    },
                );
            let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
            bar.set_style(style);
            bar
        });
        Progress {
            bar,
            visible: false,
            total,
            started: Instant::now(),
        }
    }

    /// Whether a batch on a terminal shows its bar: one known to hold more
    /// than 100 inputs, or a stream, once it has run for a fifth of a
    /// second (so a fast batch does not flash a bar); any batch once it
    /// has run for a second.
    pub(crate) fn shows(total: Option<u64>, elapsed: Duration) -> bool {
        let long = total.is_none_or(|n| n > 100);
        elapsed >= Duration::from_secs(1) || (long && elapsed >= Duration::from_millis(200))
    }

    /// Counts one input done, and shows the bar once the batch is long.
    fn advance(&mut self) {
        let Some(bar) = &self.bar else { return };
        bar.inc(1);
        if !self.visible && Progress::shows(self.total, self.started.elapsed()) {
            self.visible = true;
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Runs `f` with the bar cleared from the terminal, if it is drawn.
    fn around<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) if self.visible => bar.suspend(f),
            _ => f(),
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    /// A batch cut short (its output closed) leaves no bar behind either.
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collects results; fails at the `fail_at`-th.
    struct Collect<R> {
        seen: Vec<R>,
        fail_at: usize,
    }

    impl<R> Sink<R> for Collect<R> {
        fn emit(&mut self, result: R) -> io::Result<()> {
            self.seen.push(result);
            if self.seen.len() == self.fail_at {
                return Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            Ok(())
        }

        fn idle(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn collect<R>() -> Collect<R> {
        Collect {
            seen: Vec::new(),
            fail_at: usize::MAX,
        }
    }

    #[test]
    fn results_come_in_input_order_whatever_the_threads() {
        for threads in [1, 2, 4] {
            let mut sink = collect();
            run_ordered(
                threads,
                0..3000u64,
                // Later inputs finish first: the slow ones are the early ones.
                |i, x| {
                    if i % 100 == 0 {
                        thread::sleep(Duration::from_millis(1));
                    }
                    (i, x * 2)
                },
                &mut sink,
            )
            .expect("runs");
            let want: Vec<(usize, u64)> = (0..3000).map(|i| (i as usize, i * 2)).collect();
            assert_eq!(sink.seen, want, "{threads} threads");
        }
    }

    #[test]
    fn no_more_workers_than_inputs() {
        // Asked for 64 threads, three inputs get at most three workers (the
        // number in each worker's name), a long stream at most 64.
        let worker = |_: usize, _: u64| {
            let name = thread::current().name().map(str::to_owned);
            let n = name
                .as_deref()
                .and_then(|n| n.strip_prefix("bitfd-worker-"));
            n.and_then(|n| n.parse::<u64>().ok()).expect("a worker")
        };
        for (inputs, most) in [(0u64, 0), (1, 1), (3, 3), (500, 64)] {
            let mut sink = collect();
            run_ordered(64, 0..inputs, worker, &mut sink).expect("runs");
            assert_eq!(sink.seen.len() as u64, inputs);
            assert!(sink.seen.iter().all(|&w| w < most), "{inputs} inputs");
        }
    }

    #[test]
    fn an_emit_error_stops_the_batch() {
        let mut sink = Collect {
            seen: Vec::new(),
            fail_at: 10,
        };
        let result = run_ordered(2, 0..1_000_000u64, |_, x| x, &mut sink);
        assert_eq!(result.map_err(|e| e.kind()), Err(io::ErrorKind::BrokenPipe));
        assert_eq!(sink.seen, (0..10).collect::<Vec<u64>>());
    }

    #[test]
    #[should_panic(expected = "input 7")]
    fn a_panic_in_the_work_is_raised_again() {
        let _ = run_ordered(
            2,
            0..20u64,
            |i, _| assert!(i != 7, "input {i}"),
            &mut collect(),
        );
    }

    #[test]
    fn the_bar_waits_for_a_long_batch() {
        let ms = Duration::from_millis;
        assert!(!Progress::shows(Some(5000), ms(50)));
        assert!(Progress::shows(Some(5000), ms(250)));
        assert!(Progress::shows(None, ms(250)));
        assert!(!Progress::shows(Some(50), ms(500)));
        assert!(Progress::shows(Some(50), ms(1500)));
    }
}
