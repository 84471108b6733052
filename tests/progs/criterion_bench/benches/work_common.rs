// The benchmarks of tests/progs/criterion_bench: three of clearly different
// cost per invocation, timed by criterion's Bencher::iter (two) and
// Bencher::iter_custom (one, in a group). Included by work.rs (version A)
// and work_b.rs (version B), which set WORK_PCT.
//
// criterion 0.3's command line takes whole seconds; the tests want shorter
// runs, so the configuration comes from the environment (milliseconds),
// with short defaults: BS_CRIT_WARMUP_MS (200), BS_CRIT_MEASURE_MS (600).
// 10 samples, 1000 bootstrap resamples, no plots. Command-line options
// still override it.
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};

/// n rounds of a dependent multiply-add chain, plus WORK_PCT % more.
fn spin(n: u64) -> u64 {
    let n = n + n * WORK_PCT / 100;
    let mut x = 0u64;
    for i in 0..n {
        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
    }
    x
}

fn benches(c: &mut Criterion) {
    c.bench_function("spin_1k", |b| b.iter(|| spin(black_box(1_000))));
    c.bench_function("spin_20k", |b| b.iter(|| spin(black_box(20_000))));
    let mut g = c.benchmark_group("custom");
    g.bench_function("spin_5k", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(spin(black_box(5_000)));
            }
            start.elapsed()
        })
    });
    g.finish();
}

fn env_ms(name: &str, default: u64) -> Duration {
    let ms = std::env::var(name)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|&v| v > 0)
        .unwrap_or(default);
    Duration::from_millis(ms)
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(env_ms("BS_CRIT_WARMUP_MS", 200))
        .measurement_time(env_ms("BS_CRIT_MEASURE_MS", 600))
        .sample_size(10)
        .nresamples(1000)
        .without_plots()
}

criterion_group! {
    name = group;
    config = config();
    targets = benches
}
criterion_main!(group);
