//! Running puzzle work off the async threads: a bounded number of jobs on Tokio's blocking
//! pool, each under a deadline and a cancellation flag.
//!
//! Fairness: a job first takes one of its client's slots (at most [`Jobs::per_client`] jobs of
//! one client address run or wait for a global slot at once; the others queue behind them),
//! then one of the global slots, so one client looping on expensive requests cannot fill the
//! pool. Both waits together are bounded by the queue wait.
//!
//! A job receives [`Limits`] carrying the deadline and the flag; the core search driver checks
//! both every [`pencilbox_core::search::CHECK_EVERY`] nodes. The flag is raised when the request
//! is dropped (the client went away) or when the job overruns its deadline by more than
//! [`GRACE`] (a step that does not look at the limits). The job's slot is held by the blocking
//! closure itself, so a job that overruns still counts against [`Jobs`]'s capacity until it
//! really ends.

use pencilbox_core::{Limits, PuzzleError};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Extra time a job gets past its deadline before its request is answered without it.
pub const GRACE: Duration = Duration::from_secs(2);

/// Why a job gave no result.
#[derive(Debug)]
pub enum JobError {
    /// Every slot stayed busy for the whole queue wait.
    Busy {
        /// Slots.
        jobs: usize,
    },
    /// The client's own slots stayed busy for the whole queue wait.
    ClientBusy {
        /// Slots per client.
        per_client: usize,
    },
    /// The job ran past its deadline and the grace period.
    Overran {
        /// The time limit.
        limit: Duration,
    },
    /// The job panicked (a bug in a puzzle crate); the server goes on.
    Panicked,
    /// The puzzle code refused the input.
    Puzzle(PuzzleError),
}

/// A bounded pool of puzzle jobs.
#[derive(Debug)]
pub struct Jobs {
    slots: Arc<Semaphore>,
    capacity: usize,
    per_client: usize,
    /// Each client address's slots (entries of idle clients are dropped as jobs end).
    clients: Arc<Mutex<HashMap<IpAddr, Arc<Semaphore>>>>,
    timeout: Duration,
    queue_wait: Duration,
    /// Called (on the blocking pool) when a job ends and no other runs.
    on_idle: Option<fn()>,
}

/// A client's slot; drops the client's entry when no job of it is left.
struct ClientSlot {
    _permit: tokio::sync::OwnedSemaphorePermit,
    client: IpAddr,
    clients: Arc<Mutex<HashMap<IpAddr, Arc<Semaphore>>>>,
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut map = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        // The permit (dropped after this) holds one reference and the map another: a count of
        // 2 means no other job of this client runs or waits.
        if map.get(&self.client).is_some_and(|s| Arc::strong_count(s) <= 2) {
            map.remove(&self.client);
        }
    }
}

