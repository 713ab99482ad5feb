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
//! At most [`MAX_IN_FLIGHT`] submitted batches are incomplete: before submitting another the
//! device's thread waits for the oldest (a driver that queues submissions without waiting,
//! as a GPU's does, would otherwise hold every batch a loop asked for). The batches the device
//! completed are counted ([`Gpu::completed`]): the progress a caller's time limit watches.
//!
//! Errors: the device's validation errors of a batch are reported by the flush that
//! submits it, naming the launch the device rejects (found by validating each launch again
//! on its own, without submitting it) and where it was launched, or every launch of the
//! batch when none is rejected on its own; a flush with no caller (the thread went idle)
//! keeps the error for the next operation that reports ([`Gpu::take_failure`]).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::{Gpu, RunError};

/// Dispatches in a batch before it is submitted.
pub const MAX_BATCH: u32 = 64;
/// Uniform blocks in a pipeline's ring.
pub const RING_SLOTS: u32 = 64;
/// Submitted batches the device may not yet have completed before the next one waits.
pub const MAX_IN_FLIGHT: usize = 8;

/// The launches recorded and not yet submitted.
#[derive(Default)]
pub(crate) struct Batch {
    encoder: Option<wgpu::CommandEncoder>,
    /// The batch's compute pass, open on `encoder`.
    pass: Option<wgpu::ComputePass<'static>>,
    /// The uniform bytes of its launches: per ring, the offset and bytes of each.
    writes: Vec<(wgpu::Buffer, u64, Vec<u8>)>,
    /// Each recorded launch, to name the one the device rejects.
    launches: Vec<Recorded>,
    /// Counts the submitted batches: a pipeline's ring slots taken in an older batch are
    /// free.
    pub(crate) generation: u64,
}

/// One recorded launch: what it binds and dispatches, and what names it in messages (its
/// kernel and where it was launched: `` `step` at sim.py:40 ``, formatted only for one).
pub(crate) struct Recorded {
    pub(crate) entry: std::sync::Arc<str>,
    pub(crate) site: Option<String>,
    pub(crate) pipeline: wgpu::ComputePipeline,
    pub(crate) group: wgpu::BindGroup,
    /// The dynamic offset of its uniform block in its ring.
    pub(crate) offset: Option<u32>,
    pub(crate) groups: [u32; 3],
}

impl Recorded {
    /// The launch in a message: `` `step` at sim.py:40 ``.
    fn name(&self) -> String {
        match &self.site {
            Some(at) => format!("`{}` at {at}", self.entry),
            None => format!("`{}`", self.entry),
        }
    }

    fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, self.offset.as_slice());
        let [x, y, z] = self.groups;
        pass.dispatch_workgroups(x, y, z);
    }
}

/// The state of batches on a device.
#[derive(Default)]
pub(crate) struct Batches {
    pub(crate) batch: Mutex<Batch>,
    /// A failure of a batch submitted with no caller to report it.
    failed: Mutex<Option<String>>,
    /// The submitted batches not yet seen completed, oldest first.
    in_flight: Mutex<VecDeque<wgpu::SubmissionIndex>>,
    /// The batches seen completed.
    completed: AtomicU64,
}

impl Gpu {
    /// Records `launch` into the current batch's pass (begun if there is none), its uniform
    /// block `write` (a ring, the offset, the bytes); submits the batch when it is full.
    pub(crate) fn record(
        &self,
        launch: Recorded,
        write: Option<(wgpu::Buffer, u64, Vec<u8>)>,
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
                launch.encode(pass);
            }
            b.writes.extend(write);
            b.launches.push(launch);
            b.launches.len() as u32 >= MAX_BATCH
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

