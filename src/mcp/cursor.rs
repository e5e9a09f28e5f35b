//! SSE event-id cursor state of one stream (INCIDENTS.md "id cursor state"; MCP 2025-03-26..2025-11-25
//! transports, "Resumability and Redelivery": ids are per-stream cursors, unique within the session; the
//! spec sets no monotonicity rule, so order is only judged where ids are orderable).
//!
//! Orderable ids: all ids on the stream share one *skeleton* (the id with each run of digits replaced by
//! `#`, e.g. `evt-#` or `#`), and are compared by their digit runs as numbers. Opaque ids (UUIDs) are
//! unordered. Where two ids' skeletons differ only in a short random tag after the last `_`, the rest of
//! the ids orders them: the TypeScript SDK's example event store writes `stream_ms_random` (and
//! `server-everything` runs it), FastMCP for TypeScript's `stream_ms_counter_random`
//! (samples/ecosystem/fastmcp-ts-*.pcap). Two ids whose rest is equal (two events in one millisecond) are
//! not comparable: the stream is then unordered.

/// An id with its digit runs replaced by `#` (UTF-8), inline up to the length of the ids servers send.
pub type Skeleton = smallvec::SmallVec<[u8; 24]>;
/// An id's digit runs, inline for the usual one or two.
pub type Runs = smallvec::SmallVec<[u128; 2]>;

/// The state of a stream's id cursor. Transitions are one-way toward `Regressing`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CursorState {
    /// No event with an `id:` line yet.
    None,
    /// Every id unique and, by skeleton, strictly increasing; holds the last id's key, and where its random
    /// tag starts in that key when it has one ([`tag_cut`]).
    Ordered { skeleton: Skeleton, last: Runs, cut: Option<(usize, usize)> },
    /// Unique, but not comparable.
    UnorderedUnique,
    /// An id repeated (in the session) or went backwards (on this stream).
    Regressing,
}

impl CursorState {
    pub fn as_str(&self) -> &'static str {
        match self {
            CursorState::None => "none",
            CursorState::Ordered { .. } => "ordered",
            CursorState::UnorderedUnique => "unordered-unique",
            CursorState::Regressing => "regressing",
        }
    }

    /// Whether a client holds a usable `Last-Event-ID` for this stream.
    pub fn is_usable(&self) -> bool {
        matches!(self, CursorState::Ordered { .. } | CursorState::UnorderedUnique)
    }
}

/// What one new id did to the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Advanced,
    /// The id was already issued in this session (on any stream).
    Repeated,
    /// An orderable id below the previous one on this stream.
    WentBack,
}

/// Whether `id`, as the next id of a stream whose last id was `cursor`, orders below it. A resumption (a
/// GET with `Last-Event-ID`) continues the stream its cursor came from (MCP 2025-03-26 transports,
/// "Resumability and Redelivery"), so its ids are judged against that cursor.
pub fn orders_below(id: &str, cursor: &str) -> bool {
    let mut stream = CursorState::None;
    stream.step(cursor, false);
    stream.step(id, false) == Step::WentBack
}

/// The longest random tag after the last `_` that is cut off before ordering.
const MAX_TAG: usize = 16;

/// What may be a random tag after the id's last `_` (letters and digits, at most [`MAX_TAG`]), cut off
/// where the rest still has digits to order by.
fn untagged(id: &str) -> Option<&str> {
    let (rest, tag) = id.rsplit_once('_')?;
    let tag_like = (1..=MAX_TAG).contains(&tag.len()) && tag.bytes().all(|b| b.is_ascii_alphanumeric());
    (tag_like && rest.bytes().any(|b| b.is_ascii_digit())).then_some(rest)
}

/// Where the random tag of `id` ([`untagged`]) starts in the id's key: the lengths of the skeleton and of
/// the digit runs before its last `_`. The key of the untagged id is that prefix of the whole id's key (the
/// tag holds no `_`, and a digit run ends at the `_`), so it is cut from it, not built again.
fn tag_cut(id: &str, skeleton: &Skeleton, runs: &Runs) -> Option<(usize, usize)> {
    let rest = untagged(id)?;
    let tag = id.get(rest.len() + 1..)?;
    let tag_runs = tag.as_bytes().split(|b| !b.is_ascii_digit()).filter(|run| !run.is_empty()).count();
    let at = skeleton.iter().rposition(|&b| b == b'_')?;
    Some((at, runs.len().checked_sub(tag_runs)?))
}

