//! Command line: `Args` is the flags as typed (clap), `Config` what the run needs once they are checked
//! (ripgrep's low/high args split). Conventions follow tcpdump/Zeek/Suricata users: `-r` reads a capture,
//! `-o` writes the report.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::detect::{RuleError, RuleSet};
use crate::limits::Limits;
use crate::tls::keylog::KeyLog;

const EXAMPLES: &str = "\
Examples:
  mcptap -r capture.pcap                      incidents as CSV on standard output
  mcptap -r capture.pcapng -o incidents.csv   write the report to a file
  mcptap -r rot-0.pcap -r rot-1.pcap          rotated files analysed as one capture
  mcptap -r rot-0.pcap.gz -r rot-1.pcap.zst   compressed files, decompressed as they are read
  tcpdump -i any -w - port 8000 | mcptap -r -
                                              a capture read from a pipe
  mcptap -r capture.pcap --rules ./my-rules   add or override rules by id
  mcptap -r https.pcap --keylog keys.txt      decrypt TLS with an SSLKEYLOGFILE key log
  mcptap rules                                list the loaded rules
  mcptap rules --check ./my-rules             validate a rules folder
  mcptap -r capture.pcap --format jsonl       JSON lines for a log shipper
  mcptap -r capture.pcap --sessions s.csv --html report.html
                                              session inventory and HTML report too
  mcptap -r capture.pcap --timeline SESSION_ID
                                              one session's history
  mcptap -r capture.pcap --fail-on high -q    CI gate: exit 1 on high or critical
  mcptap -i eth0 tcp port 8000                live sensor (built with --features live; root or
                                              CAP_NET_RAW+CAP_NET_ADMIN); rows appended as raised
  mcptap -i any -w sensor.pcap -o inc.csv     also keep the packets, for `mcptap -r sensor.pcap`
  mcptap -D                                   list the interfaces live capture can use

Exit status: 0 success, 1 --fail-on found an incident at or above its severity, 2 usage or input error
(bad file, bad rule, an output that is an input, a capture with nothing mcptap can decode).";

/// mcptap: find silent MCP transport degradation in captured traffic.
#[derive(Debug, Parser)]
#[command(name = "mcptap", version, about, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
pub struct Args {
    /// Read packets from a pcap or pcapng file, plain or compressed whole with gzip or zstd ('-' for
    /// standard input). Repeat it, or name more files after it (-r rot-*.pcap), to analyse rotated files
    /// as one capture, merged in timestamp order.
    #[arg(short = 'r', long = "read", value_name = "FILE")]
    pub read: Vec<PathBuf>,

    /// Write the CSV report to FILE instead of standard output (`-o -`: standard output, as tcpdump's `-w -`).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Load the *.toml rules in DIR on top of the built-in ones; a rule with a built-in's id replaces it.
    #[arg(long = "rules", value_name = "DIR")]
    pub rules: Option<PathBuf>,

    /// Override a resource cap, e.g. --limit max_body_bytes=1048576 (see README for the names).
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    pub limit: Vec<String>,

    /// TCP checksums. auto: in a direction whose first checksums were right, a segment with a wrong one is
    /// set aside as damaged on the way (its receiver discarded it) and replaced by its resent copy, unless
    /// the receiver acknowledges it. off: never looked at (for captures whose checksums were rewritten).
    #[arg(long = "checksums", value_name = "MODE", value_enum, default_value_t = Checksums::Auto)]
    pub checksums: Checksums,

    /// Decrypt TLS with the secrets of an NSS key log (SSLKEYLOGFILE format); repeatable. Secrets embedded
    /// in a pcapng (Decryption Secrets Block) are read too.
    #[arg(long = "keylog", value_name = "FILE")]
    pub keylog: Vec<PathBuf>,
    /// Write one tab-separated line per HTTP transaction reassembled to FILE (like Zeek's http.log; for
    /// checking the reassembly against other tools, see README "Reassembly and gaps").
    #[arg(long = "http-log", value_name = "FILE", hide = true)]
    pub http_log: Option<PathBuf>,

    /// Do not print the summary on standard error.
    #[arg(short = 'q', long = "quiet")]
    pub quiet: bool,

