//! The life of one HTTP/2 stream as a passive observer sees it (RFC 9113 §5.1), and the exchange it
//! carries: the request half (client to server) and the response half (server to client).
//!
//! RFC 9113 §5.1 names states from one endpoint's view; between the two ends the same states read:
//! `idle` -> HEADERS -> `open`; END_STREAM from the client -> the server's `half-closed (remote)`
//! ([`StreamState::ClientClosed`]); END_STREAM from the server first -> [`StreamState::ServerClosed`];
//! END_STREAM from both, or RST_STREAM from either -> `closed`. One exception, which only an observer has: the
//! client's RST_STREAM after the server's response head reaches the server one flight later, so the DATA the
//! server had already sent still crosses the wire (§5.4.2: the receiver of RST_STREAM "MUST be prepared" for
//! it) and is what the server answered: [`StreamState::ResetByClient`] reads that tail until the server's
//! END_STREAM or RST_STREAM, and `closed` comes with the next frame that is not part of it. PUSH_PROMISE makes a stream
//! `reserved (remote)` at the client ([`StreamState::Reserved`]); the server's HEADERS on it make it
//! half-closed with only the server sending (§5.1: "reserved (remote)" -> HEADERS -> "half-closed (local)"
//! at the client). Closed streams are dropped from the connection's map: a stream id at or below the
//! highest seen and not in the map is closed (§5.1.1: ids are never reused).

use crate::decode::flow_key::Direction;
use crate::http::content::Content;
use crate::http::TxId;

/// RFC 9113 §5.1, seen from the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamState {
    Reserved,
    Open,
    /// The client sent END_STREAM; the server still sends.
    ClientClosed,
    /// The server sent END_STREAM; the client still sends.
    ServerClosed,
    /// The client sent RST_STREAM after the response head: only the server's frames already on their way
    /// are read.
    ResetByClient,
    Closed,
}

/// What moves a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamInput {
    /// HEADERS from the server on a reserved (pushed) stream.
    PushAnswered,
    /// A frame with END_STREAM from one side.
    EndStream(Direction),
    /// RST_STREAM from either side, or GOAWAY above its last stream id, or the end of a client reset's tail.
    Reset,
    /// The client's RST_STREAM while the server's response body is on its way.
    ClientReset,
}

impl StreamState {
    /// The transition function (every state listed).
    pub fn step(self, input: StreamInput) -> StreamState {
        use Direction::{ToClient, ToServer};
        use StreamInput::{ClientReset, EndStream, PushAnswered, Reset};
        match (self, input) {
            (_, Reset) => StreamState::Closed,
            (StreamState::Open | StreamState::ClientClosed | StreamState::ResetByClient, ClientReset) => StreamState::ResetByClient,
            (StreamState::Reserved | StreamState::ServerClosed | StreamState::Closed, ClientReset) => StreamState::Closed,
            (StreamState::ResetByClient, EndStream(ToClient)) => StreamState::Closed,
            (StreamState::ResetByClient, EndStream(ToServer) | PushAnswered) => StreamState::ResetByClient,
            (StreamState::Reserved, PushAnswered) => StreamState::ClientClosed,
            (StreamState::Reserved, EndStream(_)) => StreamState::Closed,
            (StreamState::Open, EndStream(ToServer)) => StreamState::ClientClosed,
            (StreamState::Open, EndStream(ToClient)) => StreamState::ServerClosed,
            (StreamState::ClientClosed, EndStream(ToClient)) | (StreamState::ServerClosed, EndStream(ToServer)) => StreamState::Closed,
            // A second END_STREAM from the same side is a stream error (§5.1 STREAM_CLOSED); nothing changes.
            (s @ (StreamState::ClientClosed | StreamState::ServerClosed), EndStream(_)) => s,
            (s @ (StreamState::Open | StreamState::ClientClosed | StreamState::ServerClosed), PushAnswered) => s,
            (StreamState::Closed, _) => StreamState::Closed,
        }
    }