/// Splits an id into its skeleton and its digit runs. Runs longer than 38 digits do not fit a u128 and
/// make the id opaque.
fn order_key(id: &str) -> Option<(Skeleton, Runs)> {
    let mut skeleton = Skeleton::new();
    let mut nums = Runs::new();
    let mut utf8 = [0u8; 4];
    // The digit run being read, as a number (`None` past u128: the id is opaque).
    let mut run: Option<Option<u128>> = None;
    for c in id.chars() {
        if let Some(d) = c.to_digit(10).filter(|_| c.is_ascii_digit()) {
            let n = run.unwrap_or(Some(0));
            run = Some(n.and_then(|n| n.checked_mul(10)).and_then(|n| n.checked_add(u128::from(d))));
        } else {
            if let Some(n) = run.take() {
                nums.push(n?);
                skeleton.push(b'#');
            }
            skeleton.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        }
    }
    if let Some(n) = run {
        nums.push(n?);
        skeleton.push(b'#');
    }
    if nums.is_empty() {
        return None;
    }
    Some((skeleton, nums))
}

impl CursorState {
    /// Feeds the next id of this stream. `seen_in_session` says whether the session already issued it.
    pub fn step(&mut self, id: &str, seen_in_session: bool) -> Step {
        if seen_in_session {
            *self = CursorState::Regressing;
            return Step::Repeated;
        }
        let key = order_key(id);
        let next = match (std::mem::replace(self, CursorState::None), key) {
            (CursorState::Regressing, _) => CursorState::Regressing,
            (CursorState::None, Some((skeleton, last))) => {
                let cut = tag_cut(id, &skeleton, &last);
                CursorState::Ordered { skeleton, last, cut }
            }
            (CursorState::None, None) | (CursorState::UnorderedUnique, _) | (CursorState::Ordered { .. }, None) => CursorState::UnorderedUnique,
            (CursorState::Ordered { skeleton, last, cut }, Some((sk, nums))) => {
                let now = tag_cut(id, &sk, &nums);
                let order = if sk == skeleton {
                    Some(nums.cmp(&last))
                } else {
                    match (cut, now) {
                        (Some((a, n)), Some((b, m))) if skeleton.get(..a) == sk.get(..b) => nums.get(..m).zip(last.get(..n)).map(|(now, before)| now.cmp(before)),
                        _ => None,
                    }
                };
                match order {
                    Some(std::cmp::Ordering::Greater) => CursorState::Ordered { skeleton: sk, last: nums, cut: now },
                    // A different id (not seen in the session) that orders the same: told apart only by what
                    // does not order (a random tag, leading zeros). Or no common skeleton at all.
                    Some(std::cmp::Ordering::Equal) | None => CursorState::UnorderedUnique,
                    Some(std::cmp::Ordering::Less) => {
                        *self = CursorState::Regressing;
                        return Step::WentBack;
                    }
                }
            }
        };
        *self = next;
        Step::Advanced
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn an_id_orders_below_a_cursor_only_where_both_order() {
        assert!(orders_below("5", "10"));
        assert!(orders_below("s_1796_ab1", "s_1797_zz9"));
        assert!(!orders_below("11", "10"));
        assert!(!orders_below("10", "10"));
        assert!(!orders_below("0c6e6a4e-9d0b-4b1a-8f57-3f2d2a1b0c9d", "10"));
        assert!(!orders_below("evt-3", "10/2"));
    }

    fn run(ids: &[&str]) -> (CursorState, Vec<Step>) {
        let mut seen = std::collections::HashSet::new();
        let mut c = CursorState::None;
        let steps = ids.iter().map(|id| c.step(id, !seen.insert(id.to_string()))).collect();
        (c, steps)
    }

    #[test]
    fn cursor_integers_increasing_are_ordered() {
        assert_eq!(run(&["84", "85", "90"]).0.as_str(), "ordered");
    }

    #[test]
    fn cursor_prefixed_counter_is_ordered() {
        assert_eq!(run(&["evt-9", "evt-10", "evt-11"]).0.as_str(), "ordered");
    }

    #[test]
    fn cursor_uuids_are_unordered_unique() {
        let (c, _) = run(&["0b6f3c1e-8d7a-4e0f-9a55-1c2d3e4f5a6b", "9f1e2d3c-4b5a-4678-8a9b-0c1d2e3f4a5b"]);
        assert_eq!(c.as_str(), "unordered-unique");
        assert!(c.is_usable());
    }

    #[test]
    fn cursor_typescript_style_ids_order_by_their_time_and_a_tie_is_unordered() {
        // The TypeScript SDK's example event store: `${streamId}_${Date.now()}_${random}`.
        let ts = ["_GET_stream_1700000000001_k3j2abcd", "_GET_stream_1700000000005_a9zzq1x0", "_GET_stream_1700000000009_0b"];
        assert_eq!(run(&ts).0.as_str(), "ordered");
        let (c, steps) = run(&["_GET_stream_1700000000005_k3j2", "_GET_stream_1700000000001_a9zz"]);
        assert_eq!((c.as_str(), steps[1]), ("regressing", Step::WentBack));
        // Two events in one millisecond: only the random tags differ.
        let (c, steps) = run(&["_GET_stream_1700000000001_k3j2", "_GET_stream_1700000000001_a9zz"]);
        assert_eq!((c.as_str(), steps[1]), ("unordered-unique", Step::Advanced));
        assert!(c.is_usable());
    }

    #[test]
    fn cursor_fastmcp_ids_with_a_counter_are_ordered() {
        // mcp-proxy 6.7 (samples/ecosystem/fastmcp-ts-stream-ts.pcap): stream, ms, counter, random tag.
        let s = "8d1f1c1e-5b8f-4f7e-9e2a-1c2b3d4e5f60";
        let ids = [format!("{s}_1796467172193_0000_bz0"), format!("{s}_1796467172193_0001_rlo"), format!("{s}_1796467172195_0000_787")];
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        assert_eq!(run(&ids).0.as_str(), "ordered");
    }

    #[test]
    fn cursor_tags_are_cut_only_after_an_underscore_with_digits_before() {
        assert_eq!(untagged("stream_17_ab3"), Some("stream_17"));
        assert_eq!(untagged("stream_17_787"), Some("stream_17"));
        // Nothing to order by before the tail; a UUID's last group follows a `-`; a tail that is no tag.
        assert_eq!(untagged("evt_17"), None);
        assert_eq!(untagged("0b6f3c1e-8d7a-4e0f-9a55-1c2d3e4f5a6b"), None);
        assert_eq!(untagged("s_12_this-is-no-tag"), None);
        assert_eq!(untagged("s_12_abcdefghijklmnopq"), None);
        // A counter after a stream number still orders by both while the skeleton holds.
        assert_eq!(run(&["1_1", "1_2", "1_10", "2_1"]).0.as_str(), "ordered");
        // UUIDs stay opaque.
        let (c, _) = run(&["0b6f3c1e-8d7a-4e0f-9a55-1c2d3e4f5a6b", "0b6f3c1e-8d7a-4e0f-9a55-1c2d3e4f5a6c", "9f1e2d3c-4b5a-4678-8a9b-0c1d2e3f4a5b"]);
        assert_eq!(c.as_str(), "unordered-unique");
    }

    #[test]
    fn cursor_repeat_is_regressing() {
        let (c, steps) = run(&["1", "2", "2"]);
        assert_eq!(c.as_str(), "regressing");
        assert_eq!(steps[2], Step::Repeated);
    }

    #[test]
    fn cursor_going_back_is_regressing_and_sticks() {
        let (c, steps) = run(&["5", "3", "7"]);
        assert_eq!(steps[1], Step::WentBack);
        assert_eq!(c.as_str(), "regressing");
        assert!(!c.is_usable());
    }

    #[test]
    fn cursor_none_until_an_id() {
        assert_eq!(CursorState::None.as_str(), "none");
        assert!(!CursorState::None.is_usable());
    }

    #[test]
    fn cursor_huge_digit_run_is_opaque_not_a_panic() {
        let long = "9".repeat(60);
        assert_eq!(run(&[&long, "1"]).0.as_str(), "unordered-unique");
        // The largest run that fits a u128 still orders; one more and the id is opaque.
        let max = u128::MAX.to_string();
        let (state, steps) = run(&[&format!("e-{}", u128::MAX - 1), &format!("e-{max}")]);
        assert_eq!((state.as_str(), steps[1]), ("ordered", Step::Advanced));
        assert_eq!(order_key(&format!("e-{}0", max)), None);
        let (skeleton, runs) = order_key("a7b0042c").unwrap();
        assert_eq!((&skeleton[..], &runs[..]), (&b"a#b#c"[..], &[7, 42][..]));
        // Non-ASCII text stays in the skeleton as UTF-8.
        assert_eq!(&order_key("\u{e9}v\u{e9}nement-5").unwrap().0[..], "\u{e9}v\u{e9}nement-#".as_bytes());
    }
}
