//go:build !linux

package sas

import "errors"

type flushState struct{}

// FlushInput is not available here: the host falls back to draining with
// a short read deadline.
func (p *StreamPort) FlushInput() error {
	return errors.New("sas: no input flush for a stream on this system")
}
