// Command rngstream writes the cabinet RNG's raw keystream to standard
// output, for statistical test batteries such as dieharder:
//
//	rngstream | dieharder -g 200 -a
//
// By default it uses the production generator (rng.New: self-tested, keyed
// from OS entropy, reseeding on schedule), which is what certification
// should judge. --seed switches to the deterministic generator so that a
// failing run can be reproduced.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/openegm/cabinet/rng"
)

func main() {
	fs := flag.NewFlagSet("rngstream", flag.ContinueOnError)
	seed := fs.Uint64("seed", 0, "use the deterministic generator rng.NewSeeded(`N`) instead of the OS-seeded production generator")
	count := fs.Int64("bytes", -1, "stop after `N` bytes; negative means endless")
	sim := fs.Bool("sim", false, "with --seed, stream the simulator's unlocked generator rng.NewSeededStream(N): the same bytes as rng.NewSeeded(N), from the AVX-512 keystream where the CPU has one")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: rngstream [--seed N] [--bytes N]

Writes raw keystream from the cabinet RNG to standard output, for feeding
statistical test batteries, e.g.:

    rngstream | dieharder -g 200 -a

(dieharder generator 200 reads raw binary from stdin). Without --seed the
production generator is used: it runs the power-up self-test, is keyed
from OS entropy and reseeds on schedule, exactly as on the cabinet. Output
is endless unless --bytes is given; a closed pipe ends it quietly.

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rngstream: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	seeded := false
	fs.Visit(func(f *flag.Flag) { seeded = seeded || f.Name == "seed" })

	var src io.Reader
	if *sim && !seeded {
		fmt.Fprintln(os.Stderr, "rngstream: --sim needs --seed")
		os.Exit(2)
	}
	if *sim {
		src = rng.NewSeededStream(*seed)
	} else if seeded {
		src = rng.NewSeeded(*seed)
	} else {
		r, err := rng.New()
		if err != nil {
			fmt.Fprintln(os.Stderr, "rngstream:", err)
			os.Exit(1)
		}
		src = r
	}

	// A reader that has seen enough (dieharder does this) closes the pipe;
	// with SIGPIPE ignored the write returns EPIPE and we can exit 0
	// instead of dying by signal, which pipefail would report as failure.
	signal.Ignore(syscall.SIGPIPE)

	if err := stream(os.Stdout, src, *count); err != nil {
		if errors.Is(err, syscall.EPIPE) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "rngstream:", err)
		os.Exit(1)
	}
}

// stream copies n bytes of src to w, or endlessly if n < 0, in large
// chunks so that the pipe rather than system calls sets the pace.
func stream(w io.Writer, src io.Reader, n int64) error {
	buf := make([]byte, 1<<16)
	for n != 0 {
		p := buf
		if n > 0 && n < int64(len(p)) {
			p = p[:n]
		}
		src.Read(p) // an rng.RNG or rng.Stream always fills p
		if _, err := w.Write(p); err != nil {
			return err
		}
		if n > 0 {
			n -= int64(len(p))
		}
	}
	return nil
}
