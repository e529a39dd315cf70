//! Connection-level limits: a socket on which no byte moves for the idle timeout is closed;
//! open connections are capped in total and per address ([`Tracker`]).
//!
//! This covers, with one rule, a client that connects and sends nothing, an idle HTTP/1.1
//! keep-alive connection and an idle h2c connection (whose streams hyper would otherwise
//! keep open forever), each of which would otherwise hold a file descriptor indefinitely.
//! The idle timeout is longer than the request timeout, so a request in progress always
//! writes its answer (or its 503) before its connection can count as idle.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// An IO stream that fails with `TimedOut` when neither side moved a byte for `idle`, and
/// that writes hyper's own refusals as problem+json ([`problem_for`]).
pub struct IdleTimeout<T> {
    inner: T,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
    /// A rewritten refusal still to be written (hyper was told it was).
    pending: Option<(Vec<u8>, usize)>,
}

/// The problem+json answer to send instead of a head hyper wrote on its own: a request it
/// could not parse (400), a URI over its limit (414) or too many or too large headers (431)
/// is answered by hyper before any service sees it, with an empty body. Those heads carry
/// no `content-type`; every answer of the service's own does, so none of them is touched.
pub fn problem_for(head: &[u8]) -> Option<Vec<u8>> {
    use crate::error::{ErrorCode, Problem};
    let (code, param, detail) = if head.starts_with(b"HTTP/1.1 431 ") {
        (
            ErrorCode::HeadersTooLarge,
            "headers",
            "The request's headers are too many or too large (at most 100 headers).",
        )
    } else if head.starts_with(b"HTTP/1.1 414 ") {
        (
            ErrorCode::UriTooLong,
            "uri",
            "The request's URI is too long (query strings are limited to 2 KiB).",
        )
    } else if head.starts_with(b"HTTP/1.1 400 ") {
        (
            ErrorCode::BadRequest,
            "request",
            "The request could not be parsed as HTTP.",
        )
    } else {
        return None;
    };
    let end = memchr::memmem::find(head, b"\r\n\r\n")?;
    if memchr::memmem::find(&head[..end].to_ascii_lowercase(), b"\r\ncontent-type:").is_some() {
        return None;
    }
    let mut problem = Problem::new(code, detail);
    let status = code.status();
    problem.param = Some(param.into());
    let body = problem.body().to_string();
    Some(
        format!(
            "HTTP/1.1 {} {}\r\ncontent-type: application/problem+json\r\ncache-control: no-store\r\naccess-control-allow-origin: *\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
            status.as_u16(),
            status.canonical_reason().unwrap_or_default(),
            body.len()
        )
        .into_bytes(),
    )
}

impl<T> IdleTimeout<T> {
    pub fn new(inner: T, idle: Duration) -> Self {
        Self {
            inner,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
            pending: None,
        }
    }

    fn touch(&mut self) {
        let next = Instant::now() + self.idle;
        // Resetting the timer on every read would churn the timer wheel; once a second is
        // precise enough for a limit measured in tens of seconds.
        if next.saturating_duration_since(self.deadline.deadline()) > Duration::from_secs(1) {
            self.deadline.as_mut().reset(next);
        }
    }

    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.deadline.as_mut().poll(cx).is_ready()
    }
}

fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "connection idle for too long")
}

