// The chemin de fer (banca francesa) view of the seats' page: the same page
// as poker's (app.js: the lobby, the seat's token, the language, the euro,
// the session's totals, the decision timer), with the table of chemin de
// fer in place of the poker felt when the state's table is one. Everything
// comes from the server's state: the table as the engine shows it to this
// player (poker/chemin View, seatmsg.CheminMsg), the coup's records and
// the dealer's announcements, in Portuguese and English. The page offers
// only the decisions the state lists as the player's choices.
"use strict";

Object.assign(T.pt, {
  c_title: "Banca francesa", c_bidding: "A oferecer",
  c_bank: "Banca", c_garage: "Garage", c_staked: "Em jogo", c_banker: "Banqueiro", c_associate: "Associado",
  c_ponto: "Ponto", c_ponto_cards: "Ponto", c_banker_cards: "Banca", c_sabot: "Cartas no sabot",
  c_last_coup: "Último golpe do sabot", c_coup: "Golpe", c_level: "Banca passada de", c_wins: "Golpes ganhos",
  c_dealer: "O croupier", c_amount: "Montante (€)",
  ch_bank: "Fazer banca de", ch_bank_associated: "Banca associada de", ch_refuse: "Recusar a banca",
  ch_refuse_forced: "Ceder o lugar", ch_associate: "Associar-me à banca",
  ch_banco: "Bancô", ch_banco_suivi: "Bancô suivi", ch_banco_mesa: "Bancô com a mesa",
  ch_bet: "Apostar", ch_no_bet: "Não apostar", ch_draw: "Carta", ch_stand: "Não",
  ch_play_cards: "Jogo as cartas", ch_pass_cards: "Não sei jogar",
  ch_continue: "Continuar", ch_garage: "Garage (metade de lado)", ch_reduce: "Reduzir a banca",
  ch_halve: "Banca a metade", ch_pass: "Passo a mão", ch_take: "Aceitar a banca", ch_take_forced: "Aceitar a banca mínima",
  ch_decline: "Não aceitar", ch_bid: "Oferecer", ch_no_bid: "Não oferecer",
  ch_bid_associated: "Oferecer associado (metade cada)", ch_join_bid: "Associar-me à oferta do lugar",
  ch_cagnotte_outside: "Pagar a cagnotte por fora",
  ph_idle: "Entre golpes", ph_stake: "O banqueiro anuncia a banca", ph_banco_round: "Quem quer fazer bancô?",
  ph_banco_round_you: "Faz bancô?", ph_bet_round: "Apostas", ph_ponto: "O ponto joga com cinco",
  ph_cards: "O ponto joga as cartas ou passa-as", ph_cards_you: "As cartas são suas: joga-as?",
  ph_ponto_you: "Tem cinco: carta ou não?", ph_banker: "O banqueiro escolhe",
  ph_banker_you: "A escolha é sua: carta ou não?", ph_after_coup: "O banqueiro decide a banca",
  ph_stake_you: "A mão é sua: anuncie a banca", ph_bet_round_you: "Quanto aposta?",
  ph_after_coup_you: "Continua, põe de lado ou passa a mão?", ph_offered_you: "A banca é-lhe oferecida",
  ph_auction_you: "Quanto oferece pela banca?", ph_forced_you: "Ninguém ofereceu: aceita a banca mínima ou cede o lugar",
  c_this_coup: "Este golpe", c_last_coup_panel: "Último golpe", c_replay: "Últimos golpes", c_coups: "Golpes jogados",
  ph_offered: "A mão é oferecida", ph_auction: "Leilão da banca", ph_forced: "A banca é dada ao seguinte",
  ph_closed: "Fim da partida: a mesa fechou", c_final_coup: "Último golpe",
  c_plays_on: "Hora de encerramento: até ao fim do sabot",
  k_shoe: "Sabot novo, baralhado e selado", k_burn: "Cartas queimadas", k_shoe_end: "Fim do sabot",
  k_bank: "faz banca de", k_associate: "associa-se com", k_garage: "põe de lado (garage)",
  k_release: "recebe a banca e a garage:", k_deal: "recebe as cartas", k_third: "terceira carta",
  k_banker_wins: "A banca ganha", k_ponto_wins: "O ponto ganha", k_cagnotte: "cagnotte",
  k_tie: "Golpe nulo: as apostas são devolvidas",
  a_banco: "bancô", a_banco_suivi: "bancô suivi", a_banco_mesa: "bancô com a mesa", a_no_bet: "não aposta", a_bet: "aposta",
  a_play_cards: "joga as cartas", a_pass_cards: "não sabe jogar: passa as cartas",
  a_draw: "carta", a_stand: "não", a_continue: "continua", a_garage: "garage", a_reduce: "reduz a banca",
  a_halve: "banca a metade", a_pass: "passa a mão", a_take: "aceita a banca", a_decline: "não aceita",
  a_bid: "oferece", a_no_bid: "não oferece", a_refuse: "recusa", a_associate: "quer associar-se",
  a_bid_associated: "oferece associado", a_join_bid: "associa-se à oferta do lugar",
  a_cagnotte_outside: "paga a cagnotte por fora",
  a_bank: "faz banca", a_bank_associated: "faz banca associada",
});
Object.assign(T.en, {
  c_title: "Chemin de fer", c_bidding: "Offering",
  c_bank: "Bank", c_garage: "Garage", c_staked: "At stake", c_banker: "Banker", c_associate: "Associate",
  c_ponto: "Ponto", c_ponto_cards: "Ponto", c_banker_cards: "Bank", c_sabot: "Cards in the shoe",
  c_last_coup: "Last coup of the shoe", c_coup: "Coup", c_level: "Hand passed at", c_wins: "Coups won",
  c_dealer: "The dealer", c_amount: "Amount (€)",
  ch_bank: "Bank of", ch_bank_associated: "Associated bank of", ch_refuse: "Refuse the bank",
  ch_refuse_forced: "Give up the seat", ch_associate: "Associate with the bank",
  ch_banco: "Banco", ch_banco_suivi: "Banco suivi", ch_banco_mesa: "Banco with the table",
  ch_bet: "Bet", ch_no_bet: "No bet", ch_draw: "Card", ch_stand: "No card",
  ch_play_cards: "I play the hand", ch_pass_cards: "I don't play the hand",
  ch_continue: "Go on", ch_garage: "Garage (half aside)", ch_reduce: "Reduce the bank",
  ch_halve: "Halve the bank", ch_pass: "Pass the hand", ch_take: "Take the bank", ch_take_forced: "Take the minimum bank",
  ch_decline: "Decline", ch_bid: "Offer", ch_no_bid: "No offer",
  ch_bid_associated: "Offer associated (half each)", ch_join_bid: "Join the offer of seat",
  ch_cagnotte_outside: "Pay the cagnotte from outside",
  ph_idle: "Between coups", ph_stake: "The banker states the bank", ph_banco_round: "Who goes banco?",
  ph_banco_round_you: "Banco?", ph_bet_round: "Bets", ph_ponto: "The ponto plays his five",
  ph_cards: "The ponto plays the cards or passes them", ph_cards_you: "The cards are yours: do you play the hand?",
  ph_ponto_you: "You have five: card or no card?", ph_banker: "The banker chooses",
  ph_banker_you: "Your choice: card or no card?", ph_after_coup: "The banker decides on the bank",
  ph_stake_you: "The hand is yours: state the bank", ph_bet_round_you: "How much do you bet?",
  ph_after_coup_you: "Go on, set aside or pass the hand?", ph_offered_you: "The bank is offered to you",
  ph_auction_you: "What do you offer for the bank?", ph_forced_you: "Nobody offered: take the minimum bank or give up your seat",
  c_this_coup: "This coup", c_last_coup_panel: "Last coup", c_replay: "Last coups", c_coups: "Coups played",
  ph_offered: "The hand is offered", ph_auction: "The bank is auctioned", ph_forced: "The bank goes to the next player",
  ph_closed: "End of the partida: the table closed", c_final_coup: "Last coup",
  c_plays_on: "Closing time: to the end of the shoe",
  k_shoe: "New shoe, shuffled and sealed", k_burn: "Cards burned", k_shoe_end: "End of the shoe",
  k_bank: "banks", k_associate: "associates with", k_garage: "sets aside (garage)",
  k_release: "gets the bank and the garage:", k_deal: "is dealt the cards", k_third: "third card",
  k_banker_wins: "The bank wins", k_ponto_wins: "The ponto wins", k_cagnotte: "cagnotte",
  k_tie: "Void coup: the stakes go back",
  a_banco: "banco", a_banco_suivi: "banco suivi", a_banco_mesa: "banco with the table", a_no_bet: "no bet", a_bet: "bets",
  a_play_cards: "plays the hand", a_pass_cards: "does not play the hand: passes the cards",
  a_draw: "card", a_stand: "no card", a_continue: "goes on", a_garage: "garage", a_reduce: "reduces the bank",
  a_halve: "halves the bank", a_pass: "passes the hand", a_take: "takes the bank", a_decline: "declines",
  a_bid: "offers", a_no_bid: "no offer", a_refuse: "refuses", a_associate: "offers to associate",
  a_bid_associated: "offers associated", a_join_bid: "joins the offer of seat",
  a_cagnotte_outside: "pays the cagnotte from outside",
  a_bank: "banks", a_bank_associated: "banks, associated",
});

