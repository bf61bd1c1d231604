//go:build !production

package assets

import _ "embed"

// The development key signs the paytables in this repository so the
// simulator and the tests run signed tables end to end. It is NOT a
// certification key: a production build (-tags production) leaves it out
// and trusts only assets/keys/production/*.pub.
//
//go:embed keys/dev-NOT-FOR-PRODUCTION.pub
var devKey []byte

func trustedKeyFiles() []keyFile {
	return append(productionKeyFiles(), keyFile{"keys/dev-NOT-FOR-PRODUCTION.pub", devKey})
}

// RequireApprovedProgram says whether a program without a signed approved
// list may play. A development build may (it is rebuilt all day and its
// hash is only reported); a production build may not.
const RequireApprovedProgram = false
