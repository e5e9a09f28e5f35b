//! Whether one direction's TCP checksums can be believed: a state machine per stream direction.
//!
//! RFC 9293 §3.1: a receiver discards a segment whose checksum is wrong, so its bytes never reach the
//! application, and the sender resends them. A passive observer that takes such a segment's bytes reads
//! what the receiver never read, and then takes the valid copy for a retransmission of bytes it has
//! (`samples/ecosystem/netem-corrupt-client.pcap`, frames 43 and 46: `dZte:` where the receiver got
//! `date:`). But a wrong checksum in a capture is mostly not damage: a host that leaves the sum to its NIC
//! (checksum offload, loopback, GRO's merged segments) hands its packets to the capture before the sum is
//! there. Decode recognises the usual mark of that (`Check::Offloaded`: the field holds the
//! pseudo-header's sum); other stacks, and captures rewritten without fixing their sums, leave other
//! values. Zeek drops every bad segment unless run with `-C`; Suricata's `checksum-validation: auto`
//! samples the start of the capture and turns checking off if too many are bad.
//!
//! Here the question is asked per direction, by what the direction showed first: its first
//! `TRUST_AFTER` segments whose sums can be checked must all be right for a later wrong one to count as
//! damage; one wrong sum before that and this direction's sums are not looked at again (what its sender's
//! host or the capture did to them is unknown). Even in a trusted direction a wrong segment is only set
//! aside, not dropped (`stream.rs`): its receiver is the judge, and acknowledging its bytes says it took
//! them (a merged segment whose sum the capture shows wrong).

use crate::decode::{Check, ChecksumPolicy};

/// Right sums a direction must show before a wrong one counts as damage.
const TRUST_AFTER: u8 = 2;

/// One direction's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trust {
    /// This many right sums so far, no wrong one.
    Learning(u8),
    /// The sums held: a wrong one is damage.
    Trusted,
    /// Not looked at (a wrong sum came first, or the policy is `Off`).
    Off,
}

impl Trust {
    pub(crate) fn new(policy: ChecksumPolicy) -> Trust {
        match policy {
            ChecksumPolicy::Auto => Trust::Learning(0),
            ChecksumPolicy::Off => Trust::Off,
        }
    }

    /// Screens one segment of this direction: `true` if its checksum says it was damaged on the way.
    /// The payload is summed only while the answer can matter.
    pub(crate) fn damaged(&mut self, check: Check, payload: &[u8]) -> bool {
        let learning = match *self {
            Trust::Off => return false,
            Trust::Learning(n) => Some(n),
            Trust::Trusted => None,
        };
        let Some(right) = check.verify(payload) else {
            // Offloaded or cut by the snap length: says nothing either way.
            return false;
        };
        match (learning, right) {
            (Some(n), true) => {
                let n = n.saturating_add(1);
                *self = if n >= TRUST_AFTER { Trust::Trusted } else { Trust::Learning(n) };
                false
            }
            (Some(_), false) => {
                *self = Trust::Off;
                false
            }
            (None, right) => !right,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;

    /// A `Check` that verifies for `b"ok"` only (any other payload is "damaged").
    fn sum_for_ok() -> Check {
        // The header part is whatever makes header + sum("ok") fold to 0xFFFF: "ok" is 0x6f6b.
        Check::Header(0xFFFF - 0x6f6b)
    }

    #[test]
    fn a_direction_that_showed_right_sums_first_calls_a_wrong_one_damage() {
        let mut t = Trust::new(ChecksumPolicy::Auto);
        assert!(!t.damaged(sum_for_ok(), b"ok"));
        assert_eq!(t, Trust::Learning(1));
        assert!(!t.damaged(sum_for_ok(), b"ok"));
        assert_eq!(t, Trust::Trusted);
        assert!(t.damaged(sum_for_ok(), b"oK"));
        assert!(!t.damaged(Check::Offloaded, b"anything"), "an offload's mark is no damage");
        assert!(!t.damaged(Check::Unknown, b"anything"));
        assert!(!t.damaged(sum_for_ok(), b"ok"));
    }

    #[test]
    fn a_wrong_sum_before_trust_turns_checking_off_for_the_direction() {
        let mut t = Trust::new(ChecksumPolicy::Auto);
        assert!(!t.damaged(sum_for_ok(), b"ok"));
        assert!(!t.damaged(sum_for_ok(), b"no"));
        assert_eq!(t, Trust::Off);
        assert!(!t.damaged(sum_for_ok(), b"ok"));
        assert!(!t.damaged(sum_for_ok(), b"no"));
    }

    #[test]
    fn offloaded_sums_neither_build_nor_break_trust() {
        let mut t = Trust::new(ChecksumPolicy::Auto);
        for _ in 0..10 {
            assert!(!t.damaged(Check::Offloaded, b"x"));
        }
        assert_eq!(t, Trust::Learning(0));
    }

    #[test]
    fn policy_off_never_calls_damage() {
        let mut t = Trust::new(ChecksumPolicy::Off);
        for _ in 0..3 {
            assert!(!t.damaged(sum_for_ok(), b"ok"));
        }
        assert!(!t.damaged(sum_for_ok(), b"no"));
    }
}
