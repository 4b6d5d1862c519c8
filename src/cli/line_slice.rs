//! The vector lines of one shard of a vectors file (`euref check --shard K/N`): the file's
//! vector lines (every line that is not blank, as the checker's reader counts them:
//! `src/conformance/read_ahead.rs`) are counted first, then shard K's slice of them
//! ([`Shard::range`]) is found as a byte range of the file, read from its first byte on.
//! Blank lines between two shards go with the first; the line numbers of the slice stay
//! those of the file, so that a line that is no vector is reported as it is in an unsharded
//! run (`line-<number>`).

use super::shard::Shard;
use euref::conformance::lines::read_line_bytes;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// Every this many vector lines, the counting pass notes where the next one starts, so that
/// the slice's ends are found by reading at most this many lines again.
const CHECKPOINT: u64 = 1024;

/// A shard's lines in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineSlice {
    /// Vector lines in the whole file.
    pub total: u64,
    /// The slice's vector lines, numbered from 0 among the file's.
    pub lines: std::ops::Range<u64>,
    /// Where the slice starts (the first byte of its first vector line) and ends.
    pub bytes: std::ops::Range<u64>,
    /// The number (from 1) of the file line at `bytes.start`.
    pub first_line: usize,
}

/// Whether a line (line end included or not) is blank as the checker's reader sees it:
/// nothing but white space. A line that is not UTF-8 is no blank line (the reader reports it
/// as a `bad_vector`, in whichever shard holds it).
fn is_blank(line: &[u8]) -> bool {
    match line.first() {
        None => true,
        Some(b'{') => false,
        Some(_) => std::str::from_utf8(line).is_ok_and(|s| s.trim().is_empty()),
    }
}

/// Where a vector line starts: byte offset and line number.
#[derive(Debug, Clone, Copy)]
struct At {
    offset: u64,
    line: usize,
}

/// Find shard `shard`'s vector lines in the file at `path`, which must be a regular file
/// (read twice: counted, then read from the slice's start).
pub fn find(path: &Path, shard: Shard) -> Result<LineSlice, String> {
    let name = path.display();
    // (Asked before opening: opening a named pipe waits for its writer.)
    let meta = std::fs::metadata(path).map_err(|e| format!("{name}: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "--shard {shard}: `{name}` is not a regular file (a pipe or a device?), and a shard \
             needs the vector lines counted before it starts: save the vectors to a file \
             first, or make only this shard's vectors (`euref golden --shard {shard}`) and \
             check all of them without --shard"
        ));
    }
    let mut file = File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let err = |e: std::io::Error| format!("{name}: {e}");
    // Pass 1: count, noting every CHECKPOINT-th vector line.
    let mut checkpoints: Vec<At> = Vec::new();
    let (mut total, mut offset, mut line) = (0u64, 0u64, 0usize);
    {
        let mut r = BufReader::with_capacity(1 << 20, &file);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = read_line_bytes(&mut r, &mut buf).map_err(err)?;
            if n == 0 {
                break;
            }
            line += 1;
            if !is_blank(&buf) {
                if total % CHECKPOINT == 0 {
                    checkpoints.push(At { offset, line });
                }
                total += 1;
            }
            offset += n as u64;
        }
    }
    let end_of_file = At {
        offset,
        line: line + 1,
    };
    let lines = shard.range(total);
    let start = locate(&mut file, &checkpoints, lines.start, total, end_of_file).map_err(err)?;
    let end = locate(&mut file, &checkpoints, lines.end, total, end_of_file).map_err(err)?;
    Ok(LineSlice {
        total,
        lines,
        bytes: start.offset..end.offset.max(start.offset),
        first_line: start.line,
    })
}

/// Where vector line `j` (from 0) starts; the end of the file for `j == total`.
fn locate(
    file: &mut File,
    checkpoints: &[At],
    j: u64,
    total: u64,
    end_of_file: At,
) -> std::io::Result<At> {
    if j >= total {
        return Ok(end_of_file);
    }
    let Some(&from) = usize::try_from(j / CHECKPOINT)
        .ok()
        .and_then(|c| checkpoints.get(c))
    else {
        return Ok(end_of_file);
    };
    file.seek(SeekFrom::Start(from.offset))?;
    let mut r = BufReader::with_capacity(1 << 16, &*file);
    let mut buf = Vec::new();
    let mut at = from;
    // (The checkpoint is vector line `(j / CHECKPOINT) * CHECKPOINT`.)
    let mut ordinal = j - j % CHECKPOINT;
    loop {
        buf.clear();
        let n = read_line_bytes(&mut r, &mut buf)?;
        if n == 0 {
            // (The file got shorter since it was counted.)
            return Ok(end_of_file);
        }
        if !is_blank(&buf) {
            if ordinal == j {
                return Ok(at);
            }
            ordinal += 1;
        }
        at.offset += n as u64;
        at.line += 1;
    }
}

