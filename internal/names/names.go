// Package names holds the Portuguese names of the ledger's terms that
// the screens and the inspector's report both show.
package names

// MeterPT is the Portuguese name of each of the ledger's meters (meters.Defs
// names them in English).
var MeterPT = map[string]string{
	"total coin in (bets)":                          "total apostado (coin in)",
	"total coin out (wins to credits)":              "total ganho para o crédito (coin out)",
	"total jackpot (hand-paid wins)":                "prémios pagos manualmente (jackpot)",
	"hand-paid cancelled credits":                   "créditos cancelados pagos manualmente",
	"total cancelled credits":                       "total de créditos cancelados",
	"games played":                                  "jogos jogados",
	"games won":                                     "jogos ganhos",
	"games lost":                                    "jogos perdidos",
	"total bills accepted":                          "total de notas aceites",
	"current credits":                               "crédito atual",
	"ticket in":                                     "talões recebidos",
	"ticket out":                                    "talões emitidos",
	"electronic transfers to machine":               "transferências para a máquina",
	"electronic transfers from machine":             "transferências da máquina",
	"machine-paid paytable win":                     "prémios da tabela pagos pela máquina",
	"machine-paid progressive win":                  "jackpots pagos pela máquina",
	"attendant-paid paytable win":                   "prémios da tabela pagos manualmente",
	"attendant-paid progressive win":                "jackpots pagos manualmente",
	"total won":                                     "total ganho",
	"total hand paid":                               "total pago manualmente",
	"total drop":                                    "total no drop",
	"games since power reset":                       "jogos desde o arranque",
	"games since slot door closure":                 "jogos desde o fecho da porta",
	"bills in stacker":                              "notas no cofre",
	"value of bills in stacker":                     "valor das notas no cofre",
	"coins in":                                      "moedas recebidas",
	"hopper paid":                                   "pago pelo hopper",
	"main (slot) door openings":                     "aberturas da porta principal",
	"logic door openings":                           "aberturas da porta da lógica",
	"cashbox door openings":                         "aberturas da porta do cofre",
	"belly door openings":                           "aberturas da porta inferior",
	"drop door openings":                            "aberturas da porta do drop",
	"power resets":                                  "arranques",
	"tickets printed":                               "talões impressos",
	"current restricted credits":                    "crédito promocional restrito atual",
	"current non-restricted credits":                "crédito promocional não restrito atual",
	"restricted amount played":                      "promocional restrito apostado",
	"non-restricted amount played":                  "promocional não restrito apostado",
	"restricted promotional transfers in":           "transferências de promocional restrito para a máquina",
	"non-restricted promotional transfers in":       "transferências de promocional não restrito para a máquina",
	"restricted promotional transfers out":          "transferências de promocional restrito para o sistema",
	"non-restricted promotional transfers out":      "transferências de promocional não restrito para o sistema",
	"restricted promotional credits expired":        "promocional restrito expirado",
	"non-restricted promotional credits cashed out": "promocional não restrito pago ao jogador",
	"machine-paid external bonus win":               "bónus externos pagos pela máquina",
	"transfers to poker tables":                     "transferências para mesas de póquer",
	"transfers from poker tables":                   "transferências das mesas de póquer",
	"attendant-paid external bonus win":             "bónus externos pagos manualmente",
	"restricted promotional ticket out":             "talões promocionais restritos emitidos",
	"restricted promotional ticket in":              "talões promocionais restritos recebidos",
	"restricted promotional tickets printed":        "n.º de talões promocionais restritos impressos",
	"restricted promotional tickets redeemed":       "n.º de talões promocionais restritos recebidos",
}

// Meter is a meter's name in a language ("pt" or "en").
func Meter(lang, en string) string {
	if pt, ok := MeterPT[en]; ok && lang != "en" {
		return pt
	}
	return en
}
