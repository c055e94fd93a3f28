//! The slow-client case (issue 35: one header line a second stayed
//! connected for 90 s; 300 half-open connections were all held): beside
//! the load, `LANE_LOAD_SLOW` connections (default 300) are held open, each
//! sending one header line a second and never finishing its request. A
//! connection the server closes is counted as shed and opened again, so
//! the slow clients stay as many for the whole run. The load's latencies
//! are measured with them connected.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// What the slow clients saw.
#[derive(Debug, Clone, Copy)]
pub struct Shed {
    /// Connections the server closed (each then opened again).
    pub shed: u64,
    /// Slow connections still open at the end.
    pub open_at_end: usize,
}

/// The slow clients of one run, driven by one thread.
pub struct SlowClients {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Shed>,
}

impl SlowClients {
    /// Opens `n` slow connections to `addr` and keeps them trickling.
    pub fn start(addr: SocketAddr, n: usize) -> SlowClients {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || trickle(addr, n, &flag));
        SlowClients { stop, thread }
    }

    /// Stops them and says what they saw.
    pub fn stop(self) -> Shed {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().expect("the slow clients' thread")
    }
}

fn trickle(addr: SocketAddr, n: usize, stop: &AtomicBool) -> Shed {
    let mut conns: Vec<Option<TcpStream>> = (0..n).map(|_| open(addr)).collect();
    let mut shed = 0u64;
    let mut line = 0u64;
    while !stop.load(Ordering::SeqCst) {
        let header = format!("X-Slow-{line}: y\r\n");
        for c in &mut conns {
            let alive = c
                .as_mut()
                .is_some_and(|s| !closed(s) && s.write_all(header.as_bytes()).is_ok());
            if !alive {
                shed += 1;
                *c = open(addr);
            }
        }
        line += 1;
        for _ in 0..10 {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let open_at_end = conns.iter().flatten().filter(|s| !closed(s)).count();
    Shed { shed, open_at_end }
}

/// A connection that has sent a request line and one header.
fn open(addr: SocketAddr) -> Option<TcpStream> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(1)).ok()?;
    s.write_all(b"POST /webhook HTTP/1.1\r\nHost: load\r\n")
        .ok()?;
    s.set_nonblocking(true).ok()?;
    Some(s)
}

/// Whether the server is done with `s`: it closed it, or answered it
/// (503 over the limit, 408) before closing.
fn closed(mut s: &TcpStream) -> bool {
    let mut buf = [0u8; 512];
    !matches!(s.read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}
