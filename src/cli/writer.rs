//! A writer thread for standard output, for output that streams: the
//! solutions of `solve --all` and `--max N`, each out soon after the search
//! finds it.
//!
//! The search hands text to a [`Pipe`], which costs it a lock and a push,
//! never a system call; the writer thread takes what has come in, at most
//! [`GATHER`] after the first of it, and writes it in one block. So a
//! solution is out within a few milliseconds, however long the search runs
//! on afterwards, and a fast search still writes in large blocks. At most
//! [`MAX_PENDING`] bytes wait: past that the search waits for the writer,
//! so memory stays bounded however fast the solutions come. When a write
//! fails (the reader went away: `| head`), the pipe closes, and the search
//! learns it at its next solution and stops.

use std::io::{self, BufWriter, Write};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// How long the writer gathers text after the first of a batch comes in.
const GATHER: Duration = Duration::from_millis(2);

/// The most bytes waiting for the writer before the search waits.
const MAX_PENDING: usize = 1 << 20;

/// What waits for the writer.
#[derive(Debug, Default)]
struct Pending {
    /// The chunks in order.
    chunks: Vec<Chunk>,
    /// Their bytes.
    bytes: usize,
    /// The search is over: write what is left, and end.
    done: bool,
    /// A write failed: take nothing more.
    closed: bool,
}

/// Text for one of the two streams.
#[derive(Debug)]
enum Chunk {
    /// For standard output.
    Out(String),
    /// For standard error, written once what came before it is out.
    Err(String),
}

/// What the search and the writer share.
#[derive(Debug, Default)]
struct Shared {
    pending: Mutex<Pending>,
    /// Signalled when text comes in while none was waiting, and at the end.
    ready: Condvar,
    /// Signalled when the writer takes the text, or closes.
    room: Condvar,
}

impl Shared {
    /// The pending text, locked. Nothing panics while the lock is held
    /// but a write error's handling, which leaves it sound.
    fn lock(&self) -> MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The writer stopped: a write failed (its error is [`Pipe::finish`]'s).
#[derive(Debug)]
pub(crate) struct Closed;

/// The search's end of the writer thread.
#[derive(Debug)]
pub(crate) struct Pipe {
    shared: std::sync::Arc<Shared>,
    writer: Option<JoinHandle<io::Result<()>>>,
}

impl Pipe {
    /// Starts the writer thread. Where colour is off, it strips the styles
    /// from the text (as anstream's stdout does).
    pub(crate) fn start() -> io::Result<Pipe> {
        let shared = std::sync::Arc::new(Shared::default());
        let strip = anstream::stdout().current_choice() == anstream::ColorChoice::Never;
        let theirs = std::sync::Arc::clone(&shared);
        let writer = thread::Builder::new()
            .name("bitfd-writer".to_owned())
            .spawn(move || write_all(&theirs, strip))?;
        Ok(Pipe {
            shared,
            writer: Some(writer),
        })
    }

    /// Hands `text` to the writer, for standard output.
    ///
    /// # Errors
    ///
    /// [`Closed`] once a write failed.
    pub(crate) fn out(&self, text: String) -> Result<(), Closed> {
        self.send(Chunk::Out(text))
    }

    /// Hands `text` to the writer, for standard error.
    ///
    /// # Errors
    ///
    /// [`Closed`] once a write failed.
    pub(crate) fn err(&self, text: String) -> Result<(), Closed> {
        self.send(Chunk::Err(text))
    }

    fn send(&self, chunk: Chunk) -> Result<(), Closed> {
        let bytes = match &chunk {
            Chunk::Out(text) | Chunk::Err(text) => text.len(),
        };
        if bytes == 0 {
            return Ok(());
        }
        let mut pending = self.shared.lock();
        while pending.bytes >= MAX_PENDING && !pending.closed {
            pending = self
                .shared
                .room
                .wait(pending)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if pending.closed {
            return Err(Closed);
        }
        if pending.chunks.is_empty() {
            self.shared.ready.notify_one();
        }
        pending.chunks.push(chunk);
        pending.bytes += bytes;
        Ok(())
    }

    /// Waits for the writer to write everything.
    ///
    /// # Errors
    ///
    /// The first write error.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.end();
        match self.writer.take().map(JoinHandle::join) {
            Some(Ok(written)) => written,
            Some(Err(payload)) => std::panic::resume_unwind(payload),
            None => Ok(()),
        }
    }

    /// Tells the writer that nothing more comes.
    fn end(&self) {
        self.shared.lock().done = true;
        self.shared.ready.notify_one();
    }
}

impl Drop for Pipe {
    /// A pipe dropped without [`Pipe::finish`] (a panic) still lets the
    /// writer end.
    fn drop(&mut self) {
        self.end();
    }
}

/// The writer thread: writes the pending text, batch by batch, until the
/// search is done.
fn write_all(shared: &Shared, strip: bool) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    loop {
        let mut pending = shared.lock();
        while pending.chunks.is_empty() && !pending.done {
            pending = shared
                .ready
                .wait(pending)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if pending.chunks.is_empty() {
            break;
        }
        if !pending.done {
            // Let more come, so that the text goes out in large blocks.
            drop(pending);
            thread::sleep(GATHER);
            pending = shared.lock();
        }
        let chunks = std::mem::take(&mut pending.chunks);
        pending.bytes = 0;
        shared.room.notify_one();
        drop(pending);
        if let Err(e) = write_chunks(&mut out, &chunks, strip) {
            shared.lock().closed = true;
            shared.room.notify_one();
            return Err(e);
        }
    }
    out.flush()
}

/// Writes `chunks` in order and flushes.
fn write_chunks(out: &mut impl Write, chunks: &[Chunk], strip: bool) -> io::Result<()> {
    for chunk in chunks {
        match chunk {
            Chunk::Out(text) if strip => write!(out, "{}", anstream::adapter::strip_str(text))?,
            Chunk::Out(text) => out.write_all(text.as_bytes())?,
            Chunk::Err(text) => {
                // Earlier results first, so the message lands beside its input.
                out.flush()?;
                let mut err = anstream::stderr().lock();
                err.write_all(text.as_bytes())?;
                err.flush()?;
            }
        }
    }
    out.flush()
}
