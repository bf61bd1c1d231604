package model

// promoTexts are the catalogue's texts of promotional credits (SAS AFT
// restricted and non-restricted amounts, meters/promo.go), joined into
// texts by withPromoTexts.
var promoTexts = map[string][2]string{
	"msg_aft_bonus":           {"Bónus recebido: %s", "Bonus received: %s"},
	"msg_promo_expired":       {"Crédito promocional expirado: %s", "Promotional credit expired: %s"},
	"refused_restricted_only": {"O crédito promocional restrito só pode ser jogado, não recebido", "Restricted promotional credit can be played, not cashed out"},
}

// withPromoTexts adds the promotional credits' texts to the catalogue.
func withPromoTexts(core map[string][2]string) map[string][2]string {
	return joinTexts(core, promoTexts, "i18n_promo.go")
}
