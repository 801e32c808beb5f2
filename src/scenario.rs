//! Scenarios (filled in below).
