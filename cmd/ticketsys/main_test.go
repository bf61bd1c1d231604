package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// Bad command lines are refused with exit status 2, naming the flag and
// what it wants, before anything touches etcd or a cabinet.
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"list"}, "--etcd"},
		{[]string{"fly", "--etcd", "e:1"}, `unknown command "fly"`},
		{[]string{"run", "--etcd", "e:1"}, "no --cabinet"},
		{[]string{"run", "--etcd", "e:1", "--cabinet", "a"}, "NAME=TRANSPORT:TARGET"},
		{[]string{"run", "--etcd", "e:1", "--cabinet", "a=udp:x:1"}, `transport "udp"`},
		{[]string{"run", "--etcd", "e:1", "--cabinet", "a=tcp:x:1,addr=200"}, `addr "200"`},
		{[]string{"run", "--etcd", "e:1", "--cabinet", "a=tcp:x:1,style=standard"}, `style "standard"`},
		{[]string{"run", "--etcd", "e:1", "--cabinet", "a=serial:/dev/x,framing=content"}, `framing "content"`},
		{[]string{"run", "--etcd", "e:1", "--cabinet", "a=tcp:x:1", "--cabinet", "a=tcp:y:1"}, "the name a twice"},
		{[]string{"run", "--etcd", "e:1", "--cabinet", "a=tcp:x:1", "--system-id", "100"}, "--system-id 100"},
		{[]string{"redeem", "--etcd", "e:1"}, "redeem takes 1 argument"},
	} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), c.args, &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, errOut.String(), c.want)
		}
	}
}
