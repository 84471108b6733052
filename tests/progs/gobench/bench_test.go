// Package gobench is the Go harness of benchscope's tests: unmodified
// testing.B benchmarks, built with `go test -c` (tests/tests.mk) and run by
// tests/kernel/test_go.c under `benchscope run --preset go` and `duet`.
//
// Benchmarks of clearly different cost (Small ~100 ns, Large ~10 us per
// invocation), one whose goroutine moves between OS threads (Migrate:
// GOMAXPROCS=2 and three goroutines competing for the two Ps, so Go's
// scheduler preempts the benchmark goroutine every 10 ms and resumes it on
// whichever thread has a P), one with set-up before b.ResetTimer (Setup),
// and one with sub-benchmarks (Sub, which Go does not measure itself); and
// two that test_go runs apart: Paused (its timer stopped for a clean-up)
// and Skipped (b.Skip in all runs but the first).
package gobench

import (
	"fmt"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

var sink uint64

// work does n rounds of a linear congruential generator (no memory traffic).
func work(n int) uint64 {
	x := uint64(n)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

func BenchmarkSmall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += work(100)
	}
}

func BenchmarkLarge(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += work(10000)
	}
}

func BenchmarkMigrate(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var stop int32
	// the competitors end when the benchmark function returns (deferred:
	// still inside Go's timed region, as for benchscope)
	defer atomic.StoreInt32(&stop, 1)
	for k := 0; k < 3; k++ {
		go func() {
			var s uint64
			for atomic.LoadInt32(&stop) == 0 {
				s += work(1000)
			}
			atomic.AddUint64(&sink, s)
		}()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += work(1000)
	}
}

func BenchmarkSetup(b *testing.B) {
	time.Sleep(5 * time.Millisecond) // not timed: b.ResetTimer below
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += work(1000)
	}
}

func BenchmarkSub(b *testing.B) {
	b.Run("fast", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += work(300)
		}
	})
	b.Run("slow", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += work(3000)
		}
	})
}

// BenchmarkParent computes for tens of milliseconds (work(20000000)) before
// its one sub-benchmark: time of a B that Go does not measure, during which a
// competitor on its CPU preempts it (tests/kernel/test_go.c).
func BenchmarkParent(b *testing.B) {
	sink += work(20000000)
	b.Run("child", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += work(300)
		}
	})
}

// BenchmarkResetBusy computes for tens of milliseconds before b.ResetTimer():
// time Go leaves out of the run, during which a competitor on its CPU
// preempts it (tests/kernel/test_go.c).
func BenchmarkResetBusy(b *testing.B) {
	sink += work(10000000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += work(300)
	}
}

// TestLayout prints where testing.B keeps the fields benchscope's --preset go
// reads, as reflect sees them; tests/user/test_gobench.c checks that the
// offsets the preset finds in the binary's DWARF are these.
func TestLayout(t *testing.T) {
	bt := reflect.TypeOf((*testing.B)(nil)).Elem()
	common, ok1 := bt.FieldByName("common")
	n, ok2 := bt.FieldByName("N")
	timerOn, ok3 := bt.FieldByName("timerOn")
	name, ok4 := common.Type.FieldByName("name")
	hasSub, ok5 := common.Type.FieldByName("hasSub")
	start, ok6 := common.Type.FieldByName("start") // --probes 1 reads these
	duration, ok7 := common.Type.FieldByName("duration")
	wall, ok8 := reflect.TypeOf(time.Time{}).FieldByName("wall")
	ext, ok9 := reflect.TypeOf(time.Time{}).FieldByName("ext")
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && ok8 && ok9) {
		t.Fatal("testing.B lacks a field")
	}
	fmt.Printf("layout N=%d name=%d hasSub=%d timerOn=%d start=%d duration=%d wall=%d ext=%d\n",
		n.Offset, common.Offset+name.Offset, common.Offset+hasSub.Offset, timerOn.Offset,
		common.Offset+start.Offset, common.Offset+duration.Offset, wall.Offset, ext.Offset)
}

// BenchmarkPaused stops its timer for a clean-up after the loop: Go's time
// leaves it out, benchscope's iteration (flagged paused) does not.
func BenchmarkPaused(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += work(1000)
	}
	b.StopTimer()
	sink += work(20000)
}

// BenchmarkSkipped skips every run but the first (b.Skip ends the goroutine
// with runtime.Goexit before runN's StopTimer): no result, no iteration.
func BenchmarkSkipped(b *testing.B) {
	if b.N > 1 {
		b.Skip("only N=1 runs")
	}
	sink += work(1000)
}
