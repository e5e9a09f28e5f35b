//! The files a run writes, checked before the first packet is read: no output is an input (the same file
//! by device and inode, so a hard link or another spelling of the path is caught too), no two outputs are
//! the same file, and each output can be opened for writing. `mcptap -r x.pcap -o x.pcap` must never
//! truncate the capture it was asked to read.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// A file named on the command line, with the flag that named it (for the message).
#[derive(Debug, Clone)]
pub struct Named<'a> {
    pub flag: &'static str,
    pub path: &'a Path,
}

/// Why an output path was refused (a usage error: one line, exit 2).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PathError {
    #[error("{path}: refusing to write the {flag} output over an input ({input_flag} {input}); choose another file")]
    OverwritesInput { path: String, flag: &'static str, input_flag: &'static str, input: String },
    #[error("{path}: given to both {first} and {second}; each output needs its own file")]
    SameOutput { path: String, first: &'static str, second: &'static str },
}

/// Identity of an existing file: (device, inode) on Unix; the canonical path elsewhere.
#[derive(Debug, PartialEq, Eq)]
enum Identity {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg(not(unix))]
    Path(PathBuf),
}

fn identity(p: &Path) -> Option<Identity> {
    // `-r -` reads standard input: compare with the file (if any) it is redirected from.
    let p = if p == Path::new("-") { Path::new("/dev/stdin") } else { p };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(p).ok()?;
        // Only regular files can be overwritten by mistake; /dev/stdout given as output to a pipe
        // read as input is not this error.
        m.is_file().then(|| Identity::Inode(m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(p).ok().map(Identity::Path)
    }
}

/// Outputs that do not exist yet are told apart by their absolute path.
fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Refuses an output that is an input, and two outputs naming the same file.
pub fn check(outputs: &[Named<'_>], inputs: &[Named<'_>]) -> Result<(), PathError> {
    let inputs: Vec<(&Named<'_>, Identity)> = inputs.iter().filter_map(|i| identity(i.path).map(|id| (i, id))).collect();
    for (n, o) in outputs.iter().enumerate() {
        if let Some(id) = identity(o.path) {
            if let Some((i, _)) = inputs.iter().find(|(_, iid)| *iid == id) {
                return Err(PathError::OverwritesInput {
                    path: o.path.display().to_string(),
                    flag: o.flag,
                    input_flag: i.flag,
                    input: i.path.display().to_string(),
                });
            }
        }
        for earlier in outputs.iter().take(n) {
            let same = match (identity(earlier.path), identity(o.path)) {
                (Some(a), Some(b)) => a == b,
                _ => absolute(earlier.path) == absolute(o.path),
            };
            if same {
                return Err(PathError::SameOutput { path: o.path.display().to_string(), first: earlier.flag, second: o.flag });
            }
        }
    }
    Ok(())
}

/// Every output opened for writing before the analysis starts, so an unwritable path is reported before
/// any packet is read. Opening does not truncate: each file is emptied when its report is written
/// (`take`). If one cannot be opened, the files this call created are removed again.
pub struct Opened {
    files: Vec<(&'static str, PathBuf, File)>,
}

impl Opened {
    pub fn open(outputs: &[Named<'_>]) -> Result<Opened, (PathBuf, std::io::Error)> {
        let mut files = Vec::new();
        let mut created = Vec::new();
        for o in outputs {
            let existed = o.path.exists();
            match OpenOptions::new().write(true).create(true).truncate(false).open(o.path) {
                Ok(f) => {
                    if !existed {
                        created.push(o.path.to_path_buf());
                    }
                    files.push((o.flag, o.path.to_path_buf(), f));
                }
                Err(e) => {
                    for c in &created {
                        let _ = std::fs::remove_file(c);
                    }
                    return Err((o.path.to_path_buf(), e));
                }
            }
        }
        Ok(Opened { files })
    }

    /// The file of `flag`, emptied, ready for its report. Only a regular file is emptied: `-o /dev/null`
    /// or a named pipe cannot be truncated, and need not be.
    pub fn take(&mut self, flag: &str) -> Option<std::io::Result<(PathBuf, File)>> {
        let at = self.files.iter().position(|(f, _, _)| *f == flag)?;
        let (_, path, file) = self.files.swap_remove(at);
        let emptied = match file.metadata() {
            Ok(m) if m.is_file() => file.set_len(0),
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        };
        Some(emptied.map(|()| (path, file)))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mcptap-paths-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn output_that_is_an_input_is_refused_by_inode() {
        let d = scratch("inode");
        let cap = d.join("c.pcap");
        std::fs::write(&cap, b"x").unwrap();
        let link = d.join("hard-link.pcap");
        std::fs::hard_link(&cap, &link).unwrap();
        let other = d.join("out.csv");
        let inputs = [Named { flag: "-r", path: &cap }];
        for flag in ["-o", "--html", "--sessions", "--http-log", "-w"] {
            let e = check(&[Named { flag, path: &link }], &inputs).unwrap_err();
            assert!(matches!(&e, PathError::OverwritesInput { flag: f, input_flag: "-r", .. } if *f == flag), "{e}");
        }
        let e = check(&[Named { flag: "-o", path: &cap }], &[Named { flag: "--keylog", path: &cap }]).unwrap_err();
        assert!(e.to_string().contains("refusing to write the -o output over an input (--keylog "), "{e}");
        check(&[Named { flag: "-o", path: &other }], &inputs).unwrap();
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn two_outputs_on_one_file_are_refused() {
        let d = scratch("twice");
        let p = d.join("r.csv");
        let e = check(&[Named { flag: "-o", path: &p }, Named { flag: "--sessions", path: &p }], &[]).unwrap_err();
        assert_eq!(e, PathError::SameOutput { path: p.display().to_string(), first: "-o", second: "--sessions" });
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn open_removes_what_it_created_when_a_later_output_fails() {
        let d = scratch("open");
        let ok = d.join("ok.csv");
        let bad = d.join("no/such/dir/x.html");
        let err = Opened::open(&[Named { flag: "-o", path: &ok }, Named { flag: "--html", path: &bad }]).err().unwrap();
        assert_eq!(err.0, bad);
        assert!(!ok.exists(), "the -o file created before the failure must be removed");
        // An existing file is neither truncated by the check nor removed.
        std::fs::write(&ok, b"keep").unwrap();
        assert!(Opened::open(&[Named { flag: "-o", path: &ok }, Named { flag: "--html", path: &bad }]).is_err());
        assert_eq!(std::fs::read(&ok).unwrap(), b"keep");
        let mut o = Opened::open(&[Named { flag: "-o", path: &ok }]).unwrap();
        assert_eq!(std::fs::read(&ok).unwrap(), b"keep");
        o.take("-o").unwrap().unwrap();
        assert_eq!(std::fs::read(&ok).unwrap(), b"");
        // A device is written, not truncated.
        let null = Path::new("/dev/null");
        let mut o = Opened::open(&[Named { flag: "-o", path: null }]).unwrap();
        o.take("-o").unwrap().unwrap();
        std::fs::remove_dir_all(&d).unwrap();
    }
}
