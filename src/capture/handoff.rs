//! Hand-over of live capture from `mcptap` to `mcptap-live`, the one executable linked to libpcap.
//! Wireshark keeps capture in `dumpcap` for the same two reasons: the C library and the capture
//! privileges stay in one small place, and everything else runs without them.
//!
//! The helper is looked for beside the running executable, where `cargo install` and packages put it. It
//! is first started once with `--version`: when the system cannot load its shared libraries (libpcap
//! missing), the dynamic loader ends it before `main` with status 127 (glibc, musl) or SIGABRT (macOS
//! dyld) and a message of its own, which `probe_outcome` turns into one line saying what to install.
//! Only then is this process replaced (exec), so the sensor keeps the pid the user started and receives
//! SIGINT/SIGTERM itself.

use std::path::{Path, PathBuf};

/// The helper's file name, without the platform's executable suffix.
pub const HELPER: &str = "mcptap-live";

/// Why live capture could not be handed over; printed as one line, exit 2.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandOffError {
    #[error("live capture needs {path}, which is not installed beside mcptap (cargo install --path . --features live installs both)")]
    NotInstalled { path: String },
    #[error(
        "live capture needs libpcap, which the system could not load ({detail}); install it: \
         apt-get install libpcap0.8 (Debian/Ubuntu), dnf install libpcap (Fedora)"
    )]
    LibpcapMissing { detail: String },
    #[error("cannot start {path}: {msg}")]
    Start { path: String, msg: String },
    #[error("live capture is supported on Linux and macOS only")]
    Unsupported,
    /// `mcptap` copied under the helper's name: handing over would start this program again, forever.
    #[error("{path} is mcptap itself, not the live capture helper (cargo build --features live builds both: install target/release/mcptap-live)")]
    SelfHelper { path: String },
}

/// Where the helper must be: beside the executable running now.
pub fn helper_path() -> Result<PathBuf, HandOffError> {
    let exe = std::env::current_exe()
        .map_err(|e| HandOffError::Start { path: HELPER.into(), msg: format!("cannot locate mcptap itself: {}", crate::io_reason(&e)) })?;
    let name = format!("{HELPER}{}", std::env::consts::EXE_SUFFIX);
    let path = exe.parent().map_or_else(|| PathBuf::from(&name), |dir| dir.join(&name));
    if path.is_file() {
        Ok(path)
    } else {
        Err(HandOffError::NotInstalled { path: path.display().to_string() })
    }
}

/// Set in the helper's environment by the hand-over. A build without live capture that finds it set was
/// itself started as the helper (a copy of `mcptap` under the helper's name): it says so instead of handing
/// over again, which would start it once more, without end.
pub const HANDED_OVER: &str = "MCPTAP_HANDED_OVER";

/// Judges the helper's `--version` run: `exit_code` is `None` when a signal ended it.
pub fn probe_outcome(path: &Path, exit_code: Option<i32>, stderr: &str) -> Result<(), HandOffError> {
    if exit_code == Some(0) {
        return Ok(());
    }
    let first_line = stderr.lines().map(str::trim).find(|l| !l.is_empty());
    // glibc: "PROG: error while loading shared libraries: libpcap.so.0.8: cannot open shared object file: ..."
    let loader = stderr.lines().find_map(|l| l.split_once("error while loading shared libraries: ").map(|(_, d)| d.trim()));
    let dyld = stderr.lines().find_map(|l| l.split_once("Library not loaded: ").map(|(_, d)| d.trim()));
    match (exit_code, loader.or(dyld)) {
        (_, Some(detail)) => Err(HandOffError::LibpcapMissing { detail: detail.to_string() }),
        (Some(127) | None, None) => Err(HandOffError::LibpcapMissing {
            detail: first_line.map_or_else(|| describe(exit_code), str::to_string),
        }),
        (Some(_), None) => Err(HandOffError::Start {
            path: path.display().to_string(),
            msg: first_line.map_or_else(|| describe(exit_code), str::to_string),
        }),
    }
}

fn describe(exit_code: Option<i32>) -> String {
    match exit_code {
        Some(c) => format!("exit status {c}"),
        None => "ended by a signal".to_string(),
    }
}

/// Starts the helper once to learn whether the system can load it at all.
fn probe(path: &Path) -> Result<(), HandOffError> {
    use std::process::{Command, Stdio};
    let out = Command::new(path)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| HandOffError::Start { path: path.display().to_string(), msg: crate::io_reason(&e) })?;
    probe_outcome(path, out.status.code(), &String::from_utf8_lossy(&out.stderr))
}

/// Replaces this process with the helper, given this process's own arguments. Returns only on failure.
#[cfg(unix)]
pub fn exec_live_helper() -> HandOffError {
    use std::os::unix::process::CommandExt;
    let path = match helper_path() {
        Ok(p) => p,
        Err(e) => return e,
    };
    if std::env::var_os(HANDED_OVER).is_some() {
        return HandOffError::SelfHelper { path: path.display().to_string() };
    }
    if let Err(e) = probe(&path) {
        return e;
    }
    // argv[0] stays "mcptap": it is what the user ran, and what ps and the messages show.
    let err = std::process::Command::new(&path).arg0("mcptap").args(std::env::args_os().skip(1)).env(HANDED_OVER, "1").exec();
    HandOffError::Start { path: path.display().to_string(), msg: crate::io_reason(&err) }
}

#[cfg(not(unix))]
pub fn exec_live_helper() -> HandOffError {
    HandOffError::Unsupported
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn outcome(code: Option<i32>, stderr: &str) -> Result<(), HandOffError> {
        probe_outcome(Path::new("/opt/bin/mcptap-live"), code, stderr)
    }

    #[test]
    fn success_hands_over() {
        assert_eq!(outcome(Some(0), ""), Ok(()));
    }

    #[test]
    fn glibc_loader_message_names_the_library() {
        let e = outcome(
            Some(127),
            "/opt/bin/mcptap-live: error while loading shared libraries: libpcap.so.0.8: cannot open shared object file: No such file or directory\n",
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "live capture needs libpcap, which the system could not load (libpcap.so.0.8: cannot open shared object \
             file: No such file or directory); install it: apt-get install libpcap0.8 (Debian/Ubuntu), dnf install \
             libpcap (Fedora)"
        );
    }

    #[test]
    fn dyld_abort_is_a_missing_library_too() {
        let e = outcome(
            None,
            "dyld[812]: Library not loaded: /usr/lib/libpcap.A.dylib\n  Referenced from: /opt/bin/mcptap-live\n",
        )
        .unwrap_err();
        assert_eq!(e, HandOffError::LibpcapMissing { detail: "/usr/lib/libpcap.A.dylib".into() });
    }

    #[test]
    fn status_127_without_a_message_still_says_libpcap() {
        assert_eq!(outcome(Some(127), ""), Err(HandOffError::LibpcapMissing { detail: "exit status 127".into() }));
    }

    #[test]
    fn other_failures_show_the_helpers_first_line() {
        assert_eq!(
            outcome(Some(3), "\n  weird: broken\nmore\n"),
            Err(HandOffError::Start { path: "/opt/bin/mcptap-live".into(), msg: "weird: broken".into() })
        );
    }
}
