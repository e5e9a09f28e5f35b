//! Output: where incidents go. The analyzer never knows the format (ripgrep's `Sink` boundary).

pub mod csv;
pub mod httplog;

use crate::detect::Incident;

/// Receives incidents. `raised` is called once when an incident first fires (a live sensor writes it at
/// once); `finish` gets every incident with its final count at the end of the run.
pub trait IncidentSink {
    fn raised(&mut self, incident: &Incident) -> std::io::Result<()>;
    fn finish(&mut self, incidents: &[&Incident]) -> std::io::Result<()>;
}
