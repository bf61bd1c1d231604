package meters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Values are the meters of the standard set, by Meter.
//
// A snapshot holds a state's encoding and a seal signs its digest, and the
// inspector's fold recomputes that digest at every seal. So the encoding of
// a state an earlier build sealed must not change when a later build adds a
// meter: the meters are encoded as an object of stable keys (meterKeys,
// sorted), and a meter at zero is left out. A meter a later build adds is
// zero in every state an earlier one folded, and so is absent from both
// encodings. (As an array, one more meter was one more "0" in every
// encoding, and every older seal stopped verifying.)
type Values [numMeters]int64

// meterKeys are the meters' names in encodings: never rename one, never
// reuse one (the readout names in Defs may change, these may not).
var meterKeys = [numMeters]string{
	CoinIn:                   "coin_in",
	CoinOut:                  "coin_out",
	HandpaidWins:             "handpaid_wins",
	HandpaidCancelled:        "handpaid_cancelled",
	Cancelled:                "cancelled",
	GamesPlayed:              "games_played",
	GamesWon:                 "games_won",
	GamesLost:                "games_lost",
	BillsIn:                  "bills_in",
	Credits:                  "credits",
	TicketIn:                 "ticket_in",
	TicketOut:                "ticket_out",
	ElectronicIn:             "electronic_in",
	ElectronicOut:            "electronic_out",
	MachinePaidPaytable:      "machine_paid_paytable",
	MachinePaidProgressive:   "machine_paid_progressive",
	AttendantPaidPaytable:    "attendant_paid_paytable",
	AttendantPaidProgressive: "attendant_paid_progressive",
	TotalWon:                 "total_won",
	TotalHandPaid:            "total_hand_paid",
	TotalDrop:                "total_drop",
	GamesSincePowerUp:        "games_since_power_up",
	GamesSinceDoorClose:      "games_since_door_close",
	StackerBills:             "stacker_bills",
	StackerValue:             "stacker_value",
	CoinsIn:                  "coins_in",
	HopperOut:                "hopper_out",
	MainDoorOpens:            "main_door_opens",
	LogicDoorOpens:           "logic_door_opens",
	CashboxDoorOpens:         "cashbox_door_opens",
	BellyDoorOpens:           "belly_door_opens",
	DropDoorOpens:            "drop_door_opens",
	PowerResets:              "power_resets",
	TicketsOut:               "tickets_out",
	RestrictedCredits:        "restricted_credits",
	NonRestrictedCredits:     "non_restricted_credits",
	RestrictedPlayed:         "restricted_played",
	NonRestrictedPlayed:      "non_restricted_played",
	RestrictedIn:             "restricted_in",
	NonRestrictedIn:          "non_restricted_in",
	RestrictedOut:            "restricted_out",
	NonRestrictedOut:         "non_restricted_out",
	RestrictedExpired:        "restricted_expired",
	NonRestrictedCashedOut:   "non_restricted_cashed_out",
	MachinePaidBonus:         "machine_paid_bonus",
	AttendantPaidBonus:       "attendant_paid_bonus",
	PokerToTables:            "poker_to_tables",
	PokerFromTables:          "poker_from_tables",
	RestrictedTicketOut:      "restricted_ticket_out",
	RestrictedTicketIn:       "restricted_ticket_in",
	RestrictedTicketsOut:     "restricted_tickets_out",
	RestrictedTicketsIn:      "restricted_tickets_in",
}

// keyOrder is the meters in the order of their keys (the encoding's).
var keyOrder = func() []Meter {
	out := make([]Meter, numMeters)
	for i := range out {
		out[i] = Meter(i)
	}
	slices.SortFunc(out, func(a, b Meter) int { return bytes.Compare([]byte(meterKeys[a]), []byte(meterKeys[b])) })
	return out
}()

// byKey finds a meter by its key.
var byKey = func() map[string]Meter {
	m := make(map[string]Meter, numMeters)
	for i, k := range meterKeys {
		m[k] = Meter(i)
	}
	return m
}()

// MarshalJSON encodes the meters not at zero, by key, in key order.
func (v Values) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for _, m := range keyOrder {
		if v[m] == 0 {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, meterKeys[m])
		b = append(b, ':')
		b = strconv.AppendInt(b, v[m], 10)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON decodes MarshalJSON's form. A key this build does not know
// is an error: the state was folded by a later build, and dropping the
// meter would make the state lie (and its digest differ from its seal).
// Of several, the error names the first in key order, so that the same
// state always gives the same error.
func (v *Values) UnmarshalJSON(b []byte) error {
	var kv map[string]int64
	if err := json.Unmarshal(b, &kv); err != nil {
		return fmt.Errorf("meters: %w", err)
	}
	*v = Values{}
	var unknown []string
	for k, x := range kv {
		m, ok := byKey[k]
		if !ok {
			unknown = append(unknown, k)
			continue
		}
		v[m] = x
	}
	if len(unknown) > 0 {
		return fmt.Errorf("meters: unknown meter %q (a state of a later build?)", slices.Min(unknown))
	}
	return nil
}
