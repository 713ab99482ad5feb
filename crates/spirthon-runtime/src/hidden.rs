//! The hidden buffers of bind group 1 (docs/language.md, "Binding ABI"): a checked module's
//! error buffer at binding 0 (`spirthon_ir::checks`) and a printing kernel's print buffer at
//! binding 1 (`spirthon_ir::prints`). A launch that has either waits for its run and reads
//! them back.
//!
//! The error buffer is made for each launch (it is small). The print buffer is large
//! ([`PrintBuffer::SIZE`]) and made once per pipeline (a one-shot run: per dispatch); each
//! launch rewrites its header only. Reading back copies the header and the first
//! [`FIRST_READ`] data words with the error buffer, and the rest of what was used, if any,
//! in a second copy.

use spirthon_ir::{ErrorBuffer, PrintBuffer};

use crate::{Gpu, Interface, RunError};

/// Data words of the print buffer read back with the first copy.
const FIRST_READ: u64 = 16 * 1024;

/// What a launch's hidden buffers held after it ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reported {
    /// A checked launch's error buffer, as words.
    pub errors: Option<Vec<u32>>,
    /// A printing launch's print buffer: its header and the data words it used.
    pub prints: Option<Vec<u32>>,
}

/// A launch's hidden buffers and the bind group of set 1 over them.
pub(crate) struct Hidden {
    errors: Option<wgpu::Buffer>,
    prints: Option<wgpu::Buffer>,
    pub(crate) group: wgpu::BindGroup,
}

/// Staging buffers the first copy goes to.
pub(crate) struct Staged {
    errors: Option<wgpu::Buffer>,
    prints: Option<(wgpu::Buffer, u64)>,
}

fn storage_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: false },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Gpu {
    /// The layout of bind group 1, for an interface that has a hidden buffer.
    pub(crate) fn hidden_layout(&self, i: &Interface) -> Option<wgpu::BindGroupLayout> {
        let mut entries = Vec::new();
        if i.checked {
            entries.push(storage_entry(ErrorBuffer::BINDING));
        }
        if i.prints {
            entries.push(storage_entry(PrintBuffer::BINDING));
        }
        (!entries.is_empty()).then(|| {
            self.device
                .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: Some("spirthon_hidden"),
                    entries: &entries,
                })
        })
    }

    /// A print buffer (its header written before each launch).
    pub(crate) fn print_buffer(&self) -> Result<wgpu::Buffer, RunError> {
        let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        self.buffer(None, PrintBuffer::SIZE, usage)
    }

    /// The hidden buffers of one launch: a new error buffer, and `prints` with its header
    /// reset.
    pub(crate) fn hidden(
        &self,
        layout: &wgpu::BindGroupLayout,
        i: &Interface,
        prints: Option<&wgpu::Buffer>,
    ) -> Result<Hidden, RunError> {
        let errors = match i.checked {
            true => {
                let words: Vec<u8> = ErrorBuffer::initial()
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .collect();
                let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
                Some(self.buffer(Some(&words), words.len() as u64, usage)?)
            }
            false => None,
        };
        if let Some(p) = prints {
            let header: Vec<u8> = PrintBuffer::initial_header()
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            self.queue.write_buffer(p, 0, &header);
        }
        let mut entries = Vec::new();
        if let Some(e) = &errors {
            entries.push(wgpu::BindGroupEntry {
                binding: ErrorBuffer::BINDING,
                resource: e.as_entire_binding(),
            });
        }
        if let Some(p) = prints {
            entries.push(wgpu::BindGroupEntry {
                binding: PrintBuffer::BINDING,
                resource: p.as_entire_binding(),
            });
        }
        let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("spirthon_hidden"),
            layout,
            entries: &entries,
        });
        Ok(Hidden {
            errors,
            prints: prints.cloned(),
            group,
        })
    }

    /// Records the first copy of the hidden buffers, after the dispatch.
    pub(crate) fn stage_hidden(&self, encoder: &mut wgpu::CommandEncoder, h: &Hidden) -> Staged {
        let errors = h.errors.as_ref().map(|b| {
            let r = self.staging(b.size());
            encoder.copy_buffer_to_buffer(b, 0, &r, 0, b.size());
            r
        });
        let prints = h.prints.as_ref().map(|b| {
            let len = (4 * (PrintBuffer::HEADER as u64 + FIRST_READ)).min(b.size());
            let r = self.staging(len);
            encoder.copy_buffer_to_buffer(b, 0, &r, 0, len);
            (r, len)
        });
        Staged { errors, prints }
    }

    /// The hidden buffers' words, once the submission that staged them has run.
    pub(crate) fn collect_hidden(&self, h: &Hidden, s: Staged) -> Result<Reported, RunError> {
        let mut out = Reported::default();
        if let Some(r) = s.errors {
            let bytes = self.read_back(&[ErrorBuffer::SIZE as u64], &[r])?.remove(0);
            out.errors = Some(crate::le_words(&bytes));
        }
        if let (Some((r, len)), Some(buf)) = (s.prints, &h.prints) {
            let mut words = crate::le_words(&self.read_back(&[len], &[r])?.remove(0));
            let header = PrintBuffer::HEADER as usize;
            let used =
                (words.first().copied().unwrap_or(0) as u64).min(PrintBuffer::CAPACITY as u64);
            let have = (words.len() - header) as u64;
            if used > have {
                // The rest of what was used, in a second copy.
                let (from, n) = (4 * (header as u64 + have), 4 * (used - have));
                let r = self.staging(n);
                let mut encoder = self.device.create_command_encoder(&Default::default());
                encoder.copy_buffer_to_buffer(buf, from, &r, 0, n);
                self.queue.submit([encoder.finish()]);
                let more = self.read_back(&[n], &[r])?.remove(0);
                words.extend(crate::le_words(&more));
            }
            words.truncate(header + used as usize);
            out.prints = Some(words);
        }
        Ok(out)
    }
}
