// Mini Bridge hand form: as the HCP are typed, show the declaring side, the declarer
// and dummy (or the 20–20 redeal, or a deal the declarer may scrap), then what the
// tricks score. The server checks everything again; this only saves looking it up.
"use strict";
(function () {
  const S = window.Scorekeeper;
  const SYMBOL = window.Scorekeeper.SYMBOL;

  // A paragraph from strings and {strong: text} parts (names are set as text, never HTML).
  function para(...parts) {
    const p = document.createElement("p");
    parts.forEach((part) => {
      if (typeof part === "string") {
        p.append(part);
      } else {
        const el = document.createElement("strong");
        el.textContent = part.strong;
        p.append(el);
      }
    });
    return p;
  }
  const strong = (text) => ({ strong: text });

  function setUp() {
    const config = window.Scorekeeper.facts();
    const R = config.rules;
    const order = config.order;
    const inputs = Array.from(document.querySelectorAll("#hand-form .hcp-input"));
    const live = document.getElementById("mb-live");
    const play = document.getElementById("play");
    const result = document.getElementById("mb-result");
    const save = document.getElementById("save");
    const saveLabel = save.textContent;
    const scrap = document.getElementById("scrap");
    const dummyOut = document.getElementById("dummy-hcp");
    const hint = document.getElementById("hcp-hint");
    const hintText = hint.textContent;
    // Four players: the last announcement is 40 minus the others until someone types it.
    const last = config.four ? inputs[inputs.length - 1] : null;
    if (last && last.value.trim() !== "") last.dataset.typed = "1";

    const read = (input) => {
      const text = input.value.trim();
      return /^\d+$/.test(text) ? Number(text) : null;
    };
    const valid = (n) => n !== null && n >= 0 && n <= R.max_hcp;
    const sum = (numbers) => numbers.reduce((a, b) => a + b, 0);
    const both = (names) => names.join(" & ");

    function fillLast() {
      if (!last || last.dataset.typed) return;
      const others = inputs.slice(0, -1).map(read);
      const rest = others.every(valid) ? R.deck - sum(others) : null;
      last.value = valid(rest) ? String(rest) : "";
      last.classList.toggle("auto", valid(rest));
    }

    // Most HCP among `among`; on a tie the one who announced first.
    const pick = (hcp, among) =>
      among.slice().sort((a, b) => hcp[b] - hcp[a] || order.indexOf(a) - order.indexOf(b))[0];

    function derive() {
      const hcp = {};
      for (let i = 0; i < inputs.length; i++) {
        const n = read(inputs[i]);
        if (!valid(n)) return null;
        hcp[order[i]] = n;
      }
      const held = sum(Object.values(hcp));
      if (config.four) {
        if (held !== R.deck) return { wrongSum: held };
        const [a, b] = config.sides.map((side) => hcp[side[0]] + hcp[side[1]]);
        if (a === b) return { redeal: true };
        const [side, defenders] = a > b ? config.sides : [config.sides[1], config.sides[0]];
        const declarer = pick(hcp, side);
        const dummy = side[0] === declarer ? side[1] : side[0];
        return { hcp, side, defenders, ours: Math.max(a, b), theirs: Math.min(a, b), declarer, dummy };
      }
      const dummyHcp = R.deck - held;
      if (!valid(dummyHcp)) return { wrongDummy: dummyHcp };
      const declarer = pick(hcp, config.players);
      return {
        hcp,
        declarer,
        dummyHcp,
        ours: hcp[declarer] + dummyHcp,
        defenders: order.filter((p) => p !== declarer),
        tied: order.filter((p) => p !== declarer && hcp[p] === hcp[declarer]),
      };
    }

    function describe(d) {
      if (d === null) {
        const typed = inputs.map(read).filter((n) => n !== null);
        const who = config.four ? "side" : "player";
        const line = para(`Type the HCP: the ${who} with more declares.`);
        if (typed.length) line.append(` So far ${sum(typed)} of ${R.deck}.`);
        line.className = "muted";
        return [line];
      }
      if (d.wrongSum !== undefined) return [para(`The four add up to ${d.wrongSum}, not ${R.deck}: count again.`)];
      if (d.wrongDummy !== undefined) {
        return [para(`That leaves dummy ${d.wrongDummy}; dummy holds 0–${R.max_hcp}: count again.`)];
      }
      if (d.redeal) {
        return [para(strong("20–20:"), ` nobody plays; ${config.dealer} deals again. Saving records the redeal.`)];
      }
      if (config.four) {
        const own = d.hcp[d.declarer], partner = d.hcp[d.dummy];
        const why = own === partner ? `tied with ${d.dummy}, announced first` : `more than ${d.dummy}'s ${partner}`;
        return [
          para(strong(both(d.side)), ` declare, ${d.ours} HCP against ${d.theirs}.`),
          para(strong(d.declarer), ` declares (${own} HCP, ${why}); ${d.dummy} is dummy.`),
        ];
      }
      const own = d.hcp[d.declarer];
      const why = d.tied.length ? `, tied with ${d.tied.join(" and ")}, announced first` : ", the most";
      const lines = [
        para(
          strong(d.declarer),
          ` declares (${own} HCP${why}) with dummy: ${own} + ${d.dummyHcp} = ${d.ours}. ` +
            `${d.defenders.join(" and ")} defend.`,
        ),
      ];
      if (d.ours < R.scrap_below) lines.push(para(`Under ${R.scrap_below}: ${d.declarer} may scrap the deal.`));
      return lines;
    }

    function score(d) {
      const game = S.value("game"), strain = S.value("strain"), tricks = S.value("tricks");
      const tricksHint = document.querySelector("#group-tricks legend .hint");
      document.querySelectorAll("#group-tricks label").forEach((l) => l.classList.remove("needed"));
      if (game === null || strain === null) {
        tricksHint.textContent = "by declarer and dummy";
        return "";
      }
      const withGame = game === "yes";
      const needed = withGame ? R.for_game[strain] : R.without_game;
      tricksHint.textContent = `by declarer and dummy, ${needed} needed`;
      const neededInput = document.querySelector(`#group-tricks input[value="${needed}"]`);
      if (neededInput) document.querySelector(`label[for="${neededInput.id}"]`).classList.add("needed");
      const contract = `${withGame ? "GAME" : "No GAME"} in ${SYMBOL[strain]}`;
      if (tricks === null) return `${contract}: ${needed} tricks needed.`;
      const taken = Number(tricks);
      if (!d || !d.declarer) return `${contract}: ${needed} tricks needed.`;
      const declarers = d.side ? both(d.side) : d.declarer;
      if (taken < needed) {
        const down = needed - taken;
        const each = config.four ? "" : " each";
        const defenders = d.defenders.join(config.four ? " & " : " and ");
        return `${contract}, ${taken} tricks: ${down} down, ${defenders} score ${down * R.undertrick}${each}.`;
      }
      const points = (taken - 6) * R.trick_value[strain];
      const total = withGame ? `${points} + ${R.bonus} = ${points + R.bonus}` : `${points}`;
      return `${contract}, ${taken} tricks: made, ${declarers} score ${total}.`;
    }

    function update() {
      fillLast();
      const d = derive();
      live.replaceChildren(...describe(d));
      const redeal = !!(d && d.redeal);
      play.hidden = redeal;
      play.querySelectorAll("input").forEach((input) => { input.disabled = redeal; });
      save.textContent = redeal ? `Save: ${config.dealer} deals again` : saveLabel;
      if (last) {
        hint.textContent = last.classList.contains("auto")
          ? `${order[order.length - 1]}: filled in as ${R.deck} minus the others; change it if the announcement differs.`
          : hintText;
      }
      if (dummyOut) dummyOut.textContent = d && d.dummyHcp !== undefined ? d.dummyHcp : "–";
      if (scrap) {
        const may = !!(d && d.declarer && d.ours < R.scrap_below);
        scrap.hidden = !may;
      }
      result.textContent = redeal ? "" : score(d);
    }

    inputs.forEach((input, i) => {
      input.addEventListener("focus", () => input.select());
      input.addEventListener("input", () => {
        if (input === last) {
          if (input.value.trim() === "") delete input.dataset.typed;
          else input.dataset.typed = "1";
          input.classList.remove("auto");
        }
        update();
        // 0, 4–9 or two digits cannot grow into another valid HCP: go on to the next.
        const text = input.value.trim();
        if (/^\d+$/.test(text) && (text.length >= 2 || text === "0" || Number(text) >= 4)) next(i);
      });
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
          event.preventDefault(); // never let Enter press the Scrap button
          next(i);
        }
      });
    });

    function next(i) {
      const following = inputs[i + 1];
      if (following && !(following === last && !last.dataset.typed && last.value !== "")) {
        following.focus();
      } else {
        inputs[i].blur(); // all in: put the keyboard away so GAME and strain show
      }
    }

    S.onChange(update);
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
