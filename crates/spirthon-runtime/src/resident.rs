//! Arrays and kernels that stay on the device between launches: what the Python library's
//! device arrays and repeated launches are made of.
//!
//! - A [`DeviceBuffer`] is a storage buffer that any array binding of any kernel can take.
//! - A [`Pipeline`] is one entry point compiled once, with its bind group layout and a
//!   uniform buffer of its own that every launch rewrites.
//! - [`Gpu::launch`] records one dispatch into the current batch (module `batch`) without
//!   waiting (a checked or printing launch, or one of several dispatches, is submitted at
//!   once, and the first two wait to read their error or print buffer back).
//!
//! Invariants: everything goes through the device's one queue, in call order, so a launch
//! sees the writes of every earlier launch and [`Gpu::write`], and [`Gpu::read`] returns the
//! contents after everything submitted before it. A buffer holds at least 4 bytes (a binding
//! needs them) and its length is rounded up to 4; [`DeviceBuffer::len`] is the length asked
//! for, which is what a kernel's `len()` sees only when it is a whole number of elements.

use std::sync::Mutex;

use crate::{Gpu, Interface, Layouts, Reported, RunError, Shader};

/// A storage buffer on the device (a handle: clones are the same buffer).
#[derive(Clone)]
pub struct DeviceBuffer {
    buf: wgpu::Buffer,
    len: u64,
}

impl DeviceBuffer {
    /// The length in bytes it was made with.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `data` can replace the contents: it has the buffer's length.
    pub fn fits(&self, data: &[u8]) -> Result<(), RunError> {
        if data.len() as u64 != self.len {
            return Err(RunError::Input(format!(
                "writing {} bytes to a device array of {} bytes",
                data.len(),
                self.len
            )));
        }
        Ok(())
    }
}

/// One entry point, ready to launch.
pub struct Pipeline {
    interface: Interface,
    /// The entry point's name, shared by the launches recorded of it.
    entry: std::sync::Arc<str>,
    workgroup_size: [u32; 3],
    layouts: Layouts,
    pipeline: wgpu::ComputePipeline,
    /// The ring of uniform blocks its launches write (`None` without a block).
    uniform: Option<Ring>,
    /// The print buffer of a kernel that prints, its header rewritten at every launch.
    prints: Option<wgpu::Buffer>,
    /// The bind group of the last launch and the arrays it binds: a loop of launches over
    /// the same device arrays creates it once (and those arrays live until a launch binds
    /// others).
    last_group: Mutex<Option<(Vec<wgpu::Buffer>, wgpu::BindGroup)>>,
}

impl Pipeline {
    pub fn interface(&self) -> &Interface {
        &self.interface
    }

    /// Whether a launch of it in `dispatches` dispatches is only recorded: it waits for
    /// nothing and reads nothing back.
    pub fn records(&self, dispatches: usize) -> bool {
        self.layouts.hidden.is_none() && dispatches == 1
    }
}

/// A pipeline's uniform blocks: [`crate::batch::RING_SLOTS`] slots of `stride` bytes, each
/// one launch's `size`-byte block, bound with a dynamic offset.
struct Ring {
    buf: wgpu::Buffer,
    size: u64,
    stride: u64,
    /// The batch generation of the slots taken, and the next free slot in it.
    next: Mutex<(u64, u32)>,
}

const STORAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_SRC)
    .union(wgpu::BufferUsages::COPY_DST);

impl Gpu {
    /// A zeroed buffer of `len` bytes.
    pub fn alloc(&self, len: u64) -> Result<DeviceBuffer, RunError> {
        self.check_size(len)?;
        Ok(DeviceBuffer {
            buf: self.buffer(None, len, STORAGE)?,
            len,
        })
    }

    /// A buffer holding `data`.
    pub fn upload(&self, data: &[u8]) -> Result<DeviceBuffer, RunError> {
        let len = data.len() as u64;
        self.check_size(len)?;
        Ok(DeviceBuffer {
            buf: self.buffer(Some(data), len, STORAGE)?,
            len,
        })
    }

    /// Replaces the contents of `b` with `data`, which has its length.
    pub fn write(&self, b: &DeviceBuffer, data: &[u8]) -> Result<(), RunError> {
        b.fits(data)?;
        // After every launch recorded before it (a queued write lands before the next
        // submission's commands); a failure of theirs is kept for the next call that reports
        // one (a write has no caller to report it, and is made all the same).
        self.flush_idle();
        self.write_padded(&b.buf, data);
        Ok(())
    }

