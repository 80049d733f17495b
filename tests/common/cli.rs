//! Running the `bitfd` binary from tests, and insta settings for its
//! output snapshots (in the top-level `snapshots/`, times redacted).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What one run of the binary did.
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// The run as one snapshot: exit code, stdout, stderr.
    pub(crate) fn render(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Runs `bitfd args...` in the package root, with `stdin` piped in.
pub(crate) fn run(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bitfd"));
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the binary runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.unwrap_or_default().to_vec();
    let writer = std::thread::spawn(move || {
        // The binary may exit before reading everything (a usage error).
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("the writer thread");
    Run {
        code: out.status.code().expect("an exit code"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    }
}

/// Snapshot settings: the top-level folder, and times redacted.
pub(crate) fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s.add_filter(r"time \d+\.\d+ m?s", "time [time]");
    s.add_filter(r"\d+\.\d puzzles/s", "[rate] puzzles/s");
    s
}

/// A path relative to the package root, with `/` separators.
pub(crate) fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .expect("inside the package")
        .to_string_lossy()
        .replace('\\', "/")
}
