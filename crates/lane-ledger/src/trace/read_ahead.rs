//! A reader that reads ahead on a thread of its own, so the kernel's copy
//! of the next chunk overlaps the parsing of this one: on a machine with a
//! second core a trace is read in about the time of the slower of the two,
//! not their sum. Memory stays flat: [`DEPTH`] + 2 chunks, however long
//! the input.

use std::io::{self, BufRead, Read};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

/// Chunks read ahead of the one being parsed.
pub const DEPTH: usize = 2;

/// A chunk and how many of its bytes were read.
type Chunk = (Vec<u8>, usize);

/// A [`BufRead`] over any reader, filled by a thread that reads `chunk`
/// bytes at a time ahead of the consumer.
pub struct ReadAhead {
    full: Receiver<io::Result<Chunk>>,
    empty: SyncSender<Vec<u8>>,
    current: Vec<u8>,
    len: usize,
    pos: usize,
    done: bool,
}

impl ReadAhead {
    /// Starts reading `inner` ahead, `chunk` bytes (at least 1) at a time.
    pub fn new<R: Read + Send + 'static>(mut inner: R, chunk: usize) -> io::Result<Self> {
        let chunk = chunk.max(1);
        let (full_tx, full) = sync_channel::<io::Result<Chunk>>(DEPTH);
        let (empty, empty_rx) = sync_channel::<Vec<u8>>(DEPTH + 2);
        for _ in 0..=DEPTH {
            // Cannot fail: the receiver is alive and there is room.
            let _ = empty.send(vec![0; chunk]);
        }
        std::thread::Builder::new()
            .name("trace-read-ahead".to_owned())
            .spawn(move || {
                // Ends when the input does, on an error, or when the
                // consumer is gone (either channel closed).
                while let Ok(mut buf) = empty_rx.recv() {
                    let read = loop {
                        match inner.read(&mut buf) {
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                            other => break other,
                        }
                    };
                    let last = !matches!(read, Ok(n) if n > 0);
                    if full_tx.send(read.map(|n| (buf, n))).is_err() || last {
                        break;
                    }
                }
            })?;
        Ok(ReadAhead {
            full,
            empty,
            current: Vec::new(),
            len: 0,
            pos: 0,
            done: false,
        })
    }
}

impl BufRead for ReadAhead {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.len && !self.done {
            let spent = std::mem::take(&mut self.current);
            if !spent.is_empty() {
                // There is always room: at most DEPTH + 1 chunks are out.
                let _ = self.empty.try_send(spent);
            }
            (self.len, self.pos) = (0, 0);
            match self.full.recv() {
                Ok(Ok((buf, n))) => {
                    self.done = n == 0;
                    (self.current, self.len) = (buf, n);
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(_) => {
                    self.done = true;
                    return Err(io::Error::other("the read-ahead thread ended early"));
                }
            }
        }
        Ok(&self.current[self.pos..self.len])
    }

    fn consume(&mut self, amount: usize) {
        self.pos = (self.pos + amount).min(self.len);
    }
}

impl Read for ReadAhead {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_arrives_in_order_whatever_the_chunk() {
        let input: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        for chunk in [1, 7, 4096, 1 << 20] {
            let mut out = Vec::new();
            ReadAhead::new(io::Cursor::new(input.clone()), chunk)
                .unwrap()
                .read_to_end(&mut out)
                .unwrap();
            assert_eq!(out, input, "chunk {chunk}");
        }
    }

    /// A reader that fails after `ok` bytes.
    struct Failing {
        ok: usize,
    }
    impl Read for Failing {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.ok == 0 {
                return Err(io::Error::other("disk gone"));
            }
            let n = out.len().min(self.ok);
            out[..n].fill(b'x');
            self.ok -= n;
            Ok(n)
        }
    }

    #[test]
    fn a_read_error_reaches_the_consumer_after_the_bytes_before_it() {
        let mut r = ReadAhead::new(Failing { ok: 10 }, 4).unwrap();
        let mut out = Vec::new();
        let e = r.read_to_end(&mut out).unwrap_err();
        assert_eq!(e.to_string(), "disk gone");
        assert_eq!(out, b"xxxxxxxxxx");
    }

    #[test]
    fn dropping_it_early_ends_the_thread_instead_of_reading_on() {
        // An endless input: the thread must stop once the consumer is gone.
        let mut r = ReadAhead::new(io::repeat(b'a'), 16).unwrap();
        let mut first = [0; 8];
        r.read_exact(&mut first).unwrap();
        drop(r); // would hang the test at exit if the thread kept a sender
    }
}
