//! The `mcptap` executable. It is deliberately not linked to libpcap: `-i` and `-D` hand the command line
//! over to `mcptap-live` (built with `--features live`), so a machine without libpcap gets mcptap's own
//! error rather than the dynamic loader's, and file analysis never needs the C library.

use std::process::ExitCode;

use mcptap::app::{self, Live};
use mcptap::cli::{Config, ConfigError};

struct HandOff;

impl Live for HandOff {
    fn run(&self, _config: Config) -> ExitCode {
        hand_over()
    }
    fn list_interfaces(&self) -> ExitCode {
        hand_over()
    }
}

fn hand_over() -> ExitCode {
    if !cfg!(feature = "live") {
        return app::fail(&ConfigError::NoLiveSupport.to_string());
    }
    // Returns only when the helper could not be started.
    app::fail(&mcptap::capture::handoff::exec_live_helper().to_string())
}

fn main() -> ExitCode {
    app::main(&HandOff)
}