/// The slice's bytes of the file at `path`, buffered for the checker.
pub fn open(path: &Path, slice: &LineSlice) -> Result<impl BufRead + Send + 'static, String> {
    let name = path.display();
    let mut f = File::open(path).map_err(|e| format!("{name}: {e}"))?;
    f.seek(SeekFrom::Start(slice.bytes.start))
        .map_err(|e| format!("{name}: {e}"))?;
    let len = slice.bytes.end - slice.bytes.start;
    Ok(BufReader::with_capacity(1 << 16, f.take(len)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_are_those_the_reader_skips() {
        for (line, blank) in [
            (&b""[..], true),
            (b"\n", true),
            (b"  \t\r\n", true),
            (b"\x0b\x0c\n", true),
            ("\u{a0}\u{3000}\n".as_bytes(), true),
            (b"{\"v\":1}\n", false),
            (b" x\n", false),
            (b"\xff\n", false),
        ] {
            assert_eq!(is_blank(line), blank, "{line:?}");
            // As `read_ahead::next_line` decides: UTF-8, trimmed, empty.
            let reader = std::str::from_utf8(line).is_ok_and(|s| s.trim().is_empty());
            assert_eq!(is_blank(line), reader, "{line:?}");
        }
    }

    /// The shards of a file with blank lines, CRLF line ends, a last line without a line end
    /// and more vector lines than a checkpoint: each slice holds exactly its vector lines (in
    /// order: the slices one after the other are the file from its first vector line), and
    /// starts at the right line number.
    #[test]
    fn slices_hold_their_vector_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.jsonl");
        let mut text = String::from("\n\n");
        let mut numbers = Vec::new();
        let mut line = 3;
        let n = 2 * CHECKPOINT as usize + 37;
        for i in 0..n {
            numbers.push(line);
            text.push_str(&format!("{{\"i\":{i}}}"));
            text.push_str(if i % 5 == 0 { "\r\n" } else { "\n" });
            line += 1;
            if i % 7 == 3 {
                text.push_str("  \n");
                line += 1;
            }
        }
        text.push_str("{\"last\":1}");
        numbers.push(line);
        std::fs::write(&path, &text).unwrap();
        let vector_lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(vector_lines.len(), n + 1);
        for shards in [1, 2, 3, 7, 2000, 5000] {
            let mut joined = String::new();
            for k in 1..=shards {
                let s = find(&path, Shard::new(k, shards).unwrap()).unwrap();
                assert_eq!(s.total, n as u64 + 1);
                let mut got = String::new();
                open(&path, &s).unwrap().read_to_string(&mut got).unwrap();
                let got_lines: Vec<&str> = got.lines().filter(|l| !l.trim().is_empty()).collect();
                let want = &vector_lines[s.lines.start as usize..s.lines.end as usize];
                assert_eq!(got_lines, want, "{k}/{shards}");
                if !s.lines.is_empty() {
                    assert!(got.starts_with('{'), "{k}/{shards}");
                    assert_eq!(
                        s.first_line, numbers[s.lines.start as usize],
                        "{k}/{shards}"
                    );
                }
                joined.push_str(&got);
            }
            assert_eq!(joined, text[2..], "{shards} shards");
        }
    }

    #[test]
    fn a_device_is_refused_with_what_to_do() {
        let e = find(Path::new("/dev/null"), Shard::new(1, 2).unwrap()).unwrap_err();
        assert!(e.contains("`/dev/null` is not a regular file"), "{e}");
        assert!(e.contains("euref golden --shard 1/2"), "{e}");
        let e = find(Path::new("/nonexistent/v.jsonl"), Shard::new(1, 2).unwrap()).unwrap_err();
        assert!(e.starts_with("/nonexistent/v.jsonl: "), "{e}");
    }
}