    /// Copies the contents of `from` into `to` (of its length) on the device, after every
    /// launch recorded before it.
    pub fn copy(&self, from: &DeviceBuffer, to: &DeviceBuffer) -> Result<(), RunError> {
        if from.len != to.len {
            return Err(RunError::Input(format!(
                "copying a device array of {} bytes into one of {}",
                from.len, to.len
            )));
        }
        // As for a write: a failure of the launches before it is kept, the copy made.
        self.flush_idle();
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&from.buf, 0, &to.buf, 0, from.buf.size());
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// The contents of `b` once everything launched so far has run.
    pub fn read(&self, b: &DeviceBuffer) -> Result<Vec<u8>, RunError> {
        self.settle()?;
        // Batch by batch, so that a long wait shows its progress.
        self.drain(0)?;
        let staging = self.staging(b.buf.size());
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&b.buf, 0, &staging, 0, b.buf.size());
        self.queue.submit([encoder.finish()]);
        // Mapping waits for the copy, and so for everything submitted before it.
        Ok(self.read_back(&[b.len], &[staging])?.remove(0))
    }

    /// Waits until everything launched so far has run.
    pub fn finish(&self) -> Result<(), RunError> {
        self.settle()?;
        self.drain(0)?;
        self.wait()
    }

    /// Compiles `interface.entry` of `shader` for launches with a uniform block of
    /// `uniform_size` bytes.
    pub fn prepare(
        &self,
        shader: Shader<'_>,
        interface: Interface,
        workgroup_size: [u32; 3],
        uniform_size: u64,
    ) -> Result<Pipeline, RunError> {
        let (layouts, pipeline) = self.pipeline(shader, &interface)?;
        let uniform = if interface.uniform {
            let size = uniform_size.max(16).next_multiple_of(16);
            let align = u64::from(self.device.limits().min_uniform_buffer_offset_alignment);
            let stride = size.next_multiple_of(align.max(16));
            let slots = u64::from(crate::batch::RING_SLOTS);
            Some(Ring {
                buf: self.buffer(None, stride * slots, wgpu::BufferUsages::UNIFORM)?,
                size,
                stride,
                next: Mutex::new((0, 0)),
            })
        } else {
            None
        };
        let prints = match interface.prints {
            true => Some(self.print_buffer()?),
            false => None,
        };
        Ok(Pipeline {
            entry: interface.entry.as_str().into(),
            interface,
            workgroup_size,
            layouts,
            pipeline,
            uniform,
            prints,
            last_group: Mutex::new(None),
        })
    }

    /// Launches `p` over `threads` with the uniform block `uniform` and `arrays` in the order
    /// of the interface's bindings. It is recorded into the current batch (module `batch`),
    /// not waited for, unless the pipeline is checked or prints (it then returns the error
    /// or print buffer's words after the run) or the launch takes several dispatches (it is
    /// submitted at once).
    pub fn launch(
        &self,
        p: &Pipeline,
        uniform: &[u8],
        arrays: &[&DeviceBuffer],
        threads: [u32; 3],
        site: Option<&str>,
    ) -> Result<Reported, RunError> {
        let entry = &p.interface.entry;
        let chunks = self.check_launch(p, uniform, arrays.len(), threads)?;
        self.take_failure()?;
        if p.records(chunks.len()) {
            return self.record_launch(p, uniform, arrays, chunks[0].1, site);
        }
        // Submitted at once, after every launch recorded before it, with slot 0 of the ring.
        self.flush()?;
        if let Some(r) = &p.uniform {
            self.write_padded(&r.buf, uniform);
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        // A launch of several dispatches: a uniform block and bind group for each, with its
        // `group_base` (the pipeline's own serve launches of one).
        let groups = match &p.uniform {
            Some(r) if chunks.len() > 1 => {
                let bindings: Vec<u32> = p.interface.arrays.iter().map(|a| a.0).collect();
                let storage: Vec<&wgpu::Buffer> = arrays.iter().map(|a| &a.buf).collect();
                let (size, layout) = (r.size as usize, &p.layouts.main);
                self.chunk_groups(&chunks, uniform, size, &bindings, layout, &storage)?
            }
            _ => vec![self.cached_group(p, arrays)],
        };
        let offset = p.uniform.as_ref().map(|_| 0);
        let dispatches = crate::dispatches(&chunks, &groups, offset);
        let hidden = match &p.layouts.hidden {
            Some(l) => Some(self.hidden(l, &p.interface, p.prints.as_ref())?),
            None => None,
        };
        let mut encoder = self.device.create_command_encoder(&Default::default());
        crate::encode_pass(
            &mut encoder,
            &p.pipeline,
            &dispatches,
            hidden.as_ref().map(|h| &h.group),
            1,
        );
        let staged = hidden.as_ref().map(|h| self.stage_hidden(&mut encoder, h));
        self.queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RunError::Device(format!(
                "the device rejected the launch of `{entry}`: {e}"
            )));
        }
        match (hidden, staged) {
            (Some(h), Some(s)) => self.collect_hidden(&h, s),
            _ => Ok(Reported::default()),
        }
    }

    /// The floor a loop of launches is measured against: `times` launches of `p` as
    /// [`Gpu::launch`] would record them (same pipeline, bind group and uniform bytes),
    /// recorded into one command buffer and submitted once; the wall time from the first
    /// recording to completion, after everything launched before has run. For benchmarks.
    pub fn time_launches(
        &self,
        p: &Pipeline,
        uniform: &[u8],
        arrays: &[&DeviceBuffer],
        threads: [u32; 3],
        times: u32,
    ) -> Result<std::time::Duration, RunError> {
        let chunks = self.check_launch(p, uniform, arrays.len(), threads)?;
        if !p.records(chunks.len()) {
            return Err(RunError::Input(format!(
                "kernel `{}`: only launches that are recorded (one dispatch, not checked, not printing) are timed",
                p.interface.entry
            )));
        }
        self.finish()?;
        if let Some(r) = &p.uniform {
            self.write_padded(&r.buf, uniform);
        }
        let group = self.cached_group(p, arrays);
        let offset = p.uniform.as_ref().map(|_| 0);
        let dispatches = crate::dispatches(&chunks, std::slice::from_ref(&group), offset);
        let t = std::time::Instant::now();
        let mut encoder = self.device.create_command_encoder(&Default::default());
        crate::encode_pass(&mut encoder, &p.pipeline, &dispatches, None, times);
        self.queue.submit([encoder.finish()]);
        self.wait()?;
        Ok(t.elapsed())
    }

    /// The dispatches of a launch of `p` with `uniform` and `arrays` arrays over `threads`,
    /// or why it cannot run: what [`Gpu::launch`] checks before it records anything.
    pub fn check_launch(
        &self,
        p: &Pipeline,
        uniform: &[u8],
        arrays: usize,
        threads: [u32; 3],
    ) -> Result<Vec<crate::Chunk>, RunError> {
        let entry = &p.interface.entry;
        if arrays != p.interface.arrays.len() {
            return Err(RunError::Input(format!(
                "kernel `{entry}` binds {} arrays, {arrays} given",
                p.interface.arrays.len(),
            )));
        }
        if let Some(r) = &p.uniform {
            if uniform.len() as u64 > r.size {
                return Err(RunError::Input(format!(
                    "kernel `{entry}`: a uniform block of {} bytes, more than its {}",
                    uniform.len(),
                    r.size
                )));
            }
        }
        self.chunks(threads, p.workgroup_size)
    }

    /// Records a launch of one dispatch of `groups` workgroups into the current batch, its
    /// uniform block in the next free slot of the ring.
    fn record_launch(
        &self,
        p: &Pipeline,
        uniform: &[u8],
        arrays: &[&DeviceBuffer],
        groups: [u32; 3],
        site: Option<&str>,
    ) -> Result<Reported, RunError> {
        let write = match &p.uniform {
            Some(r) => {
                let slot = self.take_slot(r)?;
                let mut bytes = uniform.to_vec();
                bytes.resize(r.size as usize, 0);
                Some((r.buf.clone(), slot * r.stride, bytes))
            }
            None => None,
        };
        let offset = write.as_ref().map(|w| w.1 as u32);
        let group = self.cached_group(p, arrays);
        let launch = crate::batch::Recorded {
            entry: p.entry.clone(),
            site: site.map(str::to_string),
            pipeline: p.pipeline.clone(),
            group,
            offset,
            groups,
        };
        self.record(launch, write)?;
        Ok(Reported::default())
    }

    /// The next free slot of ring `r` in the current batch (submitting the batch when the
    /// ring has none).
    fn take_slot(&self, r: &Ring) -> Result<u64, RunError> {
        let mut next = r.next.lock().unwrap_or_else(|e| e.into_inner());
        let mut generation = self.generation();
        if next.0 == generation && next.1 >= crate::batch::RING_SLOTS {
            self.flush()?;
            generation = self.generation();
        }
        if next.0 != generation {
            *next = (generation, 0);
        }
        let slot = next.1;
        next.1 += 1;
        Ok(u64::from(slot))
    }

    /// The bind group of `p` over `arrays`: the last launch's when it bound the same ones.
    fn cached_group(&self, p: &Pipeline, arrays: &[&DeviceBuffer]) -> wgpu::BindGroup {
        let mut last = p.last_group.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((bufs, group)) = last.as_ref() {
            if bufs.len() == arrays.len() && bufs.iter().zip(arrays).all(|(a, b)| *a == b.buf) {
                return group.clone();
            }
        }
        let bindings: Vec<u32> = p.interface.arrays.iter().map(|a| a.0).collect();
        let storage: Vec<&wgpu::Buffer> = arrays.iter().map(|a| &a.buf).collect();
        let group = self.bind_group(
            &bindings,
            &p.layouts.main,
            p.uniform.as_ref().map(|r| (&r.buf, r.size)),
            &storage,
        );
        *last = Some((
            arrays.iter().map(|a| a.buf.clone()).collect(),
            group.clone(),
        ));
        group
    }

    /// An array of `len` bytes fits one binding of this device.
    fn check_size(&self, len: u64) -> Result<(), RunError> {
        let max = self.device.limits().max_storage_buffer_binding_size;
        if len > max {
            return Err(RunError::Input(format!(
                "a device array of {len} bytes is more than this device binds ({max})"
            )));
        }
        Ok(())
    }
}
