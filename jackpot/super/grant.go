package super

import (
	"context"
	"errors"
	"fmt"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Permission is one key range an etcd role grants: [Key, End), or the key
// alone when End is empty.
type Permission struct {
	Key, End string
	Write    bool // read and write; else read only
}

// Permissions are what controller's etcd user may do in the group under
// prefix whose shared levels are levels: read the whole group, and write
// only the pools (which every controller's transactions update), transfers
// (an operator's, through any controller) and its own keys: its batches,
// its head, its claims on each level, its published key and the evidence
// it keeps. So etcd itself refuses a controller that writes another's
// batch or claim, before any signature is checked.
func Permissions(prefix, controller string, levels []string) []Permission {
	under := func(dir string) Permission {
		return Permission{Key: dir, End: clientv3.GetPrefixRangeEnd(dir), Write: true}
	}
	out := []Permission{
		{Key: prefix, End: clientv3.GetPrefixRangeEnd(prefix)},
		{Key: prefix + "pool", Write: true},
		under(prefix + "transfers/"),
		under(prefix + "batches/" + controller + "/"),
		{Key: prefix + "heads/" + controller, Write: true},
		{Key: prefix + "keys/" + controller, Write: true},
		under(prefix + "rejected/" + controller + "/"),
	}
	for _, l := range levels {
		out = append(out, under(prefix+"claims/"+l+"/"+controller+"/"))
	}
	return out
}

// Role is the name of controller's etcd role in the group under prefix.
func Role(prefix, controller string) string { return "superjackpot:" + prefix + ":" + controller }

// Grant makes controller an etcd user of the group (authenticated by its
// client certificate, whose common name is controller: it has no
// password) with the role of Permissions. admin is a client of etcd's
// administrator (root). Granting again what was granted changes nothing.
func Grant(ctx context.Context, admin *clientv3.Client, prefix, controller string, levels []string) error {
	fail := func(err error) error {
		return fmt.Errorf("super: grant controller %q the group %q: %w", controller, prefix, err)
	}
	if err := checkName("controller", controller); err != nil {
		return fail(err)
	}
	for _, l := range levels {
		if err := checkName("level", l); err != nil {
			return fail(err)
		}
	}
	_, err := admin.UserAddWithOptions(ctx, controller, "", &clientv3.UserAddOptions{NoPassword: true})
	if err != nil && !errors.Is(err, rpctypes.ErrUserAlreadyExist) {
		return fail(err)
	}
	role := Role(prefix, controller)
	if _, err := admin.RoleAdd(ctx, role); err != nil && !errors.Is(err, rpctypes.ErrRoleAlreadyExist) {
		return fail(err)
	}
	for _, p := range Permissions(prefix, controller, levels) {
		perm := clientv3.PermissionType(clientv3.PermRead)
		if p.Write {
			perm = clientv3.PermissionType(clientv3.PermReadWrite)
		}
		if _, err := admin.RoleGrantPermission(ctx, role, p.Key, p.End, perm); err != nil {
			return fail(fmt.Errorf("permission on %q: %w", p.Key, err))
		}
	}
	if _, err := admin.UserGrantRole(ctx, controller, role); err != nil {
		return fail(err)
	}
	return nil
}