    /// Submits the recorded launches, if any; the device's error, naming the launch it
    /// rejected.
    pub fn flush(&self) -> Result<(), RunError> {
        let (encoder, writes, launches) = {
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
                std::mem::take(&mut b.launches),
            )
        };
        self.drain(MAX_IN_FLIGHT - 1)?;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        self.write_rings(writes);
        let index = self.queue.submit([encoder.finish()]);
        let Some(e) = pollster::block_on(scope.pop()) else {
            self.lock_in_flight().push_back(index);
            return Ok(());
        };
        let n = launches.len();
        Err(RunError::Device(match self.rejected(&launches) {
            Some(k) if n > 1 => format!(
                "the device rejected the launch of {} (launch {} of a batch of {n}, none of which ran): {e}",
                launches[k].name(),
                k + 1
            ),
            _ => {
                let names: Vec<String> = launches.iter().map(Recorded::name).collect();
                format!("the device rejected {}: {e}", self::launches(&names))
            }
        }))
    }

    /// Waits, oldest first, until at most `keep` submitted batches are incomplete, counting
    /// each that completes ([`Gpu::completed`]).
    pub(crate) fn drain(&self, keep: usize) -> Result<(), RunError> {
        loop {
            let oldest = {
                let in_flight = self.lock_in_flight();
                match in_flight.front() {
                    Some(i) if in_flight.len() > keep => i.clone(),
                    _ => return Ok(()),
                }
            };
            self.device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(oldest),
                    timeout: None,
                })
                .map_err(|e| RunError::Device(format!("waiting for the device failed: {e}")))?;
            self.lock_in_flight().pop_front();
            self.batches.completed.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Whether the device has completed everything submitted to it (asked without waiting).
    pub fn idle(&self) -> bool {
        self.device
            .poll(wgpu::PollType::Poll)
            .is_ok_and(|s| s.is_queue_empty())
    }

    /// The batches the device has completed, counted when a wait sees them complete: a count
    /// that grows while a long wait for the device makes progress.
    pub fn completed(&self) -> u64 {
        self.batches.completed.load(Ordering::SeqCst)
    }

    fn lock_in_flight(&self) -> std::sync::MutexGuard<'_, VecDeque<wgpu::SubmissionIndex>> {
        self.batches
            .in_flight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The first of a rejected batch's `launches` that the device rejects on its own: each
    /// is recorded again into a command buffer of its own, which is validated and dropped,
    /// never submitted (nothing runs twice).
    fn rejected(&self, launches: &[Recorded]) -> Option<usize> {
        launches.iter().position(|l| {
            let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let mut encoder = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                l.encode(&mut pass);
            }
            drop(encoder.finish());
            pollster::block_on(scope.pop()).is_some()
        })
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

/// The launches of a batch for a message: `the launch of `step` at sim.py:40`, or
/// `a batch of 12 launches: `step` at sim.py:40 (11 times), `reset` at sim.py:44`: each
/// run of equal launches once, with its count, at most four runs.
fn launches(launches: &[String]) -> String {
    if let [one] = launches {
        return format!("the launch of {one}");
    }
    let mut runs: Vec<(&str, usize)> = Vec::new();
    for l in launches {
        match runs.last_mut() {
            Some((last, n)) if *last == l.as_str() => *n += 1,
            _ => runs.push((l, 1)),
        }
    }
    let shown: Vec<String> = runs
        .iter()
        .take(4)
        .map(|(l, n)| match n {
            1 => l.to_string(),
            n => format!("{l} ({n} times)"),
        })
        .collect();
    let more = if runs.len() > 4 { ", ..." } else { "" };
    format!(
        "a batch of {} launches: {}{more}",
        launches.len(),
        shown.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::launches;

    #[test]
    fn a_batch_names_its_launches_and_where_they_were_made() {
        let one = vec!["`step` at sim.py:40".to_string()];
        assert_eq!(launches(&one), "the launch of `step` at sim.py:40");
        let mut many = vec!["`step` at sim.py:40".to_string(); 11];
        many.push("`reset` at sim.py:44".into());
        assert_eq!(
            launches(&many),
            "a batch of 12 launches: `step` at sim.py:40 (11 times), `reset` at sim.py:44"
        );
        let runs: Vec<String> = (0..6).map(|k| format!("`k{k}`")).collect();
        assert_eq!(
            launches(&runs),
            "a batch of 6 launches: `k0`, `k1`, `k2`, `k3`, ..."
        );
    }
}
