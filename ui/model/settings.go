package model

import (
	"fmt"
	"strconv"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/machine"
)

// The settings page: each setting's row with its value as people read it,
// and the choices an operator or technician may make. A setting that
// changes money (the denomination, the handpay limit, the bet limit) is
// asked again before it is sent, saying what changes.

// denominations offered on the settings page (the machine decides which it
// accepts and says why it refuses one).
var denominations = []int64{1, 2, 5, 10, 20, 50, 100}

// handpayLimits offered on the settings page, in cents (the machine's
// minimum is machine.MinHandpayLimit).
var handpayLimits = []int64{500_00, 1000_00, 1200_00, 2500_00, 5000_00, 10000_00}

// moneySettings are confirmed before they are sent.
var moneySettings = map[string]bool{"denom": true, "handpay_limit": true, "max_level": true}

// SettingRow is one line of the settings page.
type SettingRow struct {
	Key, Label, Value string
	Y                 float64 // the row's middle
}

const settingsTop, settingsStep = 24.0, 64.0

// settingKeys are the page's rows, in order.
var settingKeys = []string{"language", "denom", "handpay_limit", "max_level", "paytable"}

// SettingRows are the settings page's rows.
func (g *Screen) SettingRows() []SettingRow {
	var out []SettingRow
	for i, k := range settingKeys {
		out = append(out, SettingRow{Key: k, Label: g.T("set_" + k), Value: g.SettingValue(k, g.Svc().Settings[k]),
			Y: RectSvcContent.Y + settingsTop + 22 + float64(i)*settingsStep})
	}
	return out
}

// SettingValue is a setting's value as people read it: a language by its
// name, amounts in euros, the bet limit in credits per line.
func (g *Screen) SettingValue(key, value string) string {
	n, err := strconv.ParseInt(value, 10, 64)
	switch {
	case key == "table" && value == "off":
		return g.T("set_table_off")
	case key == "table" && g.V.Table != nil && value == g.V.Table.ID:
		return g.T("set_table_is", TableTitle(g.V.Table, g.Lang))
	case key == "language" && value != "":
		return g.T("lang_" + value)
	case (key == "denom" || key == "handpay_limit") && err == nil:
		return Euro(g.Lang, n)
	case key == "program" && len(value) > 16:
		return value[:16] + "…" // a hash: the identification page has it whole
	case key == "max_level" && (value == "" || value == "0"):
		return g.T("set_no_limit")
	case key == "max_level" && err == nil && g.PT != nil && n >= 1 && int(n) <= len(g.PT.CreditsPerLine):
		c := g.PT.CreditsPerLine[n-1]
		return Tn(g.Lang, "id_level_credits", c, Credits(g.Lang, c))
	}
	return value
}

// PendingSetting is a change of money waiting for its confirmation.
type PendingSetting struct {
	Key, Value string
}

// ConfirmText says what a pending setting changes: "Denominação: 0,05 € →
// 0,10 €".
func (g *Screen) ConfirmText() string {
	p := g.Confirm
	if p == nil {
		return ""
	}
	from := g.SettingValue(p.Key, g.Svc().Settings[p.Key])
	return g.T("set_confirm", g.T("set_"+p.Key), from, g.SettingValue(p.Key, p.Value))
}

// RectConfirm is the confirmation bar of a pending setting.
var RectConfirm = Rect{RectSvcContent.X + 20, RectSvcContent.Y + RectSvcContent.H - 66, RectSvcContent.W - 40, 56}

// SettingsButtons are the choices of the settings page, and the
// confirmation of a pending change.
func (g *Screen) SettingsButtons() []Button {
	s := g.Svc()
	var bs []Button
	choose := func(key, value string) func(g *Screen) {
		return func(g *Screen) {
			if moneySettings[key] {
				g.Confirm = &PendingSetting{Key: key, Value: value}
				return
			}
			g.Confirm = nil
			g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcConfig, Key: key, Value: value})
		}
	}
	sel := func(key, value string) int {
		if s.Settings[key] == value || g.Confirm != nil && g.Confirm.Key == key && g.Confirm.Value == value {
			return StyleSelected
		}
		return StyleNormal
	}
	x0 := RectSvcContent.X + 320
	row := func(i int) float64 { return RectSvcContent.Y + settingsTop + float64(i)*settingsStep }
	add := func(i int, key, value, label string, w float64, k int) {
		bs = append(bs, Button{ID: "set:" + key + ":" + value, Label: label, R: Rect{x0 + float64(k)*(w+10), row(i), w, 44},
			Enabled: true, Style: sel(key, value), Act: choose(key, value)})
	}
	for k, l := range Langs {
		add(0, "language", l, g.T("lang_"+l), 150, k)
	}
	for k, d := range denominations {
		add(1, "denom", fmt.Sprint(d), Euro(g.Lang, d), 110, k)
	}
	for k, c := range handpayLimits {
		add(2, "handpay_limit", fmt.Sprint(c), Euro(g.Lang, c), 140, k)
	}
	if g.PT != nil {
		for k, c := range g.PT.CreditsPerLine {
			add(3, "max_level", fmt.Sprint(k+1), Credits(g.Lang, c), 90, k)
		}
	}
	if s.Role == machine.RoleTechnician {
		for k, id := range assets.Paytables() {
			add(4, "paytable", id, id, 190, k)
		}
	}
	if p := g.Confirm; p != nil {
		r := RectConfirm
		bs = append(bs,
			Button{ID: "set:confirm", Label: g.T("svc_confirm"), R: Rect{r.X + r.W - 380, r.Y + 6, 180, r.H - 12}, Enabled: true, Style: StyleHot,
				Act: func(g *Screen) {
					g.Confirm = nil
					g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcConfig, Key: p.Key, Value: p.Value})
				}},
			Button{ID: "set:cancel", Label: g.T("svc_cancel"), R: Rect{r.X + r.W - 190, r.Y + 6, 180, r.H - 12}, Enabled: true,
				Act: func(g *Screen) { g.Confirm = nil }})
	}
	return bs
}