// sayText is an announcement's words in l: the server sends both
// languages (chemin.Text).
const sayText = (l, say) => (l === "en" ? say.en : say.pt) || say.pt || "";

const TOTALS = {
  pt: ["bacará", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove"],
  en: ["baccarat", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
};

const isChemin = (s) => !!(s && s.table && s.table.game === "chemin_de_fer");

// chem is the chemin de fer table in the state.
function chem() { return state.chemin || {}; }

// cheminMine: a decision is asked of the viewer now (the offer to
// associate with the banker is open to all while he states his bank).
function cheminMine() { return (chem().choices || []).some((ch) => ch.kind !== "associate"); }

function renderChemin() {
  const s = state, t = s.table, c = chem(), me = s.you;
  document.body.classList.add("chemin");
  $("hand-no").textContent = s.hand ? `${tr("c_coup")} ${s.hand}` : ""; $("hand-no").dataset.hand = s.hand || 0;

  const stakeOf = {}; for (const st of c.stakes || []) stakeOf[st.seat] = st.amount;

  const seats = $("seats"); seats.replaceChildren();
  const bySeat = {}; for (const sv of s.seats || []) bySeat[sv.seat] = sv;
  for (let n = 1; n <= t.seats; n++) {
    const sv = bySeat[n], el = document.createElement("div");
    el.className = "seat"; el.id = "seat-" + n; el.dataset.seat = n;
    const p = seatPos(n - 1, t.seats); el.style.left = p.left + "%"; el.style.top = p.top + "%";
    if (!sv) { el.classList.add("empty"); el.textContent = String(n); seats.append(el); continue; }
    el.dataset.player = sv.player;
    if (s.to_act === n) el.classList.add("to-act");
    if (me && me.seat === n) el.classList.add("you");
    const name = document.createElement("div"); name.className = "name"; name.textContent = `${n}. ${sv.player}`;
    const stack = document.createElement("div"); stack.className = "stack"; stack.dataset.cents = sv.stack; stack.textContent = eur(sv.stack);
    const bet = document.createElement("div"); bet.className = "bet"; bet.dataset.cents = stakeOf[n] || 0;
    bet.textContent = stakeOf[n] ? eur(stakeOf[n]) : "";
    const badges = document.createElement("div"); badges.className = "badges";
    const badge = (k, cls) => { const b = document.createElement("span"); b.textContent = tr(k); b.className = cls; badges.append(b); };
    if (c.banker === n) badge("c_banker", "banker");
    if (c.associate === n) badge("c_associate", "associate");
    if (c.ponto === n && ["banco_round", "bet_round", "ponto", "banker", "after_coup"].includes(c.phase) &&
      (c.ponto_cards || []).length + (c.banker_cards || []).length > 0) badge("c_ponto", "ponto");
    if ((c.bidders || []).includes(n)) badge("c_bidding", "bidding");
    if (sv.resting) badge("resting", "resting");
    el.append(name, stack, bet, badges); seats.append(el);
  }

  // The centre: the bank, the garage, the stakes, the cards, the sabot.
  const center = $("chemin-center");
  const staked = (c.stakes || []).reduce((a, x) => a + x.amount, 0);
  const money = (id, k, v) => { const e = $(id); e.dataset.cents = v; e.textContent = `${tr(k)}: ${eur(v)}`; e.hidden = false; };
  money("ch-bank", "c_bank", c.bank || 0); $("ch-bank").hidden = !c.bank;
  money("ch-garage", "c_garage", c.garage || 0); $("ch-garage").hidden = !c.garage;
  money("ch-staked", "c_staked", staked); $("ch-staked").hidden = !staked;
  money("ch-level", "c_level", c.level || 0); $("ch-level").hidden = !(c.level && (c.phase === "offered" || c.phase === "auction" || c.phase === "forced"));
  $("ch-wins").textContent = c.wins ? `${tr("c_wins")}: ${c.wins}` : ""; $("ch-wins").dataset.wins = c.wins || 0;
  const dealt = c.phase === "ponto" || c.phase === "banker";
  const side = (id, k, cs, third, total) => {
    const e = $(id); e.replaceChildren(); e.dataset.cards = (cs || []).join(" "); e.dataset.total = total;
    const h = document.createElement("span"); h.className = "side";
    h.textContent = tr(k) + (total >= 0 && (cs || []).length >= 2 ? ` · ${TOTALS[lang === "en" ? "en" : "pt"][total]}` : ""); e.append(h);
    let shown = cs || [];
    if (dealt && shown.length < 2 + (third ? 1 : 0)) { // the cards the viewer may not see, face down
      const hidden = (third ? 3 : 2) - shown.length;
      for (let i = 0; i < Math.min(2, hidden); i++) e.append(cardEl(null));
    }
    shown.forEach((x) => e.append(cardEl(x)));
    e.hidden = !shown.length && !dealt;
  };
  const pc = c.ponto_cards || [], bc = c.banker_cards || [];
  side("ch-ponto-cards", "c_ponto_cards", pc, pc.length === 1 || pc.length === 3, c.ponto_total ?? -1);
  side("ch-banker-cards", "c_banker_cards", bc, bc.length === 3, c.banker_total ?? -1);
  $("ch-sabot").textContent = c.shoe ? `${tr("c_sabot")}: ${c.cards_left}` : ""; $("ch-sabot").dataset.left = c.cards_left || 0;
  // The partida's last coup (rules 96, 107) outranks the sabot's; past
  // the closing hour a sabot played on says so.
  const shoeNote = c.final_coup ? "c_final_coup" : c.last_coup ? "c_last_coup" : c.plays_on ? "c_plays_on" : "";
  $("ch-last-coup").hidden = !shoeNote; $("ch-last-coup").textContent = shoeNote ? tr(shoeNote) : ""; $("ch-last-coup").dataset.note = shoeNote;
  const phase = c.phase || "idle", mine = cheminMine();
  $("ch-phase").textContent = tr("ph_" + phase + (mine && T.pt["ph_" + phase + "_you"] ? "_you" : "")); $("ch-phase").dataset.phase = phase;
  center.hidden = false;

  // The dealer's announcements: the latest in the centre, the coup's in
  // the panel.
  const says = c.says || [];
  const latest = says.length ? says[says.length - 1] : null;
  $("ch-says").textContent = latest ? sayText(lang, latest) : ""; $("ch-says").dataset.key = latest ? latest.key : "";
  const ol = $("announce"); ol.replaceChildren();
  for (const say of says) { const li = document.createElement("li"); li.dataset.key = say.key; li.dataset.cents = say.amount || 0; li.textContent = sayText(lang, say); ol.append(li); }
  ol.scrollTop = ol.scrollHeight;

  renderCheminControls();
  renderTotals();
  // The poker page's words where a coup is not a hand.
  document.querySelector("#log").previousElementSibling.textContent = tr("c_this_coup");
  document.querySelector("#last h2").textContent = tr("c_last_coup_panel");
  $("btn-replay").textContent = tr("c_replay");
  const hands = $("totals-hands"); if (hands) hands.previousElementSibling.textContent = tr("c_coups");
  renderLog($("log"), (s.current || []).filter((r) => r.kind !== "announce"));
  const last = $("last"); last.dataset.hand = (s.last && s.last.length) ? s.last[0].hand : 0;
  renderLast();
}

// The decisions: one button for each of the viewer's choices, with its
// amount where it has one (from its least to its most, by its step).
function renderCheminControls() {
  const s = state, c = chem(), me = s.you;
  $("seat-buttons").hidden = !me;
  $("btn-rest").textContent = me && (s.seats || []).some((x) => x.seat === me.seat && x.resting) ? tr("back") : tr("rest");
  $("btn-leave").disabled = !!(me && me.cash_out);
  $("btn-leave").textContent = me && me.cash_out ? tr("leaving") : tr("leave");
  $("actions").hidden = true; $("offer").hidden = true;
  const box = $("chemin-actions"), choices = c.choices || [];
  const key = JSON.stringify([lang, c.phase, s.hand, s.deadline_ms, choices, c.level, c.bank]);
  box.hidden = !choices.length;
  if (box.dataset.key === key) { tick(); return; } // keep what the player is typing
  box.dataset.key = key; box.replaceChildren();
  for (const ch of choices) {
    const b = document.createElement("button");
    b.id = "do-" + ch.kind; b.dataset.kind = ch.kind;
    let label = tr("ch_" + ch.kind);
    if (c.phase === "forced" && (ch.kind === "refuse" || ch.kind === "take")) label = tr("ch_" + ch.kind + "_forced");
    if (ch.kind === "take" && c.phase === "offered") label += " " + eur(c.level);
    if (ch.kind === "banco" || ch.kind === "banco_suivi") label += " " + eur(c.bank);
    if (ch.kind === "join_bid") { // to: the seat whose associated offer he joins (rule 87), not an amount
      b.id = "do-join_bid-" + ch.min;
      b.textContent = label + " " + ch.min;
      b.onclick = () => act(ch.kind, ch.min);
      box.append(b);
      continue;
    }
    if (ch.max > 0) {
      const wrap = document.createElement("span"); wrap.className = "amount"; wrap.id = "amount-" + ch.kind;
      const range = document.createElement("input"); range.type = "range"; range.min = ch.min; range.max = ch.max; range.step = ch.step || 1; range.value = ch.min;
      range.id = "range-" + ch.kind;
      const text = document.createElement("input"); text.id = "to-" + ch.kind; text.inputMode = "decimal"; text.size = 9;
      text.setAttribute("aria-label", tr("c_amount"));
      text.value = euro(lang, ch.min).replace(/\s?€/, "");
      range.oninput = () => { text.value = euro(lang, +range.value).replace(/\s?€/, ""); };
      b.textContent = label;
      b.onclick = () => {
        const cents = parseCents(text.value);
        if (cents === null || cents < ch.min || cents > ch.max) { $("error").textContent = tr("refused") + text.value; return; }
        act(ch.kind, cents);
      };
      wrap.append(range, text, b); box.append(wrap);
      continue;
    }
    b.textContent = label;
    b.onclick = () => act(ch.kind);
    box.append(b);
  }
  tick();
}

// cardText writes a card as people read it: "10♦", "A♠".
const cardText = (c) => (c[0] === "T" ? "10" : c[0]) + SUITS[c[1]];
const cardsText = (cs) => (cs || []).map(cardText).join(" ");

// cheminLine writes one record of a coup for people.
function cheminLine(r, names) {
  const who = r.player || names[r.seat] || (r.seat ? String(r.seat) : "");
  const to = r.timeout ? " " + tr("timeout") : "";
  switch (r.kind) {
    case "hand_start": return `${tr("c_coup")} ${r.hand} · ${tr("c_bank")}: ${eur(r.amount || 0)}`;
    case "shoe": return tr("k_shoe");
    case "burn": return `${tr("k_burn")}: ${cardsText(r.cards)}`;
    case "shoe_end": return tr("k_shoe_end");
    case "bank": return `${who} ${tr("k_bank")} ${eur(r.amount)}`;
    case "associate": return `${who} ${tr("k_associate")} ${eur(r.amount)}`;
    case "bet": return `${who}: ${tr("a_" + r.action)} ${eur(r.amount)}`;
    case "garage": return `${who} ${tr("k_garage")} ${eur(r.amount)}`;
    case "release": return `${who} ${tr("k_release")} ${eur(r.amount)}`;
    case "deal": return `${who} ${tr("k_deal")}`;
    case "board": return `${who}: ${tr("k_third")} ${cardsText(r.cards)}`;
    case "act":
      if (r.action === "join_bid") return `${who} ${tr("a_join_bid")} ${r.to}${to}`;
      return `${who} ${tr("a_" + r.action)}${r.to ? " " + eur(r.to) : ""}${to}`;
    case "show": return `${who} ${tr("k_show")} ${cardsText(r.cards)} — ${TOTALS[lang === "en" ? "en" : "pt"][+r.value] || r.value}`;
    case "return": return `${who} ${tr("k_return")} ${eur(r.amount)}`;
    case "award": {
      const paid = (r.shares || []).map((sh) => `${names[sh.seat] || sh.seat} ${tr("k_award")} ${eur(sh.amount)}`).join(", ");
      if (r.action === "banker") return `${tr("k_banker_wins")}: ${paid} (${tr("k_cagnotte")} ${eur(r.rake || 0)})`;
      return `${tr("k_ponto_wins")}: ${paid}`;
    }
    case "void": return tr("k_void");
    case "hand_end": return tr("k_hand_end");
  }
  return r.kind;
}

// The page's fixed words of chemin de fer, now that they are known.
document.querySelectorAll("[data-i18n^='c_']").forEach((el) => { el.textContent = tr(el.dataset.i18n); });

// cheminFrame shows a replay frame of a coup: the bank, the stakes, the
// cards the player saw, the dealer's words.
function cheminFrame(frame, f, names) {
  const c = f.chemin;
  if (c.say) { const p = document.createElement("p"); p.className = "say"; p.textContent = sayText(lang, c.say); frame.append(p); }
  const b = document.createElement("div");
  b.append(document.createTextNode(`${tr("c_bank")}: ${eur(c.bank)} `));
  for (const st of c.stakes || []) b.append(document.createTextNode(` · ${names[st.seat] || st.seat} ${eur(st.amount)}`));
  frame.append(b);
  for (const [k, cs] of [["c_ponto_cards", c.ponto_cards], ["c_banker_cards", c.banker_cards]]) {
    if (!cs || !cs.length) continue;
    const d = document.createElement("div"); d.append(document.createTextNode(tr(k) + " ")); cs.forEach((x) => d.append(cardEl(x))); frame.append(d);
  }
  for (const fs of f.seats) {
    const d = document.createElement("div"); d.className = "fseat";
    d.textContent = `${fs.seat}. ${fs.player} ${eur(fs.stack)}${fs.bet ? " · " + eur(fs.bet) : ""}`; frame.append(d);
  }
}
