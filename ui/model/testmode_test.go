package model

import (
	"slices"
	"testing"

	"github.com/openegm/cabinet/machine"
)

// The technician enters test mode from the service menu and leaves it from
// there; the other roles are not offered it.
func TestServiceMenuOffersTestMode(t *testing.T) {
	s, c := newTestScreen(t, ioView(machine.RoleTechnician))
	if b := button(t, s, "svc:"+machine.SvcTestEnter); b.Label != "TEST MODE" {
		t.Errorf("enter button %q", b.Label)
	}
	clickOn(t, s, "svc:"+machine.SvcTestEnter)
	if calls := c.take(); !slices.Equal(calls, []string{"service " + machine.SvcTestEnter + "  "}) {
		t.Errorf("the button sent %v", calls)
	}
	v := ioView(machine.RoleTechnician)
	v.Test = &machine.TestView{CreditsCents: 100_00}
	s, c = newTestScreen(t, v)
	clickOn(t, s, "svc:"+machine.SvcTestLeave)
	if calls := c.take(); !slices.Equal(calls, []string{"service " + machine.SvcTestLeave + "  "}) {
		t.Errorf("the leave button sent %v", calls)
	}
	for _, role := range []string{machine.RoleInspector, machine.RoleOperator} {
		s, _ := newTestScreen(t, ioView(role))
		for _, b := range s.Buttons() {
			if b.ID == "svc:"+machine.SvcTestEnter {
				t.Errorf("%s is offered test mode", role)
			}
		}
	}
}
