//! Independent jobs on every core: one pool of scoped threads, each taking the next job
//! until none is left. A leaf, so the sitemap writer and the merge share it.

/// `work` done on each job, on one thread per core (at most one per job); the results
/// in the jobs' order.
pub fn each<J: Sync, R: Send>(jobs: &[J], work: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<R>>> = jobs.iter().map(|_| Default::default()).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { return };
                    let result = work(job);
                    *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                }
            });
        }
    });
    (slots.into_iter())
        .map(|slot| {
            let slot = slot.into_inner().unwrap_or_else(|e| e.into_inner());
            slot.expect("every job is done")
        })
        .collect()
}
