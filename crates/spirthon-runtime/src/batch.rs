//! Batched launches: the launches of the Python library are recorded into one command
//! encoder and submitted together, so that a loop of small launches costs one submission
//! per batch, not one per launch (a driver may wait in each submission for the one before:
//! lavapipe does).
//!
//! A batch is submitted ([`Gpu::flush`]) before anything that must see its work or must not
//! overtake it: a read, a write of a buffer (a queued write lands before the next
//! submission's commands, so it would overtake recorded launches), a wait, a launch that
//! reads its hidden buffers back (checked, printing) or takes several dispatches; when it
//! holds [`MAX_BATCH`] dispatches; and when the device's thread has nothing else to do.
//!
//! A batch is one compute pass: its dispatches are ordered as recorded (the pass orders
//! their accesses to buffers as separate passes would).
//!
//! Each launch keeps its own scalars: a pipeline's uniform block is a ring of
//! [`RING_SLOTS`] slots bound with a dynamic offset, a launch's bytes go into the next free
//! slot, and a batch that has used every slot of a pipeline is submitted first. The bytes
//! of a batch are written to each ring at once, when it is submitted (the write lands before
//! the batch's commands, after those submitted before); the slots of a submitted batch are
//! free again.
//!
//! Errors: the device's validation errors of a batch are reported by the flush that
//! submits it, naming its launches; a flush with no caller (the thread went idle) keeps the
//! error for the next operation that reports ([`Gpu::take_failure`]).

use std::sync::Mutex;

use crate::{Gpu, RunError};

/// Dispatches in a batch before it is submitted.
pub const MAX_BATCH: u32 = 64;
/// Uniform blocks in a pipeline's ring.
pub const RING_SLOTS: u32 = 64;

/// The launches recorded and not yet submitted.
#[derive(Default)]
pub(crate) struct Batch {
    encoder: Option<wgpu::CommandEncoder>,
    /// The batch's compute pass, open on `encoder`.
    pass: Option<wgpu::ComputePass<'static>>,
    /// The uniform bytes of its launches: per ring, the offset and bytes of each.
    writes: Vec<(wgpu::Buffer, u64, Vec<u8>)>,
    /// Each recorded launch's kernel, for a message.
    kernels: Vec<String>,
    /// Counts the submitted batches: a pipeline's ring slots taken in an older batch are
    /// free.
    pub(crate) generation: u64,
}

/// The state of batches on a device.
#[derive(Default)]
pub(crate) struct Batches {
    pub(crate) batch: Mutex<Batch>,
    /// A failure of a batch submitted with no caller to report it.
    failed: Mutex<Option<String>>,
}

impl Gpu {
    /// Records into the current batch's pass (begun if there is none) with `record`, as
    /// launch `kernel` whose uniform block is `write` (a ring, the offset, the bytes);
    /// submits the batch when it is full.
    pub(crate) fn record(
        &self,
        kernel: &str,
        write: Option<(wgpu::Buffer, u64, Vec<u8>)>,
        record: impl FnOnce(&mut wgpu::ComputePass<'static>),
    ) -> Result<(), RunError> {
        let full = {
            let mut b = self.batches.batch.lock().unwrap_or_else(|e| e.into_inner());
            if b.encoder.is_none() {
                let mut encoder = self.device.create_command_encoder(&Default::default());
                let pass = encoder
                    .begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: None,
                        timestamp_writes: None,
                    })
                    .forget_lifetime();
                b.encoder = Some(encoder);
                b.pass = Some(pass);
            }
            if let Some(pass) = b.pass.as_mut() {
                record(pass);
            }
            b.writes.extend(write);
            b.kernels.push(kernel.to_string());
            b.kernels.len() as u32 >= MAX_BATCH
        };
        if full {
            self.flush()?;
        }
        Ok(())
    }

    /// The current batch's generation (see [`Batch::generation`]).
    pub(crate) fn generation(&self) -> u64 {
        self.batches
            .batch
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .generation
    }

    /// Submits the recorded launches, if any; the device's error, naming them.
    pub fn flush(&self) -> Result<(), RunError> {
        let (encoder, writes, kernels) = {
            let mut b = self.batches.batch.lock().unwrap_or_else(|e| e.into_inner());
            // The pass ends before its encoder does.
            drop(b.pass.take());
            let Some(encoder) = b.encoder.take() else {
                return Ok(());
            };
            b.generation += 1;
            (
                encoder,
                std::mem::take(&mut b.writes),
                std::mem::take(&mut b.kernels),
            )
        };
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        self.write_rings(writes);
        self.queue.submit([encoder.finish()]);
        match pollster::block_on(scope.pop()) {
            None => Ok(()),
            Some(e) => Err(RunError::Device(format!(
                "the device rejected {}: {e}",
                launches(&kernels)
            ))),
        }
    }

    /// One write per ring of the uniform blocks of a batch (its slots are taken in order
    /// from the first, so each ring's are one span).
    fn write_rings(&self, mut writes: Vec<(wgpu::Buffer, u64, Vec<u8>)>) {
        while let Some((buf, _, _)) = writes.first().cloned() {
            let (mine, rest): (Vec<_>, Vec<_>) = writes.into_iter().partition(|w| w.0 == buf);
            writes = rest;
            let start = mine.iter().map(|w| w.1).min().unwrap_or(0);
            let end = mine
                .iter()
                .map(|w| w.1 + w.2.len() as u64)
                .max()
                .unwrap_or(0);
            let mut image = vec![0u8; (end - start) as usize];
            for (_, at, bytes) in &mine {
                let from = (at - start) as usize;
                image[from..from + bytes.len()].copy_from_slice(bytes);
            }
            self.queue.write_buffer(&buf, start, &image);
        }
    }

    /// [`Gpu::flush`] with no caller: a failure waits for [`Gpu::take_failure`].
    pub fn flush_idle(&self) {
        if let Err(e) = self.flush() {
            self.keep_failure(e);
        }
    }

    /// Keeps the failure of work no caller waits for, for [`Gpu::take_failure`] (the first
    /// one, when several fail before it is seen).
    pub fn keep_failure(&self, e: RunError) {
        let mut f = self
            .batches
            .failed
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        f.get_or_insert(e.to_string());
    }

    /// A failure of an earlier batch that no caller has seen yet, as an error.
    pub fn take_failure(&self) -> Result<(), RunError> {
        let f = self
            .batches
            .failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        match f {
            Some(m) => Err(RunError::Device(format!("an earlier launch failed: {m}"))),
            None => Ok(()),
        }
    }

    /// [`Gpu::take_failure`], then [`Gpu::flush`]: what an operation that must see every
    /// launch before it does first.
    pub(crate) fn settle(&self) -> Result<(), RunError> {
        self.take_failure()?;
        self.flush()
    }
}

/// `the launches of `a`, `b` (3)` for a message.
fn launches(kernels: &[String]) -> String {
    let mut names: Vec<&str> = kernels.iter().map(String::as_str).collect();
    names.dedup();
    let shown: Vec<String> = names.iter().take(4).map(|n| format!("`{n}`")).collect();
    let more = if names.len() > 4 { ", ..." } else { "" };
    match kernels.len() {
        1 => format!("the launch of {}", shown.join(", ")),
        n => format!("a batch of {n} launches (of {}{more})", shown.join(", ")),
    }
}
