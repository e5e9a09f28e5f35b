//! `mcptap-live` (feature `live`): mcptap with live capture in process, the one executable linked to
//! libpcap. `mcptap -i`/`-D` execute it with the same command line; it can also be run directly, e.g.
//! when only it has been given CAP_NET_RAW and CAP_NET_ADMIN.

use std::process::ExitCode;

use mcptap::app::{self, Live};
use mcptap::capture::live;
use mcptap::cli::Config;

struct InProcess;

impl Live for InProcess {
    fn run(&self, config: Config) -> ExitCode {
        match live::run(config) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
            Err(e) => app::fail(&e.to_string()),
        }
    }

    fn list_interfaces(&self) -> ExitCode {
        match live::list_interfaces() {
            Ok(lines) => {
                for l in lines {
                    println!("{l}");
                }
                ExitCode::SUCCESS
            }
            Err(e) => app::fail(&e.to_string()),
        }
    }
}

fn main() -> ExitCode {
    app::main(&InProcess)
}
