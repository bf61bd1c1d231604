package machine

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/openegm/cabinet/meters"
)

// applied are the start-up settings the machine itself applies; the others
// (machine number, link, paytable chosen by the owner before it loads it)
// are recorded for the inspector and used by the program at the edges.
var applied = map[string]bool{"denom": true, "handpay_limit": true}

// WhoCommandLine is who a setting given at start-up is recorded as made by.
const WhoCommandLine = "start-up configuration"

// startSettings records the settings given at start-up that differ from
// those given at the previous start, and applies them. One that must wait
// for an idle machine (a denomination with credits on it, which would
// change what the credits are worth on screen) is left for a later start,
// and the service screens say why.
func (m *Machine) startSettings(given map[string]string, eff *Effects) {
	for _, k := range slices.Sorted(maps.Keys(given)) {
		v := given[k]
		if prev, ok := m.st.CommandLine[k]; ok && prev == v {
			continue
		}
		if applied[k] {
			if k == "denom" && m.st.Get(meters.Credits) != 0 && m.st.Settings[k] != v {
				m.svcMessage = Message{Key: "refused_credits_on_machine", Detail: fmt.Sprintf("start-up setting %s=%s not applied: credits on the machine", k, v)}
				continue
			}
			if why := m.setConfig(k, v); why != "" {
				// The caller validated it; a value refused here is a defect
				// at the edge, and playing on another value is not allowed.
				m.fault = "internal: start-up setting " + k + ": " + why
				return
			}
		}
		if !m.record(eff, meters.Config{At: m.ns(), Who: WhoCommandLine, Key: k, Value: v, From: meters.ConfigCommandLine}) {
			return
		}
	}
}

// recordPaytable records which paytable (ID and version) is in play when
// the ledger says otherwise: the first start, or a new one installed. The
// owner loads only the configured ID and version, so what is recorded here
// is what the operator configured.
func (m *Machine) recordPaytable(eff *Effects, who string) {
	if m.pt == nil {
		return
	}
	version := strconv.Itoa(m.pt.Version)
	if m.st.Settings["paytable"] != m.pt.ID {
		if !m.record(eff, meters.Config{At: m.ns(), Who: who, Key: "paytable", Value: m.pt.ID}) {
			return
		}
	}
	if m.st.Settings[SettingPaytableVersion] != version {
		m.record(eff, meters.Config{At: m.ns(), Who: who, Key: SettingPaytableVersion, Value: version})
	}
}

// SettingPaytableVersion is the settings key of the version of the
// paytable in play (the "paytable" key holds its ID).
const SettingPaytableVersion = "paytable_version"
