package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/meters/inspect"
)

// The inspector at the cabinet: the ledger verified as meterread verify
// does, and the report exported to a file signed by the machine key, which
// verifies with the machine.pub recorded at commissioning.
func TestInspectorVerifiesAndExportsTheReport(t *testing.T) {
	t.Parallel()
	data, media := t.TempDir(), t.TempDir() // media: the removable drive the operator configured
	c := startCabinet(t, data, "--spin-time", "5ms", "--report-dir", media)
	defer c.Stop()
	c.Bill(2000)
	for range 5 {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		c.WaitIdle()
	}
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "inspector-7"})
	c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleInspector, PIN: machine.DefaultPIN})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcSetPIN, Value: "602519"})

	r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcVerifyLedger})
	v := r.View.Service.Verdict
	if v == nil || !v.OK || !strings.HasPrefix(v.Summary, "VERIFIED") || v.Report != "" {
		t.Fatalf("verdict %+v", v)
	}
	r = c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcExportReport})
	v = r.View.Service.Verdict
	if v == nil || !v.OK || v.Report == "" || filepath.Dir(v.Report) != media || v.ReportJSON == "" || filepath.Dir(v.ReportJSON) != media {
		t.Fatalf("export verdict %+v (reports to %s)", v, media)
	}
	if v.Records == 0 || v.KeyID == "" || v.LastHash == "" {
		t.Fatalf("the verdict does not say what was checked: %+v", v)
	}
	doc, err := os.ReadFile(v.Report)
	if err != nil {
		t.Fatal(err)
	}
	// In the cabinet's language (Portuguese), naming the machine.
	if !strings.Contains(string(doc), "VERIFICADO") || !strings.Contains(string(doc), "total apostado") || !strings.Contains(string(doc), "EGM-TEST") {
		t.Fatalf("the report lacks the verdict or the meters:\n%s", doc)
	}
	sigLine, _ := os.ReadFile(v.Report + ".sig")
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(sigLine)))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := meters.ReadPublicKey(c.MachinePub())
	if err != nil {
		t.Fatal(err)
	}
	if !ed25519.Verify(pub, doc, sig) {
		t.Fatal("the exported report does not verify with the machine key")
	}
	doc[10] ^= 1
	if ed25519.Verify(pub, doc, sig) {
		t.Fatal("a changed report verified")
	}
	// The JSON form, signed the same way.
	if err := inspect.VerifySigned(v.ReportJSON, pub); err != nil {
		t.Fatalf("the JSON report: %v", err)
	}
	var rep inspect.Report
	if js, _ := os.ReadFile(v.ReportJSON); json.Unmarshal(js, &rep) != nil || rep.Machine.ID != "EGM-TEST" || len(rep.Games) != 5 || rep.Program.Hash == "" {
		t.Fatalf("the JSON report: machine %q, %d games, program %q", rep.Machine.ID, len(rep.Games), rep.Program.Hash)
	}
	// The inspector's actions are in the ledger, and a technician may
	// verify but not export.
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcLogout})
	c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: machine.DefaultPIN})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcSetPIN, Value: "715308"})
	if r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcExportReport}); r.Refused != "refused_role" {
		t.Fatalf("technician export: %q", r.Refused)
	}
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcPage, Value: "events"})
	found := false
	for _, e := range c.State().Service.Events {
		if strings.Contains(e.Detail, "export_report") && strings.Contains(e.Detail, "inspector-7") {
			found = true
		}
	}
	if !found {
		t.Fatal("the export is not in the event log")
	}
}
