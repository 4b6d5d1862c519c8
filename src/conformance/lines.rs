//! Line reading for the protocol's streams: `BufRead::read_until(b'\n')` with the memchr
//! crate's vectorised newline search (the standard library's byte search is word-at-a-time).

use std::io::{BufRead, ErrorKind};

/// Append the next line of `input` to `buf`, newline included (as `read_until(b'\n')`): the
/// number of bytes read, 0 at the end.
pub fn read_line_bytes(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let start = buf.len();
    loop {
        let avail = match input.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        let (n, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        buf.extend_from_slice(&avail[..n]);
        input.consume(n);
        if done {
            break;
        }
    }
    Ok(buf.len() - start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_as_read_until_reads_them() {
        let text: &[u8] = b"first\r\n\nsecond line that is longer than the buffer\nlast";
        for cap in [1, 2, 3, 7, 64] {
            let mut fast = std::io::BufReader::with_capacity(cap, text);
            let mut std_reader = std::io::BufReader::with_capacity(cap, text);
            loop {
                let (mut a, mut b) = (b"x".to_vec(), b"x".to_vec());
                let n = read_line_bytes(&mut fast, &mut a).unwrap();
                assert_eq!(n, std_reader.read_until(b'\n', &mut b).unwrap());
                assert_eq!(a, b);
                if n == 0 {
                    break;
                }
            }
        }
    }
}