/// Raises a cancellation flag when dropped: when the request's future is dropped because the
/// client hung up, the search it started stops at its next check.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Jobs {
    /// A pool running at most `capacity` jobs, each limited to `timeout`; a request waits at
    /// most `queue_wait` for a slot.
    pub fn new(capacity: usize, timeout: Duration, queue_wait: Duration) -> Self {
        Self::with_per_client(capacity, capacity, timeout, queue_wait)
    }

    /// [`Jobs::new`] with at most `per_client` jobs of one client address at a time.
    pub fn with_per_client(capacity: usize, per_client: usize, timeout: Duration, queue_wait: Duration) -> Self {
        let capacity = capacity.max(1);
        Jobs {
            slots: Arc::new(Semaphore::new(capacity)),
            capacity,
            per_client: per_client.clamp(1, capacity),
            clients: Arc::new(Mutex::new(HashMap::new())),
            timeout,
            queue_wait,
            on_idle: None,
        }
    }

    /// Calls `f` on the blocking pool whenever a job ends and no other job runs (the server
    /// frees the families' caches there, [`pencilbox_registry::release_caches`]).
    pub fn with_on_idle(mut self, f: fn()) -> Self {
        self.on_idle = Some(f);
        self
    }

    /// Jobs of one client that may run at once.
    pub fn per_client(&self) -> usize {
        self.per_client
    }

    /// Takes one of `client`'s slots, then a global one, waiting at most the queue wait in all.
    async fn admit(&self, client: IpAddr) -> Result<(ClientSlot, tokio::sync::OwnedSemaphorePermit), JobError> {
        let started = tokio::time::Instant::now();
        let mine = {
            let mut map = self.clients.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(client)
                .or_insert_with(|| Arc::new(Semaphore::new(self.per_client)))
                .clone()
        };
        let permit = match tokio::time::timeout(self.queue_wait, mine.acquire_owned()).await {
            Ok(Ok(p)) => p,
            // Without a cap below the pool's size, the client's queue is the pool's.
            Ok(Err(_)) | Err(_) if self.per_client >= self.capacity => {
                return Err(JobError::Busy { jobs: self.capacity })
            }
            Ok(Err(_)) | Err(_) => {
                return Err(JobError::ClientBusy {
                    per_client: self.per_client,
                })
            }
        };
        let slot = ClientSlot {
            _permit: permit,
            client,
            clients: self.clients.clone(),
        };
        let left = self.queue_wait.saturating_sub(started.elapsed());
        match tokio::time::timeout(left, self.slots.clone().acquire_owned()).await {
            Ok(Ok(p)) => Ok((slot, p)),
            // The semaphore is never closed; treat it like a full queue all the same.
            Ok(Err(_)) | Err(_) => Err(JobError::Busy { jobs: self.capacity }),
        }
    }

    /// The time limit of one job.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Runs `work` on the blocking pool with limits (deadline = now + `timeout`, capped by the
    /// server's limit) and waits for it.
    pub async fn run<T, F>(&self, timeout: Option<Duration>, work: F) -> Result<T, JobError>
    where
        T: Send + 'static,
        F: FnOnce(Limits) -> Result<T, PuzzleError> + Send + 'static,
    {
        self.run_for(IpAddr::from([127, 0, 0, 1]), timeout, work).await
    }

    /// [`Jobs::run`] for a client address: at most [`Jobs::per_client`] of its jobs at a time.
    pub async fn run_for<T, F>(&self, client: IpAddr, timeout: Option<Duration>, work: F) -> Result<T, JobError>
    where
        T: Send + 'static,
        F: FnOnce(Limits) -> Result<T, PuzzleError> + Send + 'static,
    {
        let (client_slot, permit) = self.admit(client).await?;
        let limit = timeout.map_or(self.timeout, |t| t.min(self.timeout));
        let cancel = Arc::new(AtomicBool::new(false));
        let _guard = CancelOnDrop(cancel.clone());
        let limits = Limits {
            deadline: Some(Instant::now() + limit),
            cancel: Some(cancel),
            ..Limits::default()
        };
        let (slots, on_idle) = (self.slots.clone(), self.on_idle);
        let capacity = self.capacity;
        let handle = tokio::task::spawn_blocking(move || {
            let out = {
                let _slots = (permit, client_slot);
                work(limits)
            };
            // The job's slot is free now: the last job out frees the caches.
            if let Some(f) = on_idle.filter(|_| slots.available_permits() == capacity) {
                f();
            }
            out
        });
        match tokio::time::timeout(limit + GRACE, handle).await {
            Ok(Ok(Ok(v))) => Ok(v),
            Ok(Ok(Err(e))) => Err(JobError::Puzzle(e)),
            Ok(Err(_)) => Err(JobError::Panicked),
            Err(_) => Err(JobError::Overran { limit }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn a_job_sees_a_deadline_and_a_cancel_flag() {
        let jobs = Jobs::new(1, Duration::from_secs(5), Duration::from_secs(1));
        let got = runtime().block_on(jobs.run(Some(Duration::from_secs(1)), |l| {
            let d = l.deadline.expect("deadline");
            Ok((
                d > Instant::now(),
                d <= Instant::now() + Duration::from_secs(1),
                l.cancel.is_some(),
            ))
        }));
        assert_eq!(got.unwrap(), (true, true, true));
    }

    #[test]
    fn a_panicking_job_is_reported_and_the_pool_keeps_working() {
        let jobs = Jobs::new(1, Duration::from_secs(5), Duration::from_secs(1));
        let rt = runtime();
        let r: Result<(), _> = rt.block_on(jobs.run(None, |_| panic!("boom")));
        assert!(matches!(r, Err(JobError::Panicked)));
        assert_eq!(rt.block_on(jobs.run(None, |_| Ok(7))).unwrap(), 7);
    }

    #[test]
    fn a_job_that_ignores_its_deadline_is_answered_after_the_grace_period() {
        let jobs = Jobs::new(2, Duration::from_millis(50), Duration::from_secs(1));
        let rt = runtime();
        let r: Result<(), _> = rt.block_on(jobs.run(None, |l| {
            // Runs until the cancellation flag is raised by the request giving up.
            let flag = l.cancel.unwrap();
            let t0 = Instant::now();
            while !flag.load(Ordering::Relaxed) && t0.elapsed() < Duration::from_secs(30) {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(())
        }));
        assert!(matches!(r, Err(JobError::Overran { .. })));
    }

    #[test]
    fn one_client_cannot_take_more_than_its_slots_while_another_gets_one() {
        let jobs = Arc::new(Jobs::with_per_client(
            3,
            1,
            Duration::from_secs(5),
            Duration::from_millis(200),
        ));
        let rt = runtime();
        let greedy: IpAddr = [10, 0, 0, 1].into();
        let j2 = jobs.clone();
        let slow = rt.spawn(async move {
            j2.run_for(greedy, None, |_| {
                std::thread::sleep(Duration::from_millis(800));
                Ok(())
            })
            .await
        });
        std::thread::sleep(Duration::from_millis(100));
        // The greedy client's second job waits behind its first and gives up...
        let r = rt.block_on(jobs.run_for(greedy, None, |_| Ok(())));
        assert!(matches!(r, Err(JobError::ClientBusy { per_client: 1 })), "{r:?}");
        // ...while another client runs at once.
        let other: IpAddr = [10, 0, 0, 2].into();
        assert_eq!(rt.block_on(jobs.run_for(other, None, |_| Ok(5))).unwrap(), 5);
        assert!(rt.block_on(slow).unwrap().is_ok());
        // Idle clients leave no entry behind.
        assert!(jobs.clients.lock().unwrap().is_empty());
    }

    #[test]
    fn requests_wait_for_a_slot_and_give_up_with_busy() {
        let jobs = Arc::new(Jobs::new(1, Duration::from_secs(5), Duration::from_millis(100)));
        let rt = runtime();
        let j2 = jobs.clone();
        let slow = rt.spawn(async move {
            j2.run(None, |_| {
                std::thread::sleep(Duration::from_millis(600));
                Ok(())
            })
            .await
        });
        std::thread::sleep(Duration::from_millis(100));
        let r = rt.block_on(jobs.run(None, |_| Ok(())));
        assert!(matches!(r, Err(JobError::Busy { jobs: 1 })));
        assert!(rt.block_on(slow).unwrap().is_ok());
        assert!(rt.block_on(jobs.run(None, |_| Ok(()))).is_ok());
    }
}
