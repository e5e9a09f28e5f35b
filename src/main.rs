//! The `mcptap` binary: parse flags, run, map errors to exit codes (0 ok, 1 `--fail-on` triggered, 2 usage
//! or input error). No analysis logic lives here.

use std::process::ExitCode;

use clap::Parser;

use mcptap::cli::{self, Args, Command, Config};

fn main() -> ExitCode {
    let args = Args::parse();
    match args.command {
        Some(Command::Rules { check, rules }) => rules_command(check, rules),
        None if args.list_interfaces => list_interfaces(),
        None => {
            let config = match Config::from_args(args) {
                Ok(c) => c,
                Err(e) => return fail(&e.to_string()),
            };
            if config.live.is_some() {
                return live(config);
            }
            match mcptap::run(config) {
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

#[cfg(feature = "live")]
fn live(config: Config) -> ExitCode {
    match mcptap::capture::live::run(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => fail(&e.to_string()),
    }
}

#[cfg(not(feature = "live"))]
fn live(_config: Config) -> ExitCode {
    // Config::from_args refuses -i in this build; kept so the dispatch reads the same in both.
    fail(&cli::ConfigError::NoLiveSupport.to_string())
}

#[cfg(feature = "live")]
fn list_interfaces() -> ExitCode {
    match mcptap::capture::live::list_interfaces() {
        Ok(lines) => {
            for l in lines {
                println!("{l}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e.to_string()),
    }
}

#[cfg(not(feature = "live"))]
fn list_interfaces() -> ExitCode {
    fail(&cli::ConfigError::NoLiveSupport.to_string())
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("mcptap: {msg}");
    ExitCode::from(2)
}

fn rules_command(check: Option<std::path::PathBuf>, extra: Option<std::path::PathBuf>) -> ExitCode {
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
