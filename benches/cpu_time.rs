//! Criterion's measurement of the benchmark thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`), shared by `compare.rs` and `arena.rs`: on a
//! shared machine, the time the thread waits for a core is not counted.

use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};

/// The CPU time the calling thread has used.
pub(crate) fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable `timespec`, and
    // `CLOCK_THREAD_CPUTIME_ID` is a clock every Linux kernel provides.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Criterion's measurement of the benchmark thread's CPU time: on a
/// shared machine, the time the thread waits for a core is not counted.
pub(crate) struct CpuTime;

impl Measurement for CpuTime {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        thread_cpu_time()
    }

    fn end(&self, start: Duration) -> Duration {
        thread_cpu_time().saturating_sub(start)
    }

    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        // Durations are shown as wall time's are.
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}
