//go:build !linux

package reels

import "time"

var start = time.Now()

// cpuTime falls back to wall time where getrusage is not at hand.
func cpuTime() time.Duration { return time.Since(start) }
