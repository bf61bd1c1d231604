package reels

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used. The per-core benchmarks
// divide by it rather than by wall time, so that on a machine shared with
// other work a figure counts the time this process ran, not the time it
// waited for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