impl<T: AsyncRead + Unpin> AsyncRead for IdleTimeout<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(r) => {
                this.touch();
                Poll::Ready(r)
            }
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncWrite + Unpin> IdleTimeout<T> {
    /// Writes what is left of a rewritten refusal; ready once it is all out.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, done)) = &mut self.pending {
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*done..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    *done += n;
                    if *done >= bytes.len() {
                        self.pending = None;
                    }
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `buf` as written when it is one of hyper's own refusals, queueing the
    /// problem+json answer in its place.
    fn rewrite(&mut self, buf: &[u8]) -> Option<usize> {
        let replacement = problem_for(buf)?;
        self.pending = Some((replacement, 0));
        Some(buf.len())
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for IdleTimeout<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Poll::Ready(Err(e)) = this.drain(cx) {
            return Poll::Ready(Err(e));
        }
        if this.pending.is_some() {
            return Poll::Pending;
        }
        if let Some(n) = this.rewrite(buf) {
            let _ = this.drain(cx);
            return Poll::Ready(Ok(n));
        }
        match Pin::new(&mut this.inner).poll_write(cx, buf) {
            Poll::Ready(r) => {
                this.touch();
                Poll::Ready(r)
            }
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Poll::Ready(Err(e)) = this.drain(cx) {
            return Poll::Ready(Err(e));
        }
        if this.pending.is_some() {
            return Poll::Pending;
        }
        if let Some(first) = bufs.iter().find(|b| !b.is_empty())
            && bufs.iter().filter(|b| !b.is_empty()).count() == 1
            && let Some(n) = this.rewrite(first)
        {
            let _ = this.drain(cx);
            return Poll::Ready(Ok(n));
        }
        match Pin::new(&mut this.inner).poll_write_vectored(cx, bufs) {
            Poll::Ready(r) => {
                this.touch();
                Poll::Ready(r)
            }
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        std::task::ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        std::task::ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

/// Open connections, counted in total and per client address, so that no one address can
/// take every file descriptor and a full house still lets new clients in.
///
/// - A new connection from an address that already holds `per_address` is refused (closed
///   at once); trusted proxies are exempt, as they carry many clients.
/// - When `total` are open, the oldest idle connection (no request in progress: a silent
///   socket, an idle keep-alive) is shed to make room; when none is idle the new one is
///   refused. Existing requests are never cut off.
pub struct Tracker {
    total: usize,
    per_address: usize,
    exempt: Vec<ipnet::IpNet>,
    state: std::sync::Mutex<Open>,
}

#[derive(Default)]
struct Open {
    next: u64,
    per_address: std::collections::HashMap<std::net::IpAddr, usize>,
    /// Accept order → the connection's activity.
    conns: std::collections::BTreeMap<u64, std::sync::Arc<Activity>>,
}

/// What the connection task and the service share about one connection.
#[derive(Default)]
pub struct Activity {
    /// Requests in progress.
    busy: std::sync::atomic::AtomicUsize,
    /// Whether a whole request head has arrived yet.
    started: std::sync::atomic::AtomicBool,
    /// Requests whose body is still arriving: such a connection is shed right after the
    /// idle ones when the house is full (docs/security.md).
    reading: std::sync::atomic::AtomicUsize,
    /// Told to close by the tracker.
    shed: tokio::sync::Notify,
}

impl Activity {
    /// A request has arrived; the returned guard marks it done when dropped.
    pub fn begin(self: &std::sync::Arc<Self>) -> Busy {
        use std::sync::atomic::Ordering;
        self.started.store(true, Ordering::Relaxed);
        self.busy.fetch_add(1, Ordering::Relaxed);
        Busy(self.clone())
    }

    /// A request's body is being read; the returned guard marks it read when dropped.
    pub fn reading_body(self: &std::sync::Arc<Self>) -> ReadingBody {
        self.reading
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        ReadingBody(self.clone())
    }

    fn reading(&self) -> bool {
        self.reading.load(std::sync::atomic::Ordering::Relaxed) > 0
    }

    pub fn started(&self) -> bool {
        self.started.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Resolves when the tracker sheds this connection.
    pub async fn shed(&self) {
        self.shed.notified().await;
    }

    fn idle(&self) -> bool {
        self.busy.load(std::sync::atomic::Ordering::Relaxed) == 0
    }
}

/// A request in progress on a connection.
pub struct Busy(std::sync::Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0
            .busy
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// A request body being read on a connection.
pub struct ReadingBody(std::sync::Arc<Activity>);

impl Drop for ReadingBody {
    fn drop(&mut self) {
        self.0
            .reading
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// An admitted connection's place; dropping it frees the place.
pub struct Place {
    tracker: std::sync::Arc<Tracker>,
    id: u64,
    ip: std::net::IpAddr,
    pub activity: std::sync::Arc<Activity>,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut open = self.tracker.lock();
        open.conns.remove(&self.id);
        if let Some(n) = open.per_address.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.per_address.remove(&self.ip);
            }
        }
    }
}

impl Tracker {
    pub fn new(total: usize, per_address: usize, exempt: Vec<ipnet::IpNet>) -> Self {
        Self {
            total: total.max(1),
            per_address: per_address.max(1),
            exempt,
            state: std::sync::Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Open connections now.
    pub fn open(&self) -> usize {
        self.lock().conns.len()
    }

    /// A place for a new connection from `ip`, or `None` to refuse it.
    pub fn admit(self: &std::sync::Arc<Self>, ip: std::net::IpAddr) -> Option<Place> {
        let mut open = self.lock();
        let exempt = self.exempt.iter().any(|n| n.contains(&ip));
        if !exempt && open.per_address.get(&ip).copied().unwrap_or(0) >= self.per_address {
            return None;
        }
        if open.conns.len() >= self.total {
            // The oldest idle connection makes room, else the oldest still sending a
            // request body (a client trickling a body holds a place as a silent one does);
            // it closes as soon as it is told.
            let idle = open
                .conns
                .iter()
                .find(|(_, a)| a.idle())
                .or_else(|| open.conns.iter().find(|(_, a)| a.reading()))
                .map(|(id, a)| (*id, a.clone()))?;
            open.conns.remove(&idle.0);
            idle.1.shed.notify_one();
        }
        let id = open.next;
        open.next += 1;
        let activity = std::sync::Arc::new(Activity::default());
        open.conns.insert(id, activity.clone());
        *open.per_address.entry(ip).or_default() += 1;
        Some(Place {
            tracker: self.clone(),
            id,
            ip,
            activity,
        })
    }
}

/// Raises the soft limit on open files to the hard one (a service holds a descriptor per
/// connection) and returns the limit now in force.
pub fn raise_fd_limit() -> u64 {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(error = %e, "could not raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft)
        }
    }
}

/// How many connections may be open: the configured cap, within the open-file limit less
/// what the process needs besides (database and Redis pools, files, the listener).
pub fn cap(configured: usize, fd_limit: u64) -> usize {
    const RESERVE: u64 = 128;
    let by_fds = usize::try_from(fd_limit.saturating_sub(RESERVE).max(16)).unwrap_or(usize::MAX);
    configured.min(by_fds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyper_s_own_refusals_become_problem_json_and_the_service_s_stay() {
        let auto =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(problem_for(auto).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 431 "), "{out}");
        assert!(out.contains("application/problem+json") && out.contains("\"status\":431"));
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(problem_for(ours), None);
        assert_eq!(problem_for(b"HTTP/1.1 200 OK\r\n\r\n"), None);
    }

    #[test]
    fn one_address_is_capped_and_a_full_house_sheds_the_oldest_idle() {
        let t = std::sync::Arc::new(Tracker::new(3, 2, vec!["10.0.0.0/8".parse().unwrap()]));
        let a: std::net::IpAddr = "192.0.2.1".parse().unwrap();
        let b: std::net::IpAddr = "192.0.2.2".parse().unwrap();
        let p1 = t.admit(a).unwrap();
        let _p2 = t.admit(a).unwrap();
        assert!(t.admit(a).is_none(), "a third from one address");
        // The house is full at 3: the oldest idle (p1) is shed for a new client.
        let busy = p1.activity.begin();
        let p3 = t.admit(b).unwrap();
        drop(busy);
        let p4 = t.admit(b).unwrap();
        assert_eq!(t.open(), 3);
        drop((p1, p3, p4));
        // Trusted proxies are not capped per address.
        let proxy: std::net::IpAddr = "10.1.2.3".parse().unwrap();
        let many: Vec<_> = (0..3).filter_map(|_| t.admit(proxy)).collect();
        assert_eq!(many.len(), 3);
        assert_eq!(t.open(), 3, "the total still holds: the idle one was shed");
        drop(many);
        // With nothing idle, a connection still sending its body is shed, never one whose
        // request is being answered.
        let t = std::sync::Arc::new(Tracker::new(2, 2, Vec::new()));
        let (p1, p2) = (t.admit(a).unwrap(), t.admit(b).unwrap());
        let (_b1, _b2) = (p1.activity.begin(), p2.activity.begin());
        assert!(t.admit(b).is_none(), "nothing idle, nothing reading");
        let _r2 = p2.activity.reading_body();
        let p3 = t.admit(a).unwrap();
        assert_eq!(t.open(), 2);
        drop((p1, p2, p3));
        assert_eq!(cap(10_000, 1024), 896);
        assert_eq!(cap(100, 1 << 20), 100);
    }
}