    /// The side `dir` may still send on this stream.
    pub fn sending(self, dir: Direction) -> bool {
        match self {
            StreamState::Reserved => dir == Direction::ToClient,
            StreamState::Open => true,
            StreamState::ClientClosed | StreamState::ResetByClient => dir == Direction::ToClient,
            StreamState::ServerClosed => dir == Direction::ToServer,
            StreamState::Closed => false,
        }
    }
}

/// Where the response half is.
#[derive(Debug)]
pub enum Response {
    /// No final response head yet.
    Waiting,
    /// The head was emitted; DATA goes through the body stage (decoders, then the SSE parser for a
    /// `text/event-stream` reply), as an HTTP/1.1 body does.
    Body(Content),
    /// ResponseEnd was emitted.
    Done,
}

impl Response {
    /// The body stage of a response in its body, which is `Done` after; any other state stays as it is.
    pub fn take_body(&mut self) -> Option<Content> {
        match std::mem::replace(self, Response::Done) {
            Response::Body(b) => Some(b),
            other => {
                *self = other;
                None
            }
        }
    }
}

/// One stream and the exchange it carries.
#[derive(Debug)]
pub struct Stream {
    pub state: StreamState,
    /// The exchange's transaction id; `None` for a pushed stream (no request from the client: nothing is
    /// emitted for it, its header blocks are decoded only to keep HPACK in step).
    pub tx: Option<TxId>,
    /// A Request was emitted and its RequestEnd not yet: the request body's stage.
    pub request: Option<Content>,
    pub response: Response,
}

impl Stream {
    pub fn request(tx: TxId, body: Content) -> Stream {
        Stream { state: StreamState::Open, tx: Some(tx), request: Some(body), response: Response::Waiting }
    }

    pub fn pushed() -> Stream {
        Stream { state: StreamState::Reserved, tx: None, request: None, response: Response::Waiting }
    }

    /// A stream the h2c upgrade opened (RFC 9113 §3.2 of RFC 7540, kept in RFC 9113 §3.1): the HTTP/1.1
    /// request was stream 1, already complete; only the response comes over HTTP/2.
    pub fn upgraded(tx: TxId) -> Stream {
        Stream { state: StreamState::ClientClosed, tx: Some(tx), request: None, response: Response::Waiting }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::{ToClient, ToServer};

    #[test]
    fn request_then_response_closes() {
        let s = StreamState::Open.step(StreamInput::EndStream(ToServer));
        assert_eq!(s, StreamState::ClientClosed);
        assert!(s.sending(ToClient) && !s.sending(ToServer));
        assert_eq!(s.step(StreamInput::EndStream(ToClient)), StreamState::Closed);
    }

    #[test]
    fn server_first_then_client_closes() {
        let s = StreamState::Open.step(StreamInput::EndStream(ToClient));
        assert_eq!(s, StreamState::ServerClosed);
        assert_eq!(s.step(StreamInput::EndStream(ToClient)), StreamState::ServerClosed);
        assert_eq!(s.step(StreamInput::EndStream(ToServer)), StreamState::Closed);
    }

    #[test]
    fn reset_closes_from_any_state_and_push_follows_reserved() {
        for s in [StreamState::Reserved, StreamState::Open, StreamState::ClientClosed, StreamState::ServerClosed, StreamState::ResetByClient, StreamState::Closed] {
            assert_eq!(s.step(StreamInput::Reset), StreamState::Closed);
        }
        let s = StreamState::Reserved.step(StreamInput::PushAnswered);
        assert_eq!(s, StreamState::ClientClosed);
        assert!(!StreamState::Closed.sending(ToServer));
    }

    #[test]
    fn a_client_reset_leaves_the_server_its_tail() {
        for s in [StreamState::Open, StreamState::ClientClosed] {
            let r = s.step(StreamInput::ClientReset);
            assert_eq!(r, StreamState::ResetByClient);
            assert!(r.sending(ToClient) && !r.sending(ToServer));
            assert_eq!(r.step(StreamInput::EndStream(ToServer)), StreamState::ResetByClient);
            assert_eq!(r.step(StreamInput::EndStream(ToClient)), StreamState::Closed);
        }
        // The server has nothing more to send: the reset closes.
        assert_eq!(StreamState::ServerClosed.step(StreamInput::ClientReset), StreamState::Closed);
    }
}
