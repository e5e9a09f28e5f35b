//! The entry both executables share: parse flags, run, map errors to exit codes (0 ok, 1 `--fail-on`
//! triggered, 2 usage or input error). `mcptap` and `mcptap-live` differ only in what `-i` and `-D` do,
//! given as a `Live`: `mcptap-live` captures in process; `mcptap`, which is not linked to libpcap, hands
//! the command line over to it (`capture::handoff`). No analysis logic lives here.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use crate::cli::{self, Args, Command, Config};

/// What `-i` (a checked live `Config`) and `-D` do in this executable.
pub trait Live {
    fn run(&self, config: Config) -> ExitCode;
    fn list_interfaces(&self) -> ExitCode;
}

pub fn main(live: &dyn Live) -> ExitCode {
    let args = Args::parse();
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
    println!("{:<28} {:<8} {:<7} {:<8} {:<18} {:<36} summary", "id", "severity", "enabled", "suppress", "fact", "source");
    for r in set.rules() {
        println!(
            "{:<28} {:<8} {:<7} {:<8} {:<18} {:<36} {}",
            r.id,
            r.severity.as_str(),
            if r.enabled { "yes" } else { "no" },
            r.suppress.as_str(),
            r.fact,
            r.source,
            r.summary
        );
    }
    ExitCode::SUCCESS
}
