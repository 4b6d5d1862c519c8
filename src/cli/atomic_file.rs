//! Output files that no reader sees half-written (issue 26): `euref golden -o FILE` and
//! `euref asm -o FILE` write to a temporary file beside FILE (same folder, so the same file
//! system: `.FILE.XXXXXX.partial`) and rename it to FILE once everything is written and
//! flushed. Until then FILE is absent or holds what it held before; a failed run (full disk, a
//! write error) removes the temporary file and leaves FILE as it was. A run killed with
//! SIGKILL (or a power loss) cannot clean up: it leaves FILE untouched and the temporary file
//! behind, which can be deleted.
//!
//! A target that exists and is no regular file (`/dev/null`, `/dev/stdout`, a named pipe) is
//! written in place: it cannot be renamed onto, and a reader of it sees the bytes as they
//! come. A symbolic link is followed: the file it points to is replaced. The new file gets the
//! mode of the file it replaces (a new one: 0666 less the umask, as `File::create`); it needs a
//! folder where a file can be created.

use super::output::Named;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written: bytes go to the temporary file (or the device) until [`commit`].
///
/// [`commit`]: AtomicFile::commit
pub struct AtomicFile {
    out: Named<BufWriter<File>>,
    /// The temporary file, removed when dropped before [`AtomicFile::commit`]; None when
    /// writing in place.
    temp: Option<tempfile::TempPath>,
    /// Where the file goes.
    path: PathBuf,
}

impl AtomicFile {
    /// Start writing `path` (buffered, `buffer` bytes). Errors name `path`.
    pub fn create(path: &Path, buffer: usize) -> Result<AtomicFile, String> {
        let shown = path.display().to_string();
        let fail = |e: io::Error| format!("{shown}: {e}");
        // (Asked without opening: opening a named pipe waits for its reader.)
        let meta = std::fs::metadata(path);
        let target = match &meta {
            Ok(m) if !m.is_file() => {
                let f = File::create(path).map_err(fail)?;
                return Ok(AtomicFile {
                    out: Named::new(BufWriter::with_capacity(buffer, f), shown),
                    temp: None,
                    path: path.to_path_buf(),
                });
            }
            // A regular file, or a link to one: the file itself is replaced.
            Ok(_) => std::fs::canonicalize(path).map_err(fail)?,
            Err(_) => path.to_path_buf(),
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(target.file_name().unwrap_or_default());
        prefix.push(".");
        // The mode of the file replaced, or 0666 as `File::create` makes files (not
        // tempfile's 0600); the umask applies.
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".partial");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(match &meta {
                Ok(m) => m.permissions(),
                Err(_) => std::fs::Permissions::from_mode(0o666),
            });
        }
        let (file, temp) = builder
            .tempfile_in(&dir)
            .map_err(|e| {
                format!(
                    "{shown}: creating a temporary file in {}: {e}",
                    dir.display()
                )
            })?
            .into_parts();
        Ok(AtomicFile {
            out: Named::new(BufWriter::with_capacity(buffer, file), shown),
            temp: Some(temp),
            path: target,
        })
    }

    /// The file's name as given (for messages).
    pub fn name(&self) -> &str {
        self.out.dest()
    }

    /// Flush and put the file in place (the rename). Errors name the file; on error the
    /// temporary file is removed and the file is left as it was.
    pub fn commit(self) -> Result<(), String> {
        let dest = self.out.dest().to_string();
        let fail = |e: io::Error| format!("writing to {dest}: {e}");
        let file = self
            .out
            .into_inner()
            .into_inner()
            .map_err(|e| fail(e.into_error()))?;
        drop(file);
        if let Some(t) = self.temp {
            t.persist(&self.path).map_err(|e| fail(e.error))?;
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn the_file_appears_whole_at_commit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.jsonl");
        std::fs::write(&path, "old\n").unwrap();
        let mut f = AtomicFile::create(&path, 16).unwrap();
        f.write_all(b"line 1\nline 2\n").unwrap();
        f.flush().unwrap();
        // Before the commit: the old contents, and the temporary file beside it.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        let during = names(dir.path());
        assert_eq!(during.len(), 2, "{during:?}");
        assert!(
            during[0].starts_with(".v.jsonl.") && during[0].ends_with(".partial"),
            "{during:?}"
        );
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "line 1\nline 2\n");
        assert_eq!(names(dir.path()), ["v.jsonl"]);
    }

    #[test]
    fn a_file_dropped_before_commit_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.jsonl");
        let mut f = AtomicFile::create(&path, 16).unwrap();
        f.write_all(b"half a li").unwrap();
        drop(f);
        assert!(names(dir.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn the_file_gets_the_mode_a_plain_create_gives() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        File::create(&plain).unwrap();
        let path = dir.path().join("atomic");
        AtomicFile::create(&path, 16).unwrap().commit().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), mode(&plain));
        // A file replaced keeps its mode.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        AtomicFile::create(&path, 16).unwrap().commit().unwrap();
        assert_eq!(mode(&path), 0o600);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_is_written_in_place_and_its_errors_name_it() {
        let mut f = AtomicFile::create(Path::new("/dev/full"), 16).unwrap();
        let r = f.write_all(&[b'x'; 64]).and_then(|_| f.flush());
        let e = r.unwrap_err();
        let msg = super::super::output::settle(Err(e), "?").unwrap_err();
        assert!(msg.starts_with("writing to /dev/full: "), "{msg}");
    }
}