    /// Analyse on N worker threads, split by server address (every session stays on one worker), with
    /// one more thread reading the capture (a file, or live the capture thread's batches). Reading a file,
    /// the report and summary are byte-identical for every N while no --limit cap is reached (caps are
    /// split evenly across the workers). At most 1024: each worker holds its own state and batches.
    #[arg(long = "threads", value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    pub threads: u16,

    #[command(flatten)]
    pub report: crate::output::ReportArgs,
    /// Capture live on interface IFACE ('any' for all) instead of reading a file; stop with Ctrl-C or
    /// SIGTERM. Needs a build with --features live.
    #[arg(short = 'i', long = "interface", value_name = "IFACE", conflicts_with = "read")]
    pub interface: Option<String>,

    /// List the interfaces live capture can use, and exit.
    #[arg(short = 'D', long = "list-interfaces", conflicts_with_all = ["read", "interface"])]
    pub list_interfaces: bool,

    /// Capture filter (libpcap/BPF syntax, as tcpdump's), e.g. -f 'tcp port 8000'. The same as giving
    /// the expression as trailing words.
    #[arg(short = 'f', long = "filter", value_name = "EXPR", conflicts_with = "expression")]
    pub filter: Option<String>,

    /// Do not put the interface into promiscuous mode (live capture).
    #[arg(short = 'p', long = "no-promiscuous-mode")]
    pub no_promisc: bool,

    /// Snapshot length in bytes for live capture: bytes kept per packet. The default keeps whole HTTP
    /// bodies even with segmentation offload (tcpdump's default too).
    #[arg(short = 's', long = "snaplen", value_name = "BYTES", default_value_t = DEFAULT_SNAPLEN,
          value_parser = clap::value_parser!(i32).range(64..=i32::MAX as i64))]
    pub snaplen: i32,

    /// Live capture: also write every captured packet to FILE (pcap), so an incident's frames can be
    /// re-examined later with `mcptap -r FILE` or Wireshark (frame numbers match).
    #[arg(short = 'w', long = "write", value_name = "FILE")]
    pub write: Option<PathBuf>,

    /// Live capture: print libpcap's received/dropped counters on standard error every SECS seconds
    /// (0 = only in the final summary).
    #[arg(long = "stats-interval", value_name = "SECS", default_value_t = DEFAULT_STATS_INTERVAL_SECS)]
    pub stats_interval: u64,

    /// Live capture: rotate the -w file after MB megabytes (1,000,000 bytes), as tcpdump -C: FILE, then
    /// FILE1, FILE2, ... Each row's `pcap` column names the file its frames are numbered in.
    #[arg(short = 'C', value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub rotate_mb: Option<u64>,

    /// Live capture: rotate the -w file every SECS seconds of capture time (packet timestamps), as
    /// tcpdump -G; names as with -C.
    #[arg(short = 'G', value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub rotate_secs: Option<u64>,

    /// Live capture with -C or -G: keep at most N packet files, reusing their names in turn (FILE, FILE1,
    /// ..., FILE<N-1>, then FILE again), as tcpdump -W: a sensor's disk use stays bounded.
    #[arg(short = 'W', value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub file_count: Option<u64>,

    /// Live capture: the kernel capture buffer in KiB, as tcpdump -B (default 16384: 16 MiB).
    #[arg(short = 'B', long = "buffer-size", value_name = "KiB", value_parser = clap::value_parser!(u32).range(256..=4_194_304))]
    pub buffer_kib: Option<u32>,

    /// Live capture: also append the counters (packets, bytes, drops, sessions open, incidents, memory) as
    /// one JSON object per line to FILE every --stats-interval seconds, for a monitoring system to scrape.
    #[arg(long = "stats-file", value_name = "FILE")]
    pub stats_file: Option<PathBuf>,

    /// Name the sensor in a `sensor` column (JSON key) after the others, so rows of many sensors merge in
    /// one index. Live capture always has it (default: the host name).
    #[arg(long = "sensor", value_name = "NAME")]
    pub sensor: Option<String>,

    /// Capture filter expression (tcpdump style), e.g. `mcptap -i eth0 tcp port 8000`. After -r FILE,
    /// words that are files are more captures to read instead (`mcptap -q -r rot-*.pcap`).
    #[arg(value_name = "EXPRESSION", trailing_var_arg = true)]
    pub expression: Vec<String>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// `--threads` at most. Every worker holds its own layer stack and three batches of the pool (about 0.3 MiB
