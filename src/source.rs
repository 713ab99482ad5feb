//! Reading a kernel file as both runners do: bounded in size, UTF-8 as Python source is,
//! with a located error at the first byte that is not.

use spirthon_ir::Diagnostic;

/// The most bytes a kernel file may have (a device, a FIFO or `/dev/urandom` stops here).
pub const MAX_SOURCE: u64 = 64 << 20;

/// A kernel file that cannot be compiled as it is read.
#[derive(Debug)]
pub enum ReadError {
    /// It cannot be read, or is too large: the message (exit status 2).
    Io(String),
    /// It is not UTF-8: a located error over the text as shown (exit status 1).
    NotUtf8 {
        shown: String,
        diagnostic: Box<Diagnostic>,
    },
}

/// The bytes of `file` (named `path` in messages): at most `limit`, read no further (a
/// device, a FIFO or `/dev/zero` stops there), else an error that `what` (`"a kernel file"`)
/// can be no larger. The runners read their kernel files and run inputs so.
pub fn read_bounded(
    file: &std::path::Path,
    path: &str,
    limit: u64,
    what: &str,
) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{path} is larger than {} MiB, more than {what} can be",
            limit >> 20
        ));
    }
    Ok(bytes)
}

/// Reads a kernel file as both runners do: at most [`MAX_SOURCE`] bytes, and UTF-8 as Python
/// source is, with a located error at the first byte that is not. Old Mac line ends (a lone
/// CR) become LF: the same length, so every offset still points at the same byte, and lines
/// are counted as Python counts them. `path` is the file as messages name it.
pub fn read_source(file: &std::path::Path, path: &str) -> Result<String, ReadError> {
    let mut bytes = read_bounded(file, path, MAX_SOURCE, "a kernel file").map_err(ReadError::Io)?;
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let byte = e.as_bytes()[at];
        // Everything before `at` is valid, so offsets up to it are the same in the lossy
        // text shown.
        let shown = String::from_utf8_lossy(e.as_bytes()).into_owned();
        let end = shown[at..].chars().next().map_or(at, |c| at + c.len_utf8());
        let diagnostic = Diagnostic::error(
            spirthon_ir::Span::new(at as u32, end as u32),
            "the file is not valid UTF-8",
        )
        .with_label(format!("byte 0x{byte:02x}"))
        .with_help("Python source is UTF-8: save the file as UTF-8");
        ReadError::NotUtf8 {
            shown,
            diagnostic: Box::new(diagnostic),
        }
    })
}
