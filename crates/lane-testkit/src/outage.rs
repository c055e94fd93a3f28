//! A store outage on loopback: [`OutageProxy`] forwards TCP to a server
//! (moto) and can be taken down and brought back. While down it cuts every
//! open connection and closes each new one at once, as a store that went
//! away mid-upload does to its clients (a connection reset, then refused
//! requests); once up it forwards again to the same server, whose data
//! stayed whole. It replaces nothing real: the store behind it is real, and
//! only the network between is interrupted.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// The proxy (see the module documentation). Stops accepting when dropped.
#[derive(Debug)]
pub struct OutageProxy {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Arc<AtomicBool>,
}

/// What the accept loop, the pipes and the handle share.
#[derive(Debug, Default)]
struct Shared {
    down: AtomicBool,
    open: Mutex<Vec<TcpStream>>,
    /// Bytes forwarded from clients to the server so far.
    sent: AtomicU64,
    /// An outage armed by [`OutageProxy::cut_after`]: once `sent` passes
    /// the first, down for the second.
    armed: Mutex<Option<(u64, Duration)>>,
}

impl Shared {
    fn down(&self) {
        self.down.store(true, Ordering::SeqCst);
        for c in self.open.lock().expect("the registry").drain(..) {
            let _ = c.shutdown(Shutdown::Both);
        }
    }

    /// Counts `n` bytes sent; starts the armed outage when they pass its mark.
    fn sent(self: &Arc<Self>, n: usize) {
        let total = self.sent.fetch_add(n as u64, Ordering::SeqCst) + n as u64;
        let mut armed = self.armed.lock().expect("the arming");
        if let Some((mark, lasting)) = *armed {
            if total >= mark {
                *armed = None;
                self.down();
                let shared = Arc::clone(self);
                thread::spawn(move || {
                    thread::sleep(lasting);
                    shared.down.store(false, Ordering::SeqCst);
                });
            }
        }
    }
}

impl OutageProxy {
    /// Forwards a port of its own on 127.0.0.1 to `target` (`host:port`).
    pub fn start(target: &str) -> OutageProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        let shared = Arc::new(Shared::default());
        let stop = Arc::new(AtomicBool::new(false));
        let target = target.to_owned();
        let (sh, s) = (Arc::clone(&shared), stop.clone());
        thread::spawn(move || {
            for client in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(client) = client else { continue };
                if sh.down.load(Ordering::SeqCst) {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(server) = TcpStream::connect(&target) else {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                };
                let mut kept = sh.open.lock().expect("the registry");
                kept.retain(|c: &TcpStream| c.peer_addr().is_ok());
                for s in [&client, &server] {
                    if let Ok(c) = s.try_clone() {
                        kept.push(c);
                    }
                }
                drop(kept);
                pipe(&client, &server, Some(Arc::clone(&sh)));
                pipe(&server, &client, None);
            }
        });
        OutageProxy { addr, shared, stop }
    }

    /// `http://127.0.0.1:<port>`: the endpoint to give clients.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The outage begins: every open connection is cut, new ones closed.
    pub fn down(&self) {
        self.shared.down();
    }

    /// The outage ends: new connections are forwarded again.
    pub fn up(&self) {
        self.shared.down.store(false, Ordering::SeqCst);
    }

    /// Arms an outage that begins mid-upload: once clients have sent
    /// `bytes` more through the proxy, it goes down (cutting the upload in
    /// flight) and comes back `lasting` later.
    pub fn cut_after(&self, bytes: u64, lasting: Duration) {
        let mark = self.shared.sent.load(Ordering::SeqCst) + bytes;
        *self.shared.armed.lock().expect("the arming") = Some((mark, lasting));
    }

    /// Whether an outage armed by [`OutageProxy::cut_after`] has begun.
    pub fn cut_began(&self) -> bool {
        self.shared.armed.lock().expect("the arming").is_none()
    }

    /// Bytes clients have sent through the proxy so far.
    pub fn sent(&self) -> u64 {
        self.shared.sent.load(Ordering::SeqCst)
    }
}

impl Drop for OutageProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.shared.down();
        // Wakes the accept loop so it sees `stop`.
        let _ = TcpStream::connect(self.addr);
    }
}

/// Copies `from` to `to` on a thread of its own until either side ends,
/// counting what clients send in `count`.
fn pipe(from: &TcpStream, to: &TcpStream, count: Option<Arc<Shared>>) {
    let (Ok(mut from), Ok(mut to)) = (from.try_clone(), to.try_clone()) else {
        return;
    };
    thread::spawn(move || {
        let mut buf = vec![0u8; 64 << 10];
        loop {
            let n = match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if to.write_all(&buf[..n]).is_err() {
                break;
            }
            if let Some(c) = &count {
                c.sent(n);
            }
        }
        let _ = to.shutdown(Shutdown::Write);
    });
}

#[cfg(test)]
mod tests {
    use super::OutageProxy;
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};

    #[test]
    fn forwards_while_up_and_refuses_while_down() {
        let echo = TcpListener::bind("127.0.0.1:0").unwrap();
        let target = echo.local_addr().unwrap().to_string();
        std::thread::spawn(move || {
            for c in echo.incoming().flatten() {
                let mut c = c;
                let mut buf = [0u8; 5];
                if c.read_exact(&mut buf).is_ok() {
                    let _ = c.write_all(&buf);
                }
            }
        });
        let proxy = OutageProxy::start(&target);
        let addr = proxy.endpoint().trim_start_matches("http://").to_owned();
        let talk = || -> std::io::Result<[u8; 5]> {
            let mut c = TcpStream::connect(&addr)?;
            c.write_all(b"hello")?;
            let mut buf = [0u8; 5];
            c.read_exact(&mut buf)?;
            Ok(buf)
        };
        assert_eq!(&talk().unwrap(), b"hello");
        proxy.down();
        assert!(talk().is_err(), "refused while down");
        proxy.up();
        assert_eq!(&talk().unwrap(), b"hello");
        // Armed: down once 5 more bytes went through (cutting the
        // exchange in flight), back 200 ms later.
        proxy.cut_after(5, std::time::Duration::from_millis(200));
        assert!(!proxy.cut_began());
        // The exchange that crosses the mark may still get its echo back
        // before the cut lands: only what follows is down for certain.
        let _ = talk();
        assert!(proxy.cut_began());
        assert!(talk().is_err(), "down after the mark");
        std::thread::sleep(std::time::Duration::from_millis(400));
        assert_eq!(&talk().unwrap(), b"hello");
        assert_eq!(proxy.sent(), 20);
    }
}
