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
//! A job that panics (a driver bug) fails its own caller, not the thread: later jobs run.
//! Work a caller gave up on still runs (the device cannot take it back); later jobs wait
//! for it. Dropping the [`DeviceThread`] ends the thread after its queued jobs and waits
//! for that (at most [`DROP_WAIT`]): the device is then released by the dropping thread, not
//! by the device's thread while the process goes on to exit (NVIDIA's driver tears itself
//! down at exit, and a device destroyed concurrently with that crashed the process with
//! "free(): invalid pointer").

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::{Gpu, RunError};

type Job = Box<dyn FnOnce(&Gpu) + Send>;

/// How long dropping a [`DeviceThread`] waits for its thread to end (a kernel that never
/// ends keeps it; the process may still exit).
pub const DROP_WAIT: Duration = Duration::from_secs(5);

/// A [`Gpu`] with the thread that runs its operations.
pub struct DeviceThread {
    gpu: Arc<Gpu>,
    jobs: Mutex<Option<Sender<Job>>>,
    /// Told when the thread has ended (and dropped its handle on the device).
    ended: Mutex<Receiver<()>>,
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
            ended: Mutex::new(ended),
        })
    }

    /// The device, for what needs no ordering (its name, its limits).
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// Queues `job`, whose result no one waits for (a write with nothing to report): it runs
    /// in its turn, and a later job's result comes after it.
    pub fn post(&self, job: impl FnOnce(&Gpu) + Send + 'static) {
        // The thread only ends when the sender goes, so a send cannot fail while `self`
        // lives; if it ever did, a waiting caller sees `Lost`.
        if let Some(tx) = self.jobs.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            let _ = tx.send(Box::new(job));
        }
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
