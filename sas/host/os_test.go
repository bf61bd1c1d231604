package host

import "os"

var osErrDeadline = os.ErrDeadlineExceeded
