//! A device's own thread: every operation on a [`Gpu`] of the Python library runs there, one
//! at a time, in the order the operations were asked for, and the caller waits for its
//! result in slices, so that it can give up.
//!
//! Why a thread: a driver may block inside a submission until earlier work finishes (lavapipe
//! does, in `vkQueueSubmit`), and a kernel may run for seconds or forever. A caller blocked
//! there could neither be interrupted (Ctrl-C) nor time out; a caller waiting on a channel
//! can ([`Pending::wait`]). Why one thread for all operations: order. A write to a buffer
//! must not overtake a launch asked for before it, and a launch's uniform bytes and its
//! submission must not interleave with another launch's (two Python threads launching one
//! kernel each got the other's scalars when the uniform write was staged on one thread and
//! the submission made on another).
//!
//! When no job is queued, the thread submits the launches recorded so far (module `batch`):
//! a loop of launches is recorded in batches as fast as it asks, and nothing recorded waits
//! for a later call.
//!
//! The queue is bounded: a caller posting work with [`MAX_QUEUED`] jobs (or
//! [`MAX_QUEUED_BYTES`] of data) queued waits first ([`DeviceThread::wait_for_room`]), so a
//! loop of launches runs at the device's pace, not at Python's, and memory does not grow with
//! it. [`DeviceThread::progress`] counts the jobs done and the batches the device completed:
//! a caller's time limit is a limit on the time without progress, not on the queue's length.
//!
//! A job that panics (a driver bug) fails its own caller, not the thread: later jobs run.
//! Work a caller gave up on still runs (the device cannot take it back); later jobs wait
//! for it. Dropping the [`DeviceThread`] ends the thread after its queued jobs and waits
//! for that (at most [`DROP_WAIT`]): the device is then released by the dropping thread, not
//! by the device's thread while the process goes on to exit (NVIDIA's driver tears itself
//! down at exit, and a device destroyed concurrently with that crashed the process with
//! "free(): invalid pointer").

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::{Gpu, RunError};

type Job = Box<dyn FnOnce(&Gpu) + Send>;

/// The most jobs queued before a caller posting another waits ([`DeviceThread::wait_for_room`]):
/// 16 batches of launches (`batch::MAX_BATCH`).
pub const MAX_QUEUED: usize = 1024;
/// The most bytes of data (uploads, writes) queued before a caller posting more waits.
pub const MAX_QUEUED_BYTES: usize = 256 << 20;

/// How long dropping a [`DeviceThread`] waits for its thread to end (a kernel that never
/// ends keeps it; the process may still exit).
pub const DROP_WAIT: Duration = Duration::from_secs(5);

/// A [`Gpu`] with the thread that runs its operations.
pub struct DeviceThread {
    gpu: Arc<Gpu>,
    jobs: Mutex<Option<Sender<Job>>>,
    queue: Arc<Queue>,
    /// Told when the thread has ended (and dropped its handle on the device).
    ended: Mutex<Receiver<()>>,
}

/// What the queue holds, and the jobs done, shared with the device's thread.
#[derive(Default)]
struct Queue {
    /// Jobs posted and not yet done.
    jobs: AtomicUsize,
    /// The bytes of data they carry.
    bytes: AtomicUsize,
    /// Jobs done.
    done: AtomicU64,
    /// Callers waiting for room, and what wakes them.
    waiting: AtomicUsize,
    room: (Mutex<()>, Condvar),
}

impl Queue {
    fn has_room(&self) -> bool {
        self.jobs.load(Ordering::SeqCst) < MAX_QUEUED
            && self.bytes.load(Ordering::SeqCst) < MAX_QUEUED_BYTES
    }

    /// A job of `bytes` is done.
    fn finished(&self, bytes: usize) {
        self.bytes.fetch_sub(bytes, Ordering::SeqCst);
        self.jobs.fetch_sub(1, Ordering::SeqCst);
        self.done.fetch_add(1, Ordering::SeqCst);
        if self.waiting.load(Ordering::SeqCst) > 0 {
            let _held = self.room.0.lock().unwrap_or_else(|e| e.into_inner());
            self.room.1.notify_all();
        }
    }
}

/// A job's result, not yet there.
pub struct Pending<T> {
    rx: Receiver<Result<T, RunError>>,
}

/// Why a wait ended without a result.
#[derive(Debug, PartialEq, Eq)]
pub enum Waited {
    /// The slice passed; the job is still queued or running.
    NotYet,
    /// The job ended without a result: it panicked (a bug in the driver or here).
    Lost,
}

