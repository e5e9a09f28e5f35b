//! The entry both executables share: parse flags, run, map errors to exit codes (0 ok, 1 `--fail-on`
//! triggered, 2 usage or input error). `mcptap` and `mcptap-live` differ only in what `-i` and `-D` do,
//! given as a `Live`: `mcptap-live` captures in process; `mcptap`, which is not linked to libpcap, hands
//! the command line over to it (`capture::handoff`). No analysis logic lives here.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;

use crate::cli::{self, Args, Command, Config};

/// What `-i` (a checked live `Config`) and `-D` do in this executable.
pub trait Live {
    fn run(&self, config: Config) -> ExitCode;
    fn list_interfaces(&self) -> ExitCode;
}

pub fn main(live: &dyn Live) -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => return usage_error(&e),
    };
    match args.command {
        Some(Command::Rules { check, rules }) => rules_command(check, rules),
        None if args.list_interfaces => live.list_interfaces(),
        None => {
            // Checked here, before any hand-over, so a usage error is reported as such even where live
            // capture could not start.
            let config = match Config::from_args(args) {
                Ok(c) => c,
                Err(e) => return fail(&e.to_string()),
            };
            if config.live.is_some() {
                return live.run(config);
            }
            match crate::run(config) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
                Err(e) if e.is_gate() => {
                    eprintln!("mcptap: {e}");
                    ExitCode::from(1)
                }
                Err(e) => fail(&e.to_string()),
            }
        }
    }
}

/// clap's errors in mcptap's style: `--help` and `--version` print as clap renders them (exit 0); a usage
/// error becomes one line, clap's message plus its tip when it has one, and a pointer to `--help` (exit 2),
/// instead of clap's multi-line block.
fn usage_error(e: &clap::Error) -> ExitCode {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) {
        let _ = e.print();
        return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    fail(&one_line_usage_error(&e.render().to_string()))
}

/// `error: MESSAGE` + blank + `  tip: HINT` + usage + `For more information...` -> `MESSAGE (HINT); see
/// mcptap --help`.
fn one_line_usage_error(rendered: &str) -> String {
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("invalid command line");
    let msg = first.strip_prefix("error: ").unwrap_or(first);
    let tips: Vec<&str> = lines.filter_map(|l| l.strip_prefix("tip: ")).collect();
    if tips.is_empty() {
        format!("{msg}; see mcptap --help")
    } else {
        format!("{msg} ({}); see mcptap --help", tips.join("; "))
    }
}

/// One line on standard error, exit 2: how every fatal error ends.
pub fn fail(msg: &str) -> ExitCode {
    eprintln!("mcptap: {msg}");
    ExitCode::from(2)
}

fn rules_command(check: Option<PathBuf>, extra: Option<PathBuf>) -> ExitCode {
    let dir = check.as_deref().or(extra.as_deref());
    let set = match cli::load_rules(dir) {
        Ok(s) => s,
        Err(e) => return fail(&e.to_string()),
    };
    if let Some(d) = check {
        let from_dir = set.rules().iter().filter(|r| r.source.contains(&*d.to_string_lossy())).count();
        println!("{}: OK, {from_dir} rules added or changed, {} rules loaded", d.display(), set.rules().len());
        return ExitCode::SUCCESS;
    }
    // Columns as wide as their widest cell (rules from --rules DIR have long source paths).
    let rows: Vec<[&str; 7]> = set
        .rules()
        .iter()
        .map(|r| [r.id.as_str(), r.severity.as_str(), if r.enabled { "yes" } else { "no" }, r.suppress.as_str(), r.fact.as_str(), r.source.as_str(), r.summary.as_str()])
        .collect();
    print!("{}", table(&["id", "severity", "enabled", "suppress", "fact", "source", "summary"], &rows));
    ExitCode::SUCCESS
}

/// A plain-text table: every column but the last padded to its widest cell, two spaces apart.
fn table<const N: usize>(header: &[&str; N], rows: &[[&str; N]]) -> String {
    let mut width = [0usize; N];
    for row in std::iter::once(header).chain(rows.iter()) {
        for (w, cell) in width.iter_mut().zip(row.iter()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(header).chain(rows.iter()) {
        let mut line = String::new();
        for (i, (cell, w)) in row.iter().zip(width.iter()).enumerate() {
            if i + 1 == N {
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', w - cell.chars().count() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn table_pads_every_column_to_its_widest_cell() {
        let t = table(&["id", "source", "summary"], &[["A-1", "rules/a-very-long-name-that-is-longer.toml", "s1"], ["LONGER-ID-2", "r.toml", "s2"]]);
        let lines: Vec<&str> = t.lines().collect();
        let col = |l: &str, word: &str| l.find(word).unwrap();
        assert_eq!(col(lines[0], "source"), col(lines[1], "rules/"));
        assert_eq!(col(lines[1], "rules/"), col(lines[2], "r.toml"));
        assert_eq!(col(lines[0], "summary"), col(lines[1], "s1"));
        assert_eq!(col(lines[1], "s1"), col(lines[2], "s2"));
    }

    #[test]
    fn usage_errors_are_one_line_with_the_tip() {
        let e = Args::try_parse_from(["mcptap", "-r", "x", "--bogus"]).unwrap_err();
        let line = one_line_usage_error(&e.render().to_string());
        assert_eq!(line.lines().count(), 1, "{line}");
        assert!(line.starts_with("unexpected argument '--bogus' found (to pass '--bogus' as a value, use '-- --bogus')"), "{line}");
        assert!(line.ends_with("; see mcptap --help"), "{line}");
        let e = Args::try_parse_from(["mcptap", "-r", "x", "--fail-on", "severe"]).unwrap_err();
        let line = one_line_usage_error(&e.render().to_string());
        assert!(line.starts_with("invalid value 'severe' for '--fail-on <SEVERITY>'"), "{line}");
    }
}
