//! Running puzzle work off the async threads: a bounded number of jobs on Tokio's blocking
//! pool, each under a deadline and a cancellation flag.
//!
//! A job receives [`Limits`] carrying the deadline and the flag; the core search driver checks
//! both every [`pencilbox_core::search::CHECK_EVERY`] nodes. The flag is raised when the request
//! is dropped (the client went away) or when the job overruns its deadline by more than
//! [`GRACE`] (a step that does not look at the limits). The job's slot is held by the blocking
//! closure itself, so a job that overruns still counts against [`Jobs`]'s capacity until it
//! really ends.

use pencilbox_core::{Limits, PuzzleError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
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
    timeout: Duration,
    queue_wait: Duration,
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
        let capacity = capacity.max(1);
        Jobs {
            slots: Arc::new(Semaphore::new(capacity)),
            capacity,
            timeout,
            queue_wait,
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
        let permit = match tokio::time::timeout(self.queue_wait, self.slots.clone().acquire_owned()).await {
            Ok(Ok(p)) => p,
            // The semaphore is never closed; treat it like a full queue all the same.
            Ok(Err(_)) | Err(_) => return Err(JobError::Busy { jobs: self.capacity }),
        };
        let limit = timeout.map_or(self.timeout, |t| t.min(self.timeout));
        let cancel = Arc::new(AtomicBool::new(false));
        let _guard = CancelOnDrop(cancel.clone());
        let limits = Limits {
            deadline: Some(Instant::now() + limit),
            cancel: Some(cancel),
            ..Limits::default()
        };
        let handle = tokio::task::spawn_blocking(move || {
            let _slot = permit;
            work(limits)
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
