//! Offline capture files (stub, being written).
