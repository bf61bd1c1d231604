package model

// promoTexts are the catalogue's texts of promotional credits (SAS AFT
// restricted and non-restricted amounts, meters/promo.go), joined into
// texts by withPromoTexts. The screens call restricted credits "PROMO" and
// non-restricted ones "PROMO LIVRE" (cashable promo); the machine's
// messages use the same words, so a player reads one name for one thing.
var promoTexts = map[string][2]string{
	"msg_aft_bonus":           {"Bónus recebido: %s", "Bonus received: %s"},
	"msg_promo_expired":       {"Crédito PROMO expirado: %s", "PROMO credit expired: %s"},
	"refused_restricted_only": {"O crédito PROMO só pode ser jogado, não pode ser recebido", "PROMO credit can only be played, not cashed out"},

	// The credit meter by kind, beside or under the credit meter.
	"credit_promo":       {"PROMO", "PROMO"},
	"credit_promo_free":  {"PROMO LIVRE", "CASHABLE PROMO"},
	"credit_cash":        {"DINHEIRO", "CASH"},
	"credit_promo_until": {"válido até %[1]s", "valid until %[1]s"},
	// A cash-out that leaves restricted credits says they stay.
	"promo_stays": {"O crédito PROMO de %[1]s fica na máquina para jogar", "The PROMO credit of %[1]s stays on the machine for play"},
}

// withPromoTexts adds the promotional credits' texts to the catalogue.
func withPromoTexts(core map[string][2]string) map[string][2]string {
	return joinTexts(core, promoTexts, "i18n_promo.go")
}
