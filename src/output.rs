//! Output files written whole: a module (`-o`), a run's JSON (`--out`) or a translation is
//! written to a new file beside its destination and renamed over it, so that a reader, or
//! another `spirthon` writing the same path at the same time, sees the old file or one new
//! file whole, never a torn mix of two (`rename(2)` replaces a name atomically within one
//! file system).
//!
//! Invariant: a destination that is not a regular file (`/dev/null`, a FIFO, a terminal) is
//! written in place, since renaming over it would replace the device node; a symbolic link
//! is followed, so the file it names is replaced and the link kept; a replaced file keeps its
//! permissions.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Writes `bytes` to `path` whole (see the module docs).
pub fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let existing = std::fs::metadata(&target).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        return std::fs::write(&target, bytes);
    }
    let tmp = temporary_beside(&target);
    let written = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        if let Some(m) = &existing {
            f.set_permissions(m.permissions())?;
        }
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// A name in `target`'s directory that no other writer uses: the process id and a counter.
fn temporary_beside(target: &Path) -> PathBuf {
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let k = COUNT.fetch_add(1, Ordering::Relaxed);
    target.with_file_name(format!(".{name}.{}.{k}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("spirthon-output-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).expect("scratch dir");
        d
    }

    #[test]
    fn concurrent_writers_leave_one_whole_file() {
        let d = scratch("race");
        let out = d.join("k.spv");
        let a = vec![b'a'; 1 << 20];
        let b = vec![b'b'; 1 << 19];
        std::thread::scope(|s| {
            for k in 0..8 {
                let (out, data) = (&out, if k % 2 == 0 { &a } else { &b });
                s.spawn(move || {
                    for _ in 0..10 {
                        write_whole(out, data).expect("write");
                    }
                });
            }
        });
        let got = std::fs::read(&out).expect("read");
        assert!(got == a || got == b, "a torn file of {} bytes", got.len());
        let left: Vec<_> = std::fs::read_dir(&d)
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(left.len(), 1, "temporary files left behind: {left:?}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn links_devices_and_permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let d = scratch("kinds");
        let real = d.join("real.json");
        std::fs::write(&real, b"old").expect("write");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        let link = d.join("link.json");
        std::os::unix::fs::symlink(&real, &link).expect("symlink");
        write_whole(&link, b"new").expect("through the link");
        assert!(std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&real).expect("read"), b"new");
        let mode = std::fs::metadata(&real).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        write_whole(Path::new("/dev/null"), b"x").expect("/dev/null");
        assert!(!std::fs::metadata("/dev/null").expect("null").is_file());
        let _ = std::fs::remove_dir_all(&d);
    }
}