/// a worker at 1,000 on a small capture), so a typo such as 65535 would ask for gigabytes; 1024 is more
/// cores than a sensor has, and more workers than cores is no faster.
pub const MAX_THREADS: i64 = 1024;

/// tcpdump's default snapshot length since 4.99 (262144): a whole TSO/GRO super-segment fits.
pub const DEFAULT_SNAPLEN: i32 = 262_144;

/// Periodic drop statistics every minute by default: a sensor that silently drops packets silently
/// misses incidents, so the operator should see drops while it runs, at one line a minute.
pub const DEFAULT_STATS_INTERVAL_SECS: u64 = 60;

/// `--checksums MODE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Checksums {
    Auto,
    Off,
}

impl Checksums {
    fn policy(self) -> crate::decode::ChecksumPolicy {
        match self {
            Checksums::Auto => crate::decode::ChecksumPolicy::Auto,
            Checksums::Off => crate::decode::ChecksumPolicy::Off,
        }
    }
}

/// Live capture settings, checked (see `Args` for each flag).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveConfig {
    pub interface: String,
    /// The capture filter, compiled by libpcap when the capture opens.
    pub filter: Option<String>,
    pub promisc: bool,
    pub snaplen: i32,
    pub savefile: Option<PathBuf>,
    /// `-C`: bytes per -w file before the next one.
    pub rotate_bytes: Option<u64>,
    /// `-G`: seconds of capture time per -w file.
    pub rotate_secs: Option<u64>,
    /// `-W`: packet files kept (names reused in turn).
    pub file_count: Option<u64>,
    /// `-B`: the kernel buffer, bytes.
    pub buffer_bytes: i32,
    /// Seconds between stats lines; 0 = none.
    pub stats_interval_secs: u64,
    pub stats_file: Option<PathBuf>,
    /// The `sensor` column: `--sensor`, or the host name.
    pub sensor: String,
}

/// The kernel buffer libpcap asks for without -B (libpcap's own default is 2 MiB): bursts of SSE traffic
/// on a busy link should not overflow it while the analyzer works through a large body.
pub const DEFAULT_BUFFER_KIB: u32 = 16 * 1024;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the loaded rules (id, severity, fact, source), or validate a rules folder.
    Rules {
        /// Validate the *.toml rules in DIR (on top of the built-ins) and exit non-zero on the first bad one.
        #[arg(long = "check", value_name = "DIR")]
        check: Option<PathBuf>,
        /// Also load DIR, as --rules does, before listing.
        #[arg(long = "rules", value_name = "DIR")]
        rules: Option<PathBuf>,
    },
}

/// What an analysis run needs, checked.
#[derive(Debug)]
pub struct Config {
    pub inputs: Vec<PathBuf>,
    pub output: Option<PathBuf>,
    pub rules: RuleSet,
    pub limits: Limits,
    pub quiet: bool,
    /// Report format and extra reports (output::ReportArgs).
    pub report: crate::output::ReportArgs,
    /// Secrets of every `--keylog` file.
    pub keylog: KeyLog,
    /// Each `--keylog` file with the bytes read from it, for a live run to follow what is appended.
    pub keylog_files: Vec<(PathBuf, u64)>,
    /// `--http-log FILE`.
    pub http_log: Option<PathBuf>,
    /// `--threads N`.
    pub threads: u16,
    /// `--sensor`: a `sensor` column on every row (live runs always have one: `LiveConfig::sensor`).
    pub sensor: Option<String>,
    /// Set for `-i`: capture live instead of reading `inputs`.
    pub live: Option<LiveConfig>,
}

