//go:build unix

package titopeer

import (
	"net"
	"os"
	"syscall"
)

// socketPair is a connected pair of Unix stream sockets.
func socketPair() (a, b net.Conn, err error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, nil, err
	}
	conn := func(fd int, name string) (net.Conn, error) {
		f := os.NewFile(uintptr(fd), name)
		defer f.Close() // FileConn has its own copy
		return net.FileConn(f)
	}
	if a, err = conn(fds[0], "titopeer-machine"); err != nil {
		syscall.Close(fds[1])
		return nil, nil, err
	}
	if b, err = conn(fds[1], "titopeer-host"); err != nil {
		a.Close()
		return nil, nil, err
	}
	return a, b, nil
}
