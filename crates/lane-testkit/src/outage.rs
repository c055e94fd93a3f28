//! A store outage on loopback: [`OutageProxy`] forwards TCP to a server
//! (moto) and can be taken down and brought back. While down it cuts every
//! open connection and closes each new one at once, as a store that went
//! away mid-upload does to its clients (a connection reset, then refused
//! requests); once up it forwards again to the same server, whose data
//! stayed whole. It replaces nothing real: the store behind it is real, and
//! only the network between is interrupted.

use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

/// The proxy (see the module documentation). Stops accepting when dropped.
#[derive(Debug)]
pub struct OutageProxy {
    addr: SocketAddr,
    down: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
    stop: Arc<AtomicBool>,
}

impl OutageProxy {
    /// Forwards a port of its own on 127.0.0.1 to `target` (`host:port`).
    pub fn start(target: &str) -> OutageProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        let down = Arc::new(AtomicBool::new(false));
        let open = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let target = target.to_owned();
        let (d, o, s) = (down.clone(), open.clone(), stop.clone());
        thread::spawn(move || {
            for client in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(client) = client else { continue };
                if d.load(Ordering::SeqCst) {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(server) = TcpStream::connect(&target) else {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                };
                let mut kept = o.lock().expect("the registry");
                kept.retain(|c: &TcpStream| c.peer_addr().is_ok());
                for s in [&client, &server] {
                    if let Ok(c) = s.try_clone() {
                        kept.push(c);
                    }
                }
                drop(kept);
                pipe(&client, &server);
                pipe(&server, &client);
            }
        });
        OutageProxy {
            addr,
            down,
            open,
            stop,
        }
    }

    /// `http://127.0.0.1:<port>`: the endpoint to give clients.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The outage begins: every open connection is cut, new ones closed.
    pub fn down(&self) {
        self.down.store(true, Ordering::SeqCst);
        for c in self.open.lock().expect("the registry").drain(..) {
            let _ = c.shutdown(Shutdown::Both);
        }
    }

    /// The outage ends: new connections are forwarded again.
    pub fn up(&self) {
        self.down.store(false, Ordering::SeqCst);
    }
}

impl Drop for OutageProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.down();
        // Wakes the accept loop so it sees `stop`.
        let _ = TcpStream::connect(self.addr);
    }
}

/// Copies `from` to `to` on a thread of its own until either side ends.
fn pipe(from: &TcpStream, to: &TcpStream) {
    let (Ok(mut from), Ok(mut to)) = (from.try_clone(), to.try_clone()) else {
        return;
    };
    thread::spawn(move || {
        let _ = std::io::copy(&mut from, &mut to);
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
    }
}
