//go:build !unix

package titopeer

import (
	"errors"
	"net"
)

func socketPair() (a, b net.Conn, err error) {
	return nil, nil, errors.New("titopeer: no Unix sockets here")
}
