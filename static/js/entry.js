// The round page's hand panels, as a phone at a real table needs them. Every form works without
// this file; htmx makes every request (the form's hx-post, hx-trigger and hx-sync). This file
// keeps only what a phone must do itself:
// - a tap on the picker (or on a chosen card) changes the chosen cards at once, each drawn from
//   the page's <template id="chosen-card-template">, and asks htmx to score the hand once the
//   taps pause ("score" event, delay in the form's hx-trigger); an answer for other cards than
//   the panel now holds is not shown;
// - what is entered is kept on the phone as a draft (per group, game, round and seat) until the
//   server has it, so a reload, a locked phone or a closed browser loses nothing;
// - a save made without a connection, or that fails on the way, waits and is sent again when
//   the connection returns (or on "Try again"), with the version it started from and the key
//   this phone gave it, so the server still refuses to overwrite a hand another phone changed
//   meanwhile, but knows a resend behind only this phone's own unanswered saves.
(() => {
  // Only a round page has hands to enter (this script runs once its page is parsed).
  if (!window.htmx || !document.querySelector(".hand-panel")) return;

  const RETRY_EVERY = 15000;
  const DRAFT_PREFIX = "scorekeeper:draft:v1:";
  const TAPS = ["tap", "untap", "clear", "score"];
  const store = (() => {
    try {
      const probe = `${DRAFT_PREFIX}probe`;
      window.localStorage.setItem(probe, "1");
      window.localStorage.removeItem(probe);
      return window.localStorage;
    } catch {
      return null; // private mode with no storage: drafts live as long as the page
    }
  })();
  const STATES = {
    draft: ["not saved yet", "Not saved yet: kept on this phone until you save it."],
    waiting: [
      "waiting to send",
      "Not sent yet: no connection. It is kept on this phone and goes as soon as the connection is back.",
    ],
    sending: ["sending…", "Sending…"],
  };
  // The waiting state's line when the server answered but could not take the save (503).
  const REFUSED = "Not sent yet: the server could not take it. It is kept on this phone and sent again in a moment.";

  const panels = new Map(); // section id -> Panel
  const HOLD = 500; // ms a finger rests on a chosen card in the picker to take one out
  const KEEP_SAVED_IN_VIEW = 5000; // ms: the summary comes within WORD_AFTER_SAVE (live.js)
  const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];
  // What a picker button says it does, as the server says it (games/templatetags/cards.py,
  // pick_name): add the card, add another copy ("Add a second 9 of diamonds"), or no more.
  const pickName = (name, held, limit) => {
    if (!held) return name;
    if (held >= limit) return limit > 1 ? `${name}: all ${limit} chosen` : `${name}: chosen`;
    const nth = ORDINALS[held] ?? `${held + 1}th`;
    return `Add ${/^(e|8|11)/.test(nth) ? "an" : "a"} ${nth} ${name}`;
  };

  // A random key (crypto.randomUUID needs a secure context; a table's Wi-Fi is often plain http).
  const newSaveKey = () => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");

  // Where a hand's draft is kept: per group, game, round and seat (its form's address).
  const draftKey = (form) => `${DRAFT_PREFIX}${form.dataset.draftScope}:${new URL(form.action, location.href).pathname}`;

  class Panel {
    constructor(section) {
      this.section = section;
      this.form = section.querySelector("form.hand-form");
      this.key = draftKey(this.form);
      this.size = Number(this.form.dataset.handSize);
      this.picks = new Map(); // card -> its picker button, in the deck's order
      for (const pick of this.form.querySelectorAll("button.pick")) this.picks.set(pick.value, pick);
      this.order = [...this.picks.keys()];
      this.cardsField = this.form.querySelector("input[name=cards]");
      this.pointsField = this.form.querySelector("input[name=points]");
      this.versionField = this.form.querySelector("input[name=version]");
      this.extraFields = [...this.form.querySelectorAll("[data-extra-field]")]; // e.g. an upcard
      this.cards = [...this.form.querySelectorAll(".chosen-card")].map((button) => button.value);
      this.asked = null; // the entry the last scoring request was sent for
      this.typed = false; // that request reads typed cards: its reading becomes the chosen cards
      this.saving = false;
      this.counting = false; // a count request on its way (the form's own, not a save)
      this.saveAfterCount = null; // a save tapped meanwhile, sent once the count is answered
      this.tappedSave = false; // the save under way was asked for by a tap (not sent again by itself)
      this.memoryDraft = null;
      this.scoredKey = null; // {asked, key}: the server's entry key for the entry last scored
      // Cards a photo's reading was unsure of, each with what to check ({card, words}).
      this.checks = [...this.form.querySelectorAll(".chosen-card.unsure")].map((button) => ({
        card: button.value,
        words: `check: ${button.querySelector("[data-check-words]").textContent}`,
      }));
    }

    // ------------------------------------------------------------------ the entry

    entry() {
      const checked = this.form.querySelector("input[name=outcome]:checked");
      return {
        outcome: checked ? checked.value : "",
        cards: this.cardsField.value.trim(),
        points: this.pointsField.value.trim(),
        extra: Object.fromEntries(this.extraFields.map((field) => [field.name, field.value.trim()])),
      };
    }

    // ------------------------------------------------------------------ the cards

    limit(card) {
      return Number(this.picks.get(card)?.dataset.limit ?? 1);
    }

    setCards(cards, { fromTyping = false } = {}) {
      this.cards = cards.filter((card) => this.picks.has(card)).sort((a, b) => this.order.indexOf(a) - this.order.indexOf(b));
      if (!fromTyping) this.cardsField.value = this.cards.join(" ");
      this.drawChosen();
    }

    tap(card) {
      if (this.cards.filter((c) => c === card).length >= this.limit(card)) return; // all chosen
      this.setCards([...this.cards, card]);
      this.changed();
    }

    untap(card) {
      const cards = [...this.cards];
      const at = cards.indexOf(card);
      if (at < 0) return;
      cards.splice(at, 1);
      const checked = this.checks.findIndex((check) => check.card === card);
      if (checked >= 0) this.checks.splice(checked, 1);
      this.setCards(cards);
      this.changed();
    }

    clear() {
      this.checks = [];
      this.setCards([]);
      this.changed();
    }

    drawChosen() {
      const chosen = this.form.querySelector(".chosen");
      const count = chosen.querySelector(".count");
      count.textContent = `${this.cards.length} of ${this.size} cards`;
      count.classList.toggle("right", this.cards.length === this.size);
      this.form.querySelector("[data-bar-count]").textContent = count.textContent;
      for (const button of chosen.querySelectorAll(".chosen-card")) button.remove();
      const clear = chosen.querySelector("button[name=clear]");
      const template = document.getElementById("chosen-card-template");
      const unchecked = [...this.checks];
      for (const card of this.cards) {
        const pick = this.picks.get(card);
        const button = template.content.firstElementChild.cloneNode(true);
        button.value = card;
        const face = button.querySelector("[data-face]");
        face.replaceChildren(...pick.querySelector(".face-text").cloneNode(true).childNodes);
        for (const ink of ["red", "black", "joker", "star", "wild"]) face.classList.toggle(ink, pick.classList.contains(ink));
        button.querySelector("[data-name]").textContent = `Remove ${pick.dataset.name}`;
        const check = unchecked.findIndex((item) => item.card === card);
        if (check >= 0) {
          // Marked for the eye and in its name: "Remove 6 of clubs check: 6 of clubs, or 9?"
          button.classList.add("unsure");
          button.querySelector("[data-check]").hidden = false;
          button.querySelector("[data-check-words]").textContent = unchecked[check].words.replace(/^check: /, "");
          unchecked.splice(check, 1);
        }
        chosen.insertBefore(button, clear);
      }
      clear.hidden = this.cards.length === 0;
      const held = new Map();
      for (const card of this.cards) held.set(card, (held.get(card) || 0) + 1);
      for (const [card, pick] of this.picks) {
        const n = held.get(card) || 0;
        pick.classList.toggle("held", n > 0);
        // Not disabled when every copy is chosen: a long press still takes one out.
        if (n >= this.limit(card)) pick.setAttribute("aria-disabled", "true");
        else pick.removeAttribute("aria-disabled");
        pick.querySelector(".visually-hidden").textContent = pickName(pick.dataset.name, n, this.limit(card));
        let badge = pick.querySelector(".badge");
        if (!badge && n) {
          badge = Object.assign(document.createElement("span"), { className: "badge" });
          badge.setAttribute("aria-hidden", "true");
          pick.append(badge);
        }
        if (badge) {
          badge.hidden = n === 0;
          badge.textContent = String(n);
        }
      }
    }

    // ------------------------------------------------------------------ scoring

    changed({ typed = false } = {}) {
      // A refusal or a question was about the entry as it was: it goes once the entry changes.
      for (const line of this.form.querySelectorAll("[data-about-entry]")) line.remove();
      this.keepDraft({ pending: false });
      this.showState("draft");
      // Counted by the server once the taps pause; offline, once the connection is back.
      const counting = navigator.onLine === false ? "counted once online" : "counting…";
      this.form.querySelector("[data-bar-points]").textContent = counting;
      // The melds and reasons shown are those of the cards before: greyed and marked busy until
      // the count of these comes (it draws the panel again).
      this.form.querySelector(".preview")?.setAttribute("aria-busy", "true");
      this.typed = typed;
      htmx.trigger(this.form, "score");
    }

    // The answer to a scoring request is shown only if the panel still holds what was asked.
    current(asked) {
      return asked === JSON.stringify(this.entry());
    }

    // A photo's reading replaces the chosen cards (a second photo never adds to the first),
    // kept as a draft and scored as typed cards are; nothing is saved until Save.
    fromPhoto(cards, checks) {
      this.checks = checks;
      this.setCards(cards);
      this.section.querySelector("details").open = true;
      this.changed();
    }

    scored(preview) {
      // The server says which stored hand this entry would be (Hand.entry_key): a kept draft
      // carries it, so the page can tell a draft the server already has without reading it.
      this.scoredKey = { asked: this.asked, key: preview.dataset.entryKey || "" };
      const draft = this.readDraft();
      if (draft && this.current(this.asked)) this.keepDraft({ pending: draft.pending, version: draft.version });
      if (this.typed) {
        // What the server read from the typed text becomes the chosen cards.
        this.setCards((preview.dataset.cards || "").split(" ").filter(Boolean), { fromTyping: true });
      }
      // The pinned bar shows the points the preview below the cards shows.
      const points = this.form.querySelector("[data-bar-points]");
      if (preview.dataset.points) {
        const strong = Object.assign(document.createElement("strong"), { textContent: preview.dataset.points });
        points.replaceChildren(strong, ` ${preview.dataset.pointsWord}`);
      } else {
        points.textContent = "not counted yet";
      }
      this.say("");
    }

    say(text) {
      let line = this.form.querySelector(":scope > .unreachable");
      if (!text) {
        line?.remove();
        return;
      }
      if (!line) {
        line = document.createElement("p");
        line.className = "field-error unreachable";
        line.setAttribute("role", "alert");
        this.form.prepend(line);
      }
      line.textContent = text;
    }

    // ------------------------------------------------------------------ drafts

    readDraft() {
      if (!store) return this.memoryDraft;
      try {
        return JSON.parse(store.getItem(this.key) || "null");
      } catch {
        return null;
      }
    }

    keepDraft({ pending, version }) {
      const old = this.readDraft();
      const entry = this.entry();
      const scored = this.scoredKey;
      const draft = {
        ...entry,
        key: scored && scored.asked === JSON.stringify(entry) ? scored.key : "",
        // This phone's key for the save, the same for every sending until the server has it:
        // a resend behind only its own saves whose answers were lost is then no conflict.
        saveKey: old?.saveKey || newSaveKey(),
        checks: this.checks,
        version: version ?? (old ? old.version : this.versionField.value),
        pending,
        at: Date.now(),
      };
      this.memoryDraft = draft;
      try {
        store?.setItem(this.key, JSON.stringify(draft));
      } catch {
        // storage full: the draft lives as long as the page
      }
      return draft;
    }

    dropDraft() {
      this.memoryDraft = null;
      store?.removeItem(this.key);
    }

    restore() {
      const draft = this.readDraft();
      if (!draft) return;
      const stored = this.section.dataset.savedKey;
      if (stored && draft.key === stored) {
        this.dropDraft(); // the server has it already (its answer was lost on the way)
        return;
      }
      if (!stored && !draft.cards && !draft.points && draft.outcome === this.entry().outcome) {
        this.dropDraft(); // nothing was entered
        return;
      }
      const radio = this.form.querySelector(`input[name=outcome][value="${CSS.escape(draft.outcome)}"]`);
      if (radio) radio.checked = true;
      this.pointsField.value = draft.points || "";
      for (const field of this.extraFields) field.value = draft.extra?.[field.name] ?? field.value;
      this.versionField.value = draft.version;
      this.cardsField.value = draft.cards;
      this.checks = draft.checks || [];
      this.setCards(draft.cards ? draft.cards.split(/\s+/) : [], { fromTyping: true });
      this.section.querySelector("details").open = true;
      this.showState(draft.pending ? "waiting" : "draft");
      htmx.trigger(this.form, "score");
      if (draft.pending) this.send();
    }

    // ------------------------------------------------------------------ saving

    showState(state) {
      const mark = this.section.querySelector("[data-entry-state]");
      const line = this.form.querySelector("[data-send-state]");
      this.section.toggleAttribute("data-draft", Boolean(state));
      mark.hidden = !state;
      line.hidden = !state;
      this.form.querySelector("[data-retry]").hidden = state !== "waiting";
      // A save that could not go says so in the pinned bar too, where Save was tapped.
      const waiting = this.form.querySelector("[data-bar-waiting]");
      if (waiting) {
        waiting.hidden = state !== "waiting";
        waiting.textContent = state === "waiting" ? STATES.waiting[1] : "";
      }
      if (!state) return;
      mark.className = `draft-state ${state}`;
      [mark.textContent, line.textContent] = STATES[state];
    }

    // Why a save waits, in the pinned bar and under the cards.
    waitingBecause(text) {
      this.form.querySelector("[data-send-state]").textContent = text;
      const waiting = this.form.querySelector("[data-bar-waiting]");
      if (waiting) waiting.textContent = text;
    }

    send() {
      if (!this.saving && this.section.isConnected) htmx.trigger(this.form, "submit");
    }

    // The server has the hand (its line and cards came with the answer): the form keeps what
    // was entered, with the hand's new version; the panel closes and the next one opens.
    saved(version, key) {
      this.versionField.value = version;
      this.section.dataset.savedKey = key;
      this.dropDraft();
      this.showState(null);
      this.say("");
      for (const line of this.form.querySelectorAll(":scope > .field-error, .refusal, .question")) line.remove();
      this.section.removeAttribute("data-refused"); // its line shows again: it is saved now
      this.section.removeAttribute("data-conflict");
      this.section.querySelector("details").open = false;
      // The answer to a tap on Save is the hand's line ("Declared and won · 0 points"): it comes
      // to the top of the screen, the next hand opening under it. A save sent again by itself
      // (the connection back) moves nothing.
      const tapped = this.tappedSave;
      this.tappedSave = false;
      this.openNext();
      // After the next one opens: the browser's scroll anchoring would otherwise move the page
      // by that panel's height where the page goes on below the hands (the table photo's form).
      if (tapped) {
        this.section.scrollIntoView({ block: "start" });
        // Held there while the round's summary is drawn again under it (from the stream, or
        // asked): each part is put in before the old one is taken out, and the browser's scroll
        // anchoring may follow the old one down to the page's end (app.js's holdInPlace).
        holdInPlace(this.section.id, KEEP_SAVED_IN_VIEW);
      }
      // Saved before the count of its last taps came (Save within the count's delay): the
      // breakdown of the cards before goes, and the pinned bar says saved (the hand's line
      // has its points).
      const preview = this.form.querySelector('.preview[aria-busy="true"]');
      if (preview) {
        preview.removeAttribute("aria-busy");
        preview.replaceChildren();
        this.form.querySelector("[data-bar-points]").textContent = "saved";
      }
    }

    // The breakdown shown is of the cards before (`changed`): count these.
    countIfStale() {
      if (this.form.querySelector('.preview[aria-busy="true"]')) htmx.trigger(this.form, "score");
    }

    openNext() {
      if (document.querySelector("#entering-for")?.value) return; // this phone enters one hand
      const all = [...document.querySelectorAll(".hand-panel")];
      const at = all.indexOf(this.section);
      const next = [...all.slice(at + 1), ...all.slice(0, at)].find(
        (section) => section.querySelector(".hand-line .unsaved") && !section.querySelector("details").open,
      );
      if (next) next.querySelector("details").open = true;
    }
  }

  function setUp(section) {
    if (!section.querySelector("form.hand-form")) return null;
    const panel = new Panel(section);
    panels.set(section.id, panel);
    return panel;
  }

  const panelOf = (element) => {
    const section = element instanceof Element && element.closest(".hand-panel");
    if (!section) return null;
    const panel = panels.get(section.id);
    return panel && panel.section === section ? panel : setUp(section);
  };

  // A hand saved on another phone (its line swapped in by the live answer) closes here, unless
  // it is being entered on this phone too: the page goes on to the hands still to enter.
  document.addEventListener("htmx:load", (event) => {
    const line = event.target;
    if (!(line instanceof Element) || !line.matches(".hand-line") || !line.querySelector(".saved")) return;
    const panel = panelOf(line);
    if (!panel || panel.readDraft() || panel.cards.length || panel.saving) return;
    panel.section.querySelector("details").open = false;
  });

  const isSave = (detail) => detail.triggeringEvent?.type === "submit";

  // A long press on a chosen card in the picker takes one copy out, where the thumb is; the
  // click that ends it does nothing, wherever it lands: taking the card out may move the
  // picker under the finger (a refusal about the hand as it was leaves the pinned bar), and
  // the click then falls on another card. Any next press starts afresh.
  const ENDING_CLICK = 1000; // ms after the finger is lifted: the click of that press
  let held = null; // {pick, timer, done, lifted}
  const letGo = (event) => {
    if (!held || (event.type === "pointerleave" && event.target !== held.pick)) return;
    if (!held.done) {
      clearTimeout(held.timer);
      held = null;
    } else if (event.type === "pointercancel") {
      held = null; // no click follows
    } else if (event.type === "pointerup") {
      held.lifted = event.timeStamp;
    }
  };
  document.addEventListener("pointerdown", (event) => {
    if (held && !held.done) clearTimeout(held.timer);
    held = null;
    const pick = event.target instanceof Element && event.target.closest("form.hand-form button.pick");
    const panel = pick && panelOf(pick);
    if (!panel?.cards.includes(pick.value)) return;
    const press = { pick, done: false };
    press.timer = setTimeout(() => {
      press.done = true;
      // The hand's panel as it is now: an answer (its scoring) may have been swapped in since.
      const now = panelOf(document.getElementById(panel.section.id)) ?? panel;
      now.untap(pick.value);
      navigator.vibrate?.(20);
    }, HOLD);
    held = press;
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) document.addEventListener(type, letGo, true);
  document.addEventListener("contextmenu", (event) => {
    if (event.target instanceof Element && event.target.closest("form.hand-form button.pick")) event.preventDefault();
  });

  // Taps change the chosen cards here; the form is not sent for them.
  // Caught first (the window, capturing), so that nothing under the finger acts on it.
  window.addEventListener(
    "click",
    (event) => {
      if (!held?.done) return;
      const ending = held.lifted === undefined || event.timeStamp - held.lifted < ENDING_CLICK;
      held = null;
      if (!ending) return;
      event.preventDefault(); // the end of a long press that took a card out
      event.stopPropagation();
    },
    true,
  );
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("form.hand-form button");
    const panel = button && panelOf(button);
    if (!panel) return;
    if (button.name === "save" || button.name === "answer") panel.tappedSave = true;
    if (button.name === "answer") {
      // "Yes, they went out": the entry is that outcome from now on (its draft too).
      const outcome = panel.form.querySelector(`input[name=outcome][value="${CSS.escape(button.value)}"]`);
      if (outcome) outcome.checked = true;
      return; // htmx sends the save, with the answer
    }
    if (button.matches("[data-retry]")) panel.send();
    else if (button.name === "tap") panel.tap(button.value);
    else if (button.name === "untap") panel.untap(button.value);
    else if (button.name === "clear") panel.clear();
    else return;
    event.preventDefault();
  });
  // Enter in a field scores what was typed, rather than saving.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !(event.target instanceof HTMLInputElement)) return;
    const panel = event.target.type !== "radio" && panelOf(event.target);
    if (!panel) return;
    event.preventDefault();
    panel.changed({ typed: event.target.name === "cards" });
  });
  document.addEventListener("change", (event) => {
    if (event.target instanceof Element && event.target.matches("form.hand-form input[name=outcome]")) panelOf(event.target)?.changed();
  });
  document.addEventListener("input", (event) => {
    if (!(event.target instanceof Element) || !event.target.matches("form.hand-form input[name=cards], form.hand-form input[name=points], form.hand-form [data-extra-field]")) return;
    panelOf(event.target)?.changed({ typed: event.target.name === "cards" });
  });

  // ------------------------------------------------------------------ htmx's requests

  document.addEventListener("htmx:confirm", (event) => {
    const panel = panelOf(event.detail.elt);
    if (!panel || !event.detail.elt.matches("form.hand-form")) return;
    if (isSave(event.detail)) {
      panel.keepDraft({ pending: true });
      if (navigator.onLine === false) {
        event.preventDefault(); // sent when the connection is back
        panel.showState("waiting");
      } else {
        panel.showState("sending");
        if (panel.counting) {
          // A count is on its way: the save goes as soon as it is answered, rather than cut
          // it off (the form's hx-sync would abort it, and htmx logs an abort as an error).
          event.preventDefault();
          panel.saveAfterCount = () => event.detail.issueRequest(true);
        }
      }
    } else if (panel.saving || panel.saveAfterCount || navigator.onLine === false) {
      event.preventDefault(); // the save's answer scores the hand; offline, the count says enough
    }
  });
  document.addEventListener("htmx:configRequest", (event) => {
    const panel = panelOf(event.detail.elt);
    if (!panel || !event.detail.elt.matches("form.hand-form")) return;
    const parameters = event.detail.parameters;
    for (const name of TAPS) parameters.delete(name);
    if (isSave(event.detail)) {
      panel.saving = true;
      parameters.set("save", "1");
      const draft = panel.readDraft();
      parameters.set("version", draft?.version ?? panel.versionField.value);
      parameters.set("save_key", draft?.saveKey ?? "");
    } else {
      parameters.delete("save");
      panel.asked = JSON.stringify(panel.entry());
      panel.counting = true;
    }
  });
  const handForm = (config) => config?.elt instanceof Element && config.elt.matches("form.hand-form");
  // A panel drawn again (a refusal, a question, a conflict) is put in before the old one is taken
  // out, and the browser's scroll anchoring follows the old one down the page: the page stays
  // where it was, Save and its answer under the thumb.
  let keptScroll = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const panel = handForm(event.detail.requestConfig) && panelOf(event.detail.requestConfig.elt);
    if (!panel) return;
    keptScroll = window.scrollY;
    const html = event.detail.serverResponse || "";
    if (isSave(event.detail.requestConfig)) {
      const taken = event.detail.xhr.getResponseHeader("X-Hand-Version");
      if (event.detail.shouldSwap && !taken && !html.includes(`id="${panel.section.id}"`)) {
        // Not a panel (the login page after the session ended): keep the entry here.
        event.detail.shouldSwap = false;
        panel.keepDraft({ pending: false });
        panel.showState("draft");
        panel.say("This phone may not save here any more (signed out?). The hand is kept on this phone.");
      }
    } else if (panel.saving || panel.saveAfterCount || !panel.current(panel.asked) || !html.includes('class="preview"')) {
      // (A save waiting for this count goes next, and its answer draws the panel.)
      event.detail.shouldSwap = false;
    }
  });
  // An undo's answer: the round's summary says so where Undo was tapped, and stays there while
  // the undone hand's panel opens again above it.
  let statusTop = null;
  const statusAt = () => document.getElementById("round-status")?.getBoundingClientRect().top ?? null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.requestConfig?.elt?.matches?.("form.undo")) statusTop = statusAt();
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (keptScroll !== null && window.scrollY !== keptScroll) window.scrollTo(0, keptScroll);
    keptScroll = null;
    if (statusTop !== null) window.scrollBy(0, (statusAt() ?? statusTop) - statusTop);
    statusTop = null;
    const config = event.detail.requestConfig;
    const panel = config?.elt instanceof Element && panelOf(config.elt);
    if (!panel) return;
    if (config.elt.matches("[data-photo-form]")) {
      const reading = panel.section.querySelector("[data-photo-reading][data-cards]");
      const cards = reading?.dataset.cards.split(" ").filter(Boolean) ?? [];
      const checks = [...(reading?.querySelectorAll("li[data-card]") ?? [])].map((item) => ({ card: item.dataset.card, words: item.dataset.words }));
      if (cards.length) panel.fromPhoto(cards, checks); // none found: the panel keeps its cards
      return;
    }
    const preview = handForm(config) && panel.form.querySelector(".preview");
    if (preview && !isSave(config)) panel.scored(preview);
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const panel = panels.get(event.detail.elt.closest?.(".hand-panel")?.id);
    if (panel && handForm(event.detail.requestConfig) && !isSave(event.detail.requestConfig)) {
      panel.counting = false; // answered, or not (no connection): a save waiting for it goes
      const save = panel.saveAfterCount;
      panel.saveAfterCount = null;
      save?.();
      return;
    }
    if (!panel || !isSave(event.detail.requestConfig)) return;
    panel.saving = false;
    const version = event.detail.xhr.getResponseHeader("X-Hand-Version");
    if (event.detail.successful && version) {
      panel.saved(version, event.detail.xhr.getResponseHeader("X-Saved-Key") || "");
      return;
    }
    panel.tappedSave = false; // not taken now: sent again later, it moves nothing
    if (!event.detail.successful && event.detail.xhr.status !== 409 && event.detail.xhr.status !== 422) {
      // No connection, a timeout or the server away: the save waits, and the server's check of
      // the version (and of an identical hand) makes a second sending harmless.
      // Said in the pinned bar, where Save was tapped, and under the cards.
      panel.showState("waiting");
      // The server answered but could not take it (503: a full disk, no connection left): its
      // message is shown above the form (app.js); this line must not blame the phone's network.
      if (event.detail.xhr.status) panel.waitingBecause(REFUSED);
    }
  });
  // The page's panels start once htmx has taken the page in (so a kept save can be sent); a
  // panel the server drew later (a save, a refusal, a conflict) starts from what it shows.
  document.addEventListener("htmx:load", (event) => {
    const section = event.detail.elt;
    if (section === document.body) {
      // Only a panel with a draft kept on this phone starts now; the others when first touched.
      for (const panel of document.querySelectorAll(".hand-panel")) {
        const form = panel.querySelector("form.hand-form");
        if (form && store?.getItem(draftKey(form)) != null) setUp(panel)?.restore();
      }
      return;
    }
    if (!(section instanceof Element) || !section.matches(".hand-panel")) return;
    const panel = setUp(section);
    if (!panel) return;
    const old = panel.readDraft();
    if (["data-conflict", "data-refused", "data-undone"].some((mark) => section.hasAttribute(mark))) {
      // The draft stays, no longer waiting to be sent; after a conflict it replaces the hand
      // the server showed, so it carries that hand's version (after an undo, the hand's as
      // the undo left it).
      const fresh = section.hasAttribute("data-conflict") || section.hasAttribute("data-undone");
      const version = fresh ? panel.versionField.value : old?.version;
      panel.keepDraft({ pending: false, version });
      panel.showState("draft");
    }
  });

  // ------------------------------------------------------------------ a photo of the hand

  const PHOTO_SIDE = 1600; // px, the longest side sent: a 12-megapixel photo costs a few hundred KB

  // The photo shrunk on the phone (turned as its EXIF says) to a JPEG; the original where the
  // browser cannot draw it (the server then says what is wrong with it).
  async function shrunk(file) {
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
      const scale = Math.min(1, PHOTO_SIDE / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
      return blob ? new File([blob], "hand.jpg", { type: "image/jpeg" }) : file;
    } catch {
      return file;
    }
  }

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("[data-photo-button]");
    if (button) button.form.querySelector("[data-photo-input]").click();
  });
  document.addEventListener("change", async (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.matches("[data-photo-input]") || !input.files.length) return;
    const form = input.form;
    const reading = form.querySelector("[data-photo-reading]");
    const small = await shrunk(input.files[0]);
    const files = new DataTransfer();
    files.items.add(small);
    input.files = files.files;
    reading.replaceChildren(Object.assign(document.createElement("p"), { className: "photo-note", textContent: "Reading the photo…" }));
    htmx.trigger(form, "photo-ready");
  });
  // Reading a photo needs the server: offline the button says so; everything else works on.
  const photoButtons = () => {
    for (const button of document.querySelectorAll("[data-photo-button]")) {
      const offline = navigator.onLine === false;
      button.disabled = offline;
      const label = button.querySelector("[data-photo-label]");
      label.dataset.online ??= label.textContent; // "Read cards from a photo", "Read the table…"
      label.textContent = offline ? "Reading a photo needs the connection" : label.dataset.online;
    }
  };
  window.addEventListener("online", photoButtons);
  window.addEventListener("offline", photoButtons);
  document.addEventListener("htmx:load", photoButtons);

  // ------------------------------------------------------------------ a photo of the table

  // static/js/table_photo.js says what a table photo's reading gives each panel ("table-hand").
  document.addEventListener("table-hand", (event) => {
    const panel = panelOf(event.target);
    if (panel) panel.fromPhoto(event.detail.cards, event.detail.checks);
  });

  const sendWaiting = () => {
    for (const panel of panels.values()) if (panel.readDraft()?.pending) panel.send();
  };
  window.addEventListener("online", sendWaiting);
  // Cards tapped offline and not being saved are counted once the connection is back.
  window.addEventListener("online", () => {
    for (const panel of panels.values()) {
      if (!panel.saving && !panel.readDraft()?.pending) panel.countIfStale();
    }
  });
  setInterval(() => navigator.onLine !== false && sendWaiting(), RETRY_EVERY);

})();
