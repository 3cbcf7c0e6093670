/* Nominal points of a claim, for the juez's screen.
 *
 * The engine on the server decides every claim; these figures are only
 * what the screen shows before its answer arrives:
 *  - the PROVISIONAL score while claims wait on the device (offline), and
 *  - the conteo dialog's preview before the juez confirms it.
 * They follow RULES.md (Art. 15): caída 2, limpia 2, caída y limpia per the
 * rule set (Art. 9a), ronda 2 (Art. 7), doble ronda per the rule set (Art. 8),
 * pedir mal -2 (Art. 11), mal repartidas +10 to the pair that did not deal
 * (Art. 4), juego y veo +/-2 (Art. 5), conteo (Art. 3g, 15f-h), and
 * "chica" awards that win the chica at once. A score never goes below 0.
 */
(function (global) {
  "use strict";

  var CHICA = "chica";
  var GOAL = 40;

  function other(pair) { return pair === "A" ? "B" : "A"; }

  /* The pair that deals the next data: the data chip passes to the next
   * seat counterclockwise (Art. 3f), which is always the other pair. */
  function nextDealingPair(state) {
    var dealer = state && state.dealer;
    return dealer ? other(dealer.charAt(0)) : null;
  }

  /* Conteo points for the cards each pair took (Art. 3g, 15f-h). */
  function conteo(cards, nextDealer) {
    var a = cards.A, b = cards.B, pts = { A: 0, B: 0 }, notes = [];
    if (a !== b) {
      var hi = a > b ? "A" : "B", n = Math.max(a, b);
      if (n >= 20) {
        var p = 6 + (n - 20);
        pts[hi] += p % 2 ? p + 1 : p;  // an odd total is rounded up (Art. 15h)
      } else {
        pts[hi] += 2;  // mayoría (Art. 15f)
      }
    } else if (nextDealer) {
      pts[nextDealer] += 2;  // dos por darlas (Art. 3g.3, 15g)
      notes.push({ note: "dos_por_darlas", pair: nextDealer });
    }
    ["A", "B"].forEach(function (side) {
      if (cards[side] === 0) {  // falla (Art. 10)
        pts[other(side)] += 2;
        notes.push({ note: "falla", pair: other(side) });
      }
    });
    return { points: pts, notes: notes };
  }

  function award(value, scores, pair, pts) {
    if (value === CHICA) pts[pair] += Math.max(GOAL - scores[pair], 0);
    else if (typeof value === "number") pts[pair] += value;
  }

  /* The points a claim would give, as {A, B}, from the rule set's settings
   * and the state it is made in. `voidable(seq)` returns the delta applied
   * by an earlier entry (for `void`), or null when unknown. */
  function nominal(claim, rules, state, voidable) {
    var pts = { A: 0, B: 0 }, pair = claim.pair, scores = state.scores || { A: 0, B: 0 };
    switch (claim.kind) {
      case "caida": case "limpia": case "ronda": pts[pair] += 2; break;
      case "caida_limpia": pts[pair] += rules.caida_limpia_points; break;
      case "doble_ronda": award(rules.doble_ronda, scores, pair, pts); break;
      case "caida_en_ronda": award(rules.caida_en_ronda, scores, pair, pts); break;
      case "cuatro_caidas": award(rules.cuatro_caidas, scores, pair, pts); break;
      case "pedir_mal": pts[pair] -= 2; break;
      case "mal_repartidas":
        if (state.dealer) pts[other(state.dealer.charAt(0))] += 10;
        break;
      case "juego_y_veo":
        if (claim.upheld) {
          pts[pair] += 2;
          if (rules.juego_y_veo_upheld === "penalty") pts[other(pair)] -= 2;
        } else {
          pts[pair] -= 2;
        }
        break;
      case "conteo": pts = conteo(claim.cards, nextDealingPair(state)).points; break;
      case "void":
        var applied = voidable ? voidable(claim.target) : null;
        if (applied) { pts.A -= applied.A; pts.B -= applied.B; }
        break;
      default: break;  // mano, suspender, reanudar, ajuste handled below
    }
    if (claim.kind === "ajuste") pts[pair] += claim.points;
    // 38 que no juega (002 Art. 11): from 38 only a caída scores for that pair.
    if (rules.treinta_y_ocho) {
      ["A", "B"].forEach(function (side) {
        if (scores[side] >= 38 && pts[side] > 0 && claim.kind !== "caida") pts[side] = 0;
      });
    }
    return pts;
  }

  /* The score after the queued claims, starting from the server's state;
   * never below 0. */
  function provisional(state, claims, rules, voidable) {
    var scores = { A: state.scores.A, B: state.scores.B };
    claims.forEach(function (claim) {
      var pts = nominal(claim, rules, { scores: scores, dealer: state.dealer }, voidable);
      scores.A = Math.max(0, scores.A + pts.A);
      scores.B = Math.max(0, scores.B + pts.B);
    });
    return scores;
  }

  global.CuarentaPoints = {
    conteo: conteo, nominal: nominal, provisional: provisional,
    nextDealingPair: nextDealingPair, other: other,
  };
})(window);