/// A usage error: printed as one line, exit 2.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("no capture to read: give -r FILE (or -r - for standard input); see --help")]
    NoInput,
    #[error("--limit {0}: expected NAME=VALUE")]
    LimitSyntax(String),
    #[error("--limit: {0}")]
    Limit(String),
    #[error("{0}")]
    Rule(#[from] RuleError),
    #[error("{path}: cannot read key log: {}", crate::io_reason(.source))]
    KeyLog { path: String, source: std::io::Error },
    #[error("{path}: not a key log: no secret line in it; expected NSS key log lines (SSLKEYLOGFILE) such as \
             CLIENT_RANDOM <64 hex digits: client random> <96 hex digits: master secret>")]
    KeyLogEmpty { path: String },
    #[error("live capture (-i, -D) is not in this build; rebuild with --features live")]
    NoLiveSupport,
    #[error("{0}")]
    Path(#[from] crate::output::paths::PathError),
    #[error("a capture filter applies to live capture only: use -i IFACE, or filter the file with tcpdump -r FILE -w - EXPR | mcptap -r -")]
    FilterNeedsLive,
    #[error("'{0}' follows the capture files named after -r but is not a file: put options before the files (mcptap -q -r a.pcap b.pcap); a capture filter needs live capture (-i IFACE)")]
    NotAFile(String),
    #[error("-w needs live capture (-i IFACE)")]
    WriteNeedsLive,
    #[error("{0} needs live capture (-i IFACE)")]
    NeedsLive(&'static str),
    #[error("{0} rotates the -w file: give -w FILE too")]
    RotateNeedsWrite(&'static str),
    #[error("-W counts the files -C or -G rotate through: give -C MB or -G SECS too")]
    CountNeedsRotation,
    #[error("--sensor '{0}': a sensor name is one line of printable text")]
    BadSensor(String),
    #[error("--http-log writes one line per transaction in capture order from one thread: use it with --threads 1")]
    HttpLogOneThread,
    #[error("{0} applies to reading files (-r); live capture writes the incident report row by row (analyse the -w file for the other reports)")]
    FileOnly(&'static str),
}

/// Loads the built-in rules plus an optional folder.
pub fn load_rules(dir: Option<&std::path::Path>) -> Result<RuleSet, RuleError> {
    let mut set = RuleSet::builtin()?;
    if let Some(d) = dir {
        set.load_dir(d)?;
    }
    Ok(set)
}

impl Config {
    pub fn from_args(mut args: Args) -> Result<Config, ConfigError> {
        check_sensor(args.sensor.as_deref())?;
        // `mcptap -r rot-*.pcap`: the shell's glob gives -r one file and leaves the rest as trailing words,
        // which are a capture filter only in live capture. When every one of them is a file, they are
        // more captures to read, as mergecap takes them; a filter's words (`tcp port 8000`) are not files.
        // Every word after the first one is in `expression`, options too (`trailing_var_arg`, as tcpdump
        // reads its filter), so `-r *.pcap -q` is told apart from a filter and said as such.
        let is_file = |w: &String| std::path::Path::new(w).is_file();
        if args.interface.is_none() && args.filter.is_none() && !args.read.is_empty() && args.expression.first().is_some_and(is_file) {
            if let Some(word) = args.expression.iter().find(|w| !is_file(w)) {
                return Err(ConfigError::NotAFile(word.clone()));
            }
            args.read.extend(args.expression.drain(..).map(PathBuf::from));
        }
        let live = live_config(&args)?;
        if args.http_log.is_some() && args.threads > 1 {
            return Err(ConfigError::HttpLogOneThread);
        }
        if live.is_some() {
            let r = &args.report;
            let file_only = [
                (r.sessions.is_some(), "--sessions"),
                (r.timeline.is_some(), "--timeline"),
                (r.html.is_some(), "--html"),
                (r.fail_on.is_some(), "--fail-on"),
            ];
            if let Some((_, flag)) = file_only.iter().find(|(set, _)| *set) {
                return Err(ConfigError::FileOnly(flag));
            }
        }
        if args.read.is_empty() && live.is_none() {
            return Err(ConfigError::NoInput);
        }
        let mut limits = Limits { checksums: args.checksums.policy(), ..Limits::default() };
        for l in &args.limit {
            let (name, value) = l.split_once('=').ok_or_else(|| ConfigError::LimitSyntax(l.clone()))?;
            limits.set(name.trim(), value.trim()).map_err(ConfigError::Limit)?;
        }
        check_paths(&args)?;
        let rules = load_rules(args.rules.as_deref())?;
        let mut keylog = KeyLog::new();
        let mut keylog_files = Vec::new();
        for p in &args.keylog {
            let text = std::fs::read(p).map_err(|source| ConfigError::KeyLog { path: p.display().to_string(), source })?;
            let (good, bad) = (keylog.secret_lines + keylog.ignored_lines, keylog.malformed_lines);
            keylog.add_text(&text);
            // A file with no well-formed secret line is not a key log (README.md given by mistake). Live,
            // an empty file is fine: clients append to it as they connect.
            let none_good = keylog.secret_lines + keylog.ignored_lines == good;
            if none_good && (live.is_none() || keylog.malformed_lines > bad) {
                return Err(ConfigError::KeyLogEmpty { path: p.display().to_string() });
            }
            keylog_files.push((p.clone(), text.len() as u64));
        }
        let output = report_file(&args);
        Ok(Config {
            inputs: args.read,
            output,
            rules,
            limits,
            quiet: args.quiet,
            report: args.report,
            keylog,
            keylog_files,
            http_log: args.http_log,
            threads: args.threads,
            sensor: args.sensor,
            live,
        })
    }
}

/// The `-o` file; `None` for standard output (no `-o`, or `-o -`).
fn report_file(args: &Args) -> Option<PathBuf> {
    args.output.clone().filter(|p| p.as_os_str() != "-")
}

/// Refuses, before anything is read or written, an output that is an input or two outputs on one file.
fn check_paths(args: &Args) -> Result<(), ConfigError> {
    use crate::output::paths::{check, Named};
    let r = &args.report;
    let report = report_file(args);
    let outputs: Vec<Named<'_>> = [
        ("-o", report.as_deref()),
        ("--sessions", r.sessions.as_deref()),
        ("--html", r.html.as_deref()),
        ("--http-log", args.http_log.as_deref()),
        ("-w", args.write.as_deref()),
        ("--stats-file", args.stats_file.as_deref()),
    ]
    .into_iter()
    .filter_map(|(flag, p)| p.map(|path| Named { flag, path }))
    .collect();
    let inputs: Vec<Named<'_>> = args
        .read
        .iter()
        .map(|p| Named { flag: "-r", path: p.as_path() })
        .chain(args.keylog.iter().map(|p| Named { flag: "--keylog", path: p.as_path() }))
        .collect();
    Ok(check(&outputs, &inputs)?)
}

/// The live settings of `-i`, or an error for live-only flags without it (and for `-i` in a build
/// without the `live` feature, so the user learns how to get it).
fn live_config(args: &Args) -> Result<Option<LiveConfig>, ConfigError> {
    let filter = match (&args.filter, args.expression.is_empty()) {
        (Some(f), _) => Some(f.clone()),
        (None, false) => Some(args.expression.join(" ")),
        (None, true) => None,
    };
    let Some(interface) = &args.interface else {
        if filter.is_some() {
            return Err(ConfigError::FilterNeedsLive);
        }
        if args.write.is_some() {
            return Err(ConfigError::WriteNeedsLive);
        }
        let live_only = [
            (args.rotate_mb.is_some(), "-C"),
            (args.rotate_secs.is_some(), "-G"),
            (args.file_count.is_some(), "-W"),
            (args.buffer_kib.is_some(), "-B"),
            (args.stats_file.is_some(), "--stats-file"),
        ];
        if let Some((_, flag)) = live_only.iter().find(|(set, _)| *set) {
            return Err(ConfigError::NeedsLive(flag));
        }
        return Ok(None);
    };
    if args.write.is_none() {
        if let Some((_, flag)) = [(args.rotate_mb.is_some(), "-C"), (args.rotate_secs.is_some(), "-G")].iter().find(|(set, _)| *set) {
            return Err(ConfigError::RotateNeedsWrite(flag));
        }
    }
    if args.file_count.is_some() && args.rotate_mb.is_none() && args.rotate_secs.is_none() {
        return Err(ConfigError::CountNeedsRotation);
    }
    if !cfg!(feature = "live") {
        return Err(ConfigError::NoLiveSupport);
    }
    Ok(Some(LiveConfig {
        interface: interface.clone(),
        filter,
        promisc: !args.no_promisc,
        snaplen: args.snaplen,
        savefile: args.write.clone(),
        rotate_bytes: args.rotate_mb.map(|mb| mb.saturating_mul(1_000_000)),
        rotate_secs: args.rotate_secs,
        file_count: args.file_count,
        buffer_bytes: i32::try_from(u64::from(args.buffer_kib.unwrap_or(DEFAULT_BUFFER_KIB)) * 1024).unwrap_or(i32::MAX),
        stats_interval_secs: args.stats_interval,
        stats_file: args.stats_file.clone(),
        sensor: match &args.sensor {
            Some(s) => s.clone(),
            None => host_name(),
        },
    }))
}

/// The host name (Linux: the kernel's UTS name), `localhost` if it cannot be read.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "localhost".to_string())
}

/// A sensor name goes into every row: one line of printable text.
fn check_sensor(name: Option<&str>) -> Result<(), ConfigError> {
    match name {
        Some(n) if n.is_empty() || n.chars().any(char::is_control) => Err(ConfigError::BadSensor(n.to_string())),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn parse(argv: &[&str]) -> Result<Config, ConfigError> {
        Config::from_args(Args::try_parse_from(argv).unwrap())
    }

    #[test]
    fn read_is_repeatable_and_dash_is_stdin() {
        let c = parse(&["mcptap", "-r", "a.pcap", "--read", "b.pcap", "-r", "-"]).unwrap();
        assert_eq!(c.inputs, vec![PathBuf::from("a.pcap"), PathBuf::from("b.pcap"), PathBuf::from("-")]);
    }

    #[test]
    fn no_input_is_a_usage_error() {
        assert!(matches!(parse(&["mcptap"]), Err(ConfigError::NoInput)));
    }

    #[test]
    fn limit_flag_sets_and_rejects() {
        let c = parse(&["mcptap", "-r", "x", "--limit", "max_sessions=5"]).unwrap();
        assert_eq!(c.limits.max_sessions, 5);
        assert!(matches!(parse(&["mcptap", "-r", "x", "--limit", "max_sessions"]), Err(ConfigError::LimitSyntax(_))));
        assert!(matches!(parse(&["mcptap", "-r", "x", "--limit", "bogus=1"]), Err(ConfigError::Limit(_))));
    }

    #[test]
    fn output_and_quiet() {
        let dash = parse(&["mcptap", "-r", "x", "-o", "-"]).unwrap();
        assert_eq!(dash.output, None, "-o - is standard output, not a file named -");
        let c = parse(&["mcptap", "-r", "x", "-o", "out.csv", "-q"]).unwrap();
        assert_eq!(c.output, Some(PathBuf::from("out.csv")));
        assert!(c.quiet);
    }

    #[cfg(not(feature = "live"))]
    #[test]
    fn interface_without_live_feature_says_how_to_rebuild() {
        let e = parse(&["mcptap", "-i", "lo"]).unwrap_err();
        assert!(matches!(e, ConfigError::NoLiveSupport));
        assert_eq!(e.to_string(), "live capture (-i, -D) is not in this build; rebuild with --features live");
    }

    #[cfg(feature = "live")]
    #[test]
    fn interface_with_trailing_filter_words_and_defaults() {
        let c = parse(&["mcptap", "-i", "lo", "-w", "x.pcap", "tcp", "port", "8000"]).unwrap();
        let l = c.live.unwrap();
        assert_eq!(l.interface, "lo");
        assert_eq!(l.filter.as_deref(), Some("tcp port 8000"));
        assert!(l.promisc);
        assert_eq!(l.snaplen, 262_144);
        assert_eq!(l.savefile, Some(PathBuf::from("x.pcap")));
        assert_eq!(l.stats_interval_secs, 60);
        assert!(c.inputs.is_empty());
    }

    #[cfg(feature = "live")]
    #[test]
    fn interface_flags_filter_promisc_snaplen_stats() {
        let c = parse(&["mcptap", "-i", "any", "-p", "-s", "1500", "--stats-interval", "0", "-f", "port 80"]).unwrap();
        let l = c.live.unwrap();
        assert_eq!((l.promisc, l.snaplen, l.stats_interval_secs), (false, 1500, 0));
        assert_eq!(l.filter.as_deref(), Some("port 80"));
    }

    #[test]
    fn read_and_interface_are_mutually_exclusive() {
        assert!(Args::try_parse_from(["mcptap", "-r", "a.pcap", "-i", "lo"]).is_err());
    }

    #[test]
    fn files_after_read_are_more_captures_but_a_filter_is_not() {
        // The test runs in the crate's folder, where the samples are.
        let c = parse(&["mcptap", "-r", "samples/downgrade.pcap", "samples/downgrade.pcapng", "samples/downgrade-nsec.pcap"]).unwrap();
        assert_eq!(c.inputs, ["samples/downgrade.pcap", "samples/downgrade.pcapng", "samples/downgrade-nsec.pcap"].map(PathBuf::from));
        let c = parse(&["mcptap", "-r", "samples/downgrade.pcap", "-r", "-", "samples/downgrade-nsec.pcap"]).unwrap();
        assert_eq!(c.inputs, ["samples/downgrade.pcap", "-", "samples/downgrade-nsec.pcap"].map(PathBuf::from));
        // Words that do not start with a file are a filter, refused without -i.
        for words in [&["samples"][..], &["tcp", "port", "8000"], &["port", "samples/downgrade.pcapng"]] {
            let argv: Vec<&str> = ["mcptap", "-r", "samples/downgrade.pcap"].into_iter().chain(words.iter().copied()).collect();
            assert!(matches!(parse(&argv), Err(ConfigError::FilterNeedsLive)), "{words:?}");
        }
        // A word after the files that is not one (an option, which the filter's words take in): named.
        for (words, named) in [(&["samples/downgrade.pcapng", "-q"][..], "-q"), (&["samples/downgrade.pcapng", "port"], "port")] {
            let argv: Vec<&str> = ["mcptap", "-r", "samples/downgrade.pcap"].into_iter().chain(words.iter().copied()).collect();
            let e = parse(&argv).err();
            assert!(matches!(&e, Some(ConfigError::NotAFile(w)) if w == named), "{words:?}: {e:?}");
        }
        assert!(matches!(parse(&["mcptap", "-f", "tcp", "-r", "samples/downgrade.pcap"]), Err(ConfigError::FilterNeedsLive)));
    }

    #[test]
    fn filter_and_write_need_interface() {
        assert!(matches!(parse(&["mcptap", "-r", "a.pcap", "tcp"]), Err(ConfigError::FilterNeedsLive)));
        assert!(matches!(parse(&["mcptap", "-r", "a.pcap", "-w", "x"]), Err(ConfigError::WriteNeedsLive)));
    }

    #[test]
    fn sensor_flags_need_live_capture_and_a_sane_name() {
        for flag in [["-C", "5"], ["-G", "60"], ["-W", "3"], ["-B", "4096"], ["--stats-file", "s.jsonl"]] {
            let e = parse(&["mcptap", "-r", "a.pcap", flag[0], flag[1]]).unwrap_err();
            assert!(matches!(e, ConfigError::NeedsLive(f) if f == flag[0]), "{flag:?}: {e}");
        }
        assert!(matches!(parse(&["mcptap", "-r", "a.pcap", "--sensor", "bad\nname"]), Err(ConfigError::BadSensor(_))));
        assert!(matches!(parse(&["mcptap", "-r", "a.pcap", "--sensor", ""]), Err(ConfigError::BadSensor(_))));
        let c = parse(&["mcptap", "-r", "a.pcap", "--sensor", "tap-1"]).unwrap();
        assert_eq!(c.sensor.as_deref(), Some("tap-1"));
        assert!(Args::try_parse_from(["mcptap", "-i", "lo", "-w", "x", "-C", "0"]).is_err(), "-C 0 is refused");
    }

    #[cfg(feature = "live")]
    #[test]
    fn rotation_flags_need_w_and_each_other() {
        assert!(matches!(parse(&["mcptap", "-i", "lo", "-C", "5"]), Err(ConfigError::RotateNeedsWrite("-C"))));
        assert!(matches!(parse(&["mcptap", "-i", "lo", "-w", "x", "-W", "3"]), Err(ConfigError::CountNeedsRotation)));
        let l = parse(&["mcptap", "-i", "lo", "-w", "x", "-C", "5", "-G", "60", "-W", "3", "-B", "1024", "--sensor", "s"]).unwrap().live.unwrap();
        assert_eq!((l.rotate_bytes, l.rotate_secs, l.file_count, l.buffer_bytes), (Some(5_000_000), Some(60), Some(3), 1024 * 1024));
        assert_eq!(l.sensor, "s");
        let default = parse(&["mcptap", "-i", "lo"]).unwrap().live.unwrap();
        assert!(!default.sensor.is_empty() && default.buffer_bytes == 16 * 1024 * 1024, "{default:?}");
    }

    #[test]
    fn snaplen_too_small_is_rejected() {
        assert!(Args::try_parse_from(["mcptap", "-i", "lo", "-s", "10"]).is_err());
    }

    #[test]
    fn trailing_words_do_not_hide_the_rules_subcommand() {
        let a = Args::try_parse_from(["mcptap", "rules"]).unwrap();
        assert!(matches!(a.command, Some(Command::Rules { .. })));
        assert!(a.expression.is_empty());
    }

    #[test]
    fn report_flags_parse() {
        let c = parse(&[
            "mcptap", "-r", "x", "--format", "jsonl", "--sessions", "s.csv", "--timeline", "abc", "--html", "r.html",
            "--wireshark-filter", "--fail-on", "medium",
        ])
        .unwrap();
        assert_eq!(c.report.format, crate::output::Format::Jsonl);
        assert_eq!(c.report.sessions, Some(PathBuf::from("s.csv")));
        assert_eq!(c.report.timeline.as_deref(), Some("abc"));
        assert_eq!(c.report.html, Some(PathBuf::from("r.html")));
        assert!(c.report.wireshark_filter);
        assert_eq!(c.report.fail_on, Some(crate::detect::Severity::Medium));
        assert!(Args::try_parse_from(["mcptap", "-r", "x", "--fail-on", "severe"]).is_err());
        assert!(Args::try_parse_from(["mcptap", "-r", "x", "--format", "xml"]).is_err());
        assert_eq!(parse(&["mcptap", "-r", "x"]).unwrap().report.format, crate::output::Format::Csv);
    }

    #[test]
    fn key_log_without_a_secret_line_is_refused_naming_the_file() {
        let d = std::env::temp_dir().join(format!("mcptap-cli-keylog-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let bad = d.join("notes.md");
        std::fs::write(&bad, "# Notes\nnot a key log\n").unwrap();
        let e = parse(&["mcptap", "-r", "x", "--keylog", bad.to_str().unwrap()]).unwrap_err();
        assert!(matches!(e, ConfigError::KeyLogEmpty { .. }), "{e}");
        let msg = e.to_string();
        assert!(msg.starts_with(&format!("{}: not a key log", bad.display())) && msg.contains("CLIENT_RANDOM <64 hex digits"), "{msg}");
        assert_eq!(msg.lines().count(), 1);
        let empty = d.join("empty.keys");
        std::fs::write(&empty, "").unwrap();
        assert!(matches!(parse(&["mcptap", "-r", "x", "--keylog", empty.to_str().unwrap()]), Err(ConfigError::KeyLogEmpty { .. })));
        // One good line among bad ones: accepted, the bad ones counted.
        let mixed = d.join("mixed.keys");
        let good = format!("CLIENT_RANDOM {} {}\n", "ab".repeat(32), "cd".repeat(48));
        std::fs::write(&mixed, format!("garbage\n{good}also garbage\n")).unwrap();
        let c = parse(&["mcptap", "-r", "x", "--keylog", mixed.to_str().unwrap()]).unwrap();
        assert_eq!((c.keylog.secret_lines, c.keylog.malformed_lines), (1, 2));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn fail_on_severity_ignores_case() {
        let c = parse(&["mcptap", "-r", "x", "--fail-on", "HIGH"]).unwrap();
        assert_eq!(c.report.fail_on, Some(crate::detect::Severity::High));
    }

    #[test]
    fn examples_in_help_are_aligned() {
        // Every description starts in the same column; a command too long for it has its description on
        // the next line.
        let cols: Vec<usize> = EXAMPLES
            .lines()
            .skip_while(|l| !l.starts_with("Examples:"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .filter_map(|l| l.find("   ").map(|i| i + l[i..].find(|c: char| c != ' ').unwrap_or(0)))
            .collect();
        assert!(cols.len() >= 10, "{cols:?}");
        assert!(cols.iter().all(|c| *c == cols[0]), "description columns {cols:?}");
    }

    #[test]
    fn http_log_is_hidden_but_parsed() {
        let c = parse(&["mcptap", "-r", "x", "--http-log", "h.tsv"]).unwrap();
        assert_eq!(c.http_log, Some(PathBuf::from("h.tsv")));
        assert_eq!(parse(&["mcptap", "-r", "x"]).unwrap().http_log, None);
    }

    #[test]
    fn rules_subcommand_parses() {
        let a = Args::try_parse_from(["mcptap", "rules", "--check", "d"]).unwrap();
        assert!(matches!(a.command, Some(Command::Rules { check: Some(_), .. })));
    }
}