impl DeviceThread {
    /// Starts the thread of `gpu`.
    pub fn start(gpu: Gpu) -> Result<DeviceThread, RunError> {
        let gpu = Arc::new(gpu);
        let (tx, rx) = mpsc::channel::<Job>();
        let on_thread = Arc::clone(&gpu);
        let queue = Arc::new(Queue::default());
        let (done, ended) = mpsc::channel();
        std::thread::Builder::new()
            .name("spirthon-device".into())
            .spawn(move || {
                serve(&on_thread, &rx);
                drop(on_thread);
                let _ = done.send(());
            })
            .map_err(|e| RunError::Device(format!("cannot start the device thread: {e}")))?;
        Ok(DeviceThread {
            gpu,
            jobs: Mutex::new(Some(tx)),
            queue,
            ended: Mutex::new(ended),
        })
    }

    /// The device, for what needs no ordering (its name, its limits).
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// Queues `job`, whose result no one waits for (a write with nothing to report): it runs
    /// in its turn, and a later job's result comes after it. It does not wait for room (see
    /// [`DeviceThread::wait_for_room`]).
    pub fn post(&self, job: impl FnOnce(&Gpu) + Send + 'static) {
        self.post_data(0, job);
    }

    /// [`DeviceThread::post`] of a job that carries `bytes` of data.
    pub fn post_data(&self, bytes: usize, job: impl FnOnce(&Gpu) + Send + 'static) {
        let queue = Arc::clone(&self.queue);
        queue.jobs.fetch_add(1, Ordering::SeqCst);
        queue.bytes.fetch_add(bytes, Ordering::SeqCst);
        let job: Job = Box::new(move |gpu| {
            // Counted done even when it panics.
            struct Done(Arc<Queue>, usize);
            impl Drop for Done {
                fn drop(&mut self) {
                    self.0.finished(self.1);
                }
            }
            let _done = Done(queue, bytes);
            job(gpu);
        });
        // The thread only ends when the sender goes, so a send cannot fail while `self`
        // lives; if it ever did, a waiting caller sees `Lost`.
        if let Some(tx) = self.jobs.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            let _ = tx.send(job);
        }
    }

    /// Whether the queue has room for another job: fewer than [`MAX_QUEUED`] jobs and
    /// [`MAX_QUEUED_BYTES`] queued.
    pub fn has_room(&self) -> bool {
        self.queue.has_room()
    }

    /// Waits at most `slice` for the queue to have room; whether it has.
    pub fn wait_for_room(&self, slice: Duration) -> bool {
        let q = &self.queue;
        if q.has_room() {
            return true;
        }
        q.waiting.fetch_add(1, Ordering::SeqCst);
        let held = q.room.0.lock().unwrap_or_else(|e| e.into_inner());
        // Looked at again under the lock: a job finishing now notifies after this wait begins.
        if !q.has_room() {
            let _ = q.room.1.wait_timeout(held, slice);
        }
        q.waiting.fetch_sub(1, Ordering::SeqCst);
        q.has_room()
    }

    /// The jobs queued and not yet done.
    pub fn queued(&self) -> usize {
        self.queue.jobs.load(Ordering::SeqCst)
    }

    /// A count that grows while the device works: jobs done, and batches the device has
    /// completed ([`Gpu::completed`]). Unchanged for a while, the device is stuck (a long
    /// kernel, or one that never ends).
    pub fn progress(&self) -> u64 {
        self.queue.done.load(Ordering::SeqCst) + self.gpu.completed()
    }

    /// Queues `job`; its result comes through the [`Pending`].
    pub fn submit<T: Send + 'static>(
        &self,
        job: impl FnOnce(&Gpu) -> Result<T, RunError> + Send + 'static,
    ) -> Pending<T> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.post(move |gpu| {
            let _ = tx.send(job(gpu));
        });
        Pending { rx }
    }
}

/// The device thread's loop: each job in turn, and the recorded launches submitted whenever
/// none is queued; until the [`DeviceThread`] is dropped.
fn serve(gpu: &Gpu, rx: &Receiver<Job>) {
    loop {
        let job = match rx.try_recv() {
            Ok(job) => job,
            Err(e) => {
                // Idle (or done): submit what is recorded.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| gpu.flush_idle()));
                match (e, rx.recv()) {
                    (TryRecvError::Empty, Ok(job)) => job,
                    _ => return,
                }
            }
        };
        // A panicking job drops its result sender: its caller sees `Lost`.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(gpu)));
    }
}

impl Drop for DeviceThread {
    fn drop(&mut self) {
        // The thread ends once its queue is empty and the sender is gone.
        drop(self.jobs.lock().unwrap_or_else(|e| e.into_inner()).take());
        let ended = self.ended.lock().unwrap_or_else(|e| e.into_inner());
        let _ = ended.recv_timeout(DROP_WAIT);
    }
}

impl<T> Pending<T> {
    /// Waits at most `slice` for the result.
    pub fn wait(&self, slice: Duration) -> Result<Result<T, RunError>, Waited> {
        match self.rx.recv_timeout(slice) {
            Ok(r) => Ok(r),
            Err(RecvTimeoutError::Timeout) => Err(Waited::NotYet),
            Err(RecvTimeoutError::Disconnected) => Err(Waited::Lost),
        }
    }
}
