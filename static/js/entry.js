// The round page's hand panels, as a phone at a real table needs them. Every form works
// without this file; with it:
// - a tap on the picker (or on a chosen card) changes the chosen cards here at once, with no
//   request in between; the melds and points then come from the server (the rules live there),
//   one request in flight per hand, a newer hand replacing an older one, and an answer for
//   cards that are no longer the panel's is never shown;
// - what is entered is kept on the phone as a draft (per game, round and seat) until the server
//   has it, so a reload, a locked phone or a closed browser loses nothing;
// - a save made without a connection, or that times out, waits and is sent again when the
//   connection returns (or on "Try again"), carrying the version it started from, so the server
//   still refuses to overwrite a hand another phone changed meanwhile.
(() => {
  if (!window.fetch || !window.FormData) return;

  const SAVE_TIMEOUT = 10000;
  const SCORE_TIMEOUT = 15000;
  const RETRY_EVERY = 15000;
  const DRAFT_PREFIX = "scorekeeper:draft:v1:";
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

  const panels = new Map(); // section id -> Panel

  class Panel {
    constructor(section) {
      this.section = section;
      this.form = section.querySelector("form.hand-form");
      this.key = `${DRAFT_PREFIX}${this.form.dataset.draftScope}:${new URL(this.form.action, location.href).pathname}`;
      this.size = Number(this.form.dataset.handSize);
      this.order = new Map(); // card -> position in the deck, for showing chosen cards in order
      this.limits = new Map(); // card -> copies in the round's supply
      this.picks = new Map(); // card -> its picker button
      this.form.querySelectorAll("button.pick").forEach((button, index) => {
        this.order.set(button.value, index);
        this.limits.set(button.value, Number(button.dataset.limit));
        this.picks.set(button.value, button);
      });
      this.cardsField = this.form.querySelector("input[name=cards]");
      this.pointsField = this.form.querySelector("input[name=points]");
      this.versionField = this.form.querySelector("input[name=version]");
      this.cards = [...this.form.querySelectorAll(".chosen-card")].map((b) => b.value);
      this.scoring = null; // {controller, asked}
      this.asked = ""; // what the shown preview was scored for
      this.saving = false;
      this.typing = null;
      this.server = this.currentEntry(); // the entry as the server drew it
      this.saved = section.dataset.savedEntry || ""; // the hand as stored ("" when none)
    }

    // ------------------------------------------------------------------ the entry

    outcome() {
      const checked = this.form.querySelector("input[name=outcome]:checked");
      return checked ? checked.value : "";
    }

    currentEntry() {
      return {
        outcome: this.outcome(),
        cards: this.cardsField ? this.cardsField.value.trim() : "",
        points: this.pointsField ? this.pointsField.value.trim() : "",
      };
    }

    static same(a, b) {
      return a.outcome === b.outcome && a.cards === b.cards && a.points === b.points;
    }

    body(extra = {}) {
      const data = new FormData(this.form);
      for (const name of ["tap", "untap", "clear", "save"]) data.delete(name);
      for (const [name, value] of Object.entries(extra)) data.set(name, value);
      return data;
    }

    // ------------------------------------------------------------------ the cards

    setCards(cards, { fromTyping = false } = {}) {
      this.cards = [...cards].sort((a, b) => (this.order.get(a) ?? 999) - (this.order.get(b) ?? 999));
      if (!fromTyping && this.cardsField) this.cardsField.value = this.cards.join(" ");
      this.drawChosen();
    }

    tap(card) {
      const held = this.cards.filter((c) => c === card).length;
      if (held >= (this.limits.get(card) ?? 1)) return;
      this.setCards([...this.cards, card]);
      this.changed();
    }

    untap(card) {
      const at = this.cards.indexOf(card);
      if (at < 0) return;
      const cards = [...this.cards];
      cards.splice(at, 1);
      this.setCards(cards);
      this.changed();
    }

    clear() {
      this.setCards([]);
      this.changed();
    }

    face(card) {
      const pick = this.picks.get(card);
      const wild = pick.classList.contains("wild");
      const colour = ["red", "black", "joker", "star"].find((c) => pick.classList.contains(c)) || "";
      const face = document.createElement("span");
      face.className = ["face", colour, wild ? "wild" : ""].filter(Boolean).join(" ");
      face.setAttribute("role", "img");
      const name = pick.getAttribute("aria-label");
      face.setAttribute("aria-label", colour === "joker" ? "Joker (wild)" : `${name}${wild ? " (wild)" : ""}`);
      const shown = pick.querySelector("[aria-hidden]").cloneNode(true);
      shown.querySelector(".badge")?.remove();
      if (colour === "joker") shown.textContent = "★";
      face.append(shown);
      return face;
    }

    drawChosen() {
      const chosen = this.form.querySelector(".chosen");
      const count = chosen.querySelector(".count");
      count.textContent = `${this.cards.length} of ${this.size} cards`;
      count.classList.toggle("right", this.cards.length === this.size);
      chosen.querySelectorAll(".chosen-card, button[name=clear]").forEach((b) => b.remove());
      for (const card of this.cards) {
        if (!this.picks.has(card)) continue;
        const button = document.createElement("button");
        button.type = "submit";
        button.name = "untap";
        button.value = card;
        button.className = "chosen-card";
        button.setAttribute("aria-label", `Remove ${this.picks.get(card).getAttribute("aria-label")}`);
        button.append(this.face(card));
        chosen.append(button);
      }
      if (this.cards.length) {
        const clear = document.createElement("button");
        clear.type = "submit";
        clear.name = "clear";
        clear.value = "1";
        clear.className = "link-button";
        clear.textContent = "Clear";
        chosen.append(clear);
      }
      const held = new Map();
      for (const card of this.cards) held.set(card, (held.get(card) || 0) + 1);
      for (const [card, pick] of this.picks) {
        const n = held.get(card) || 0;
        pick.classList.toggle("held", n > 0);
        pick.disabled = n >= (this.limits.get(card) ?? 1);
        let badge = pick.querySelector(".badge");
        if (n > 0) {
          if (!badge) {
            badge = document.createElement("span");
            badge.className = "badge";
            badge.setAttribute("aria-hidden", "true");
            pick.append(badge);
          }
          badge.textContent = String(n);
        } else {
          badge?.remove();
        }
      }
    }

    // ------------------------------------------------------------------ scoring

    changed({ typed = false } = {}) {
      this.section.setAttribute("data-editing", "");
      this.keepDraft({ pending: false });
      this.showState();
      this.score({ typed });
    }

    // One request in flight per hand: a newer hand aborts the older one (htmx's hx-sync
    // "replace"), and an answer is shown only if the panel still holds what it was asked for.
    async score({ typed = false } = {}) {
      this.scoring?.controller.abort();
      const asked = JSON.stringify(this.currentEntry());
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), SCORE_TIMEOUT);
      this.scoring = { controller, asked };
      this.section.classList.add("scoring");
      ownRequest();
      try {
        const response = await fetch(this.form.action, {
          method: "POST",
          body: this.body(),
          headers: { "HX-Request": "true" },
          credentials: "same-origin",
          signal: controller.signal,
        });
        const html = await response.text();
        if (this.scoring?.controller !== controller || JSON.stringify(this.currentEntry()) !== asked) return;
        if (!response.ok) {
          this.say(response.status === 503 ? unreachableText(html) : "Couldn't score this hand just now; it is kept here.");
          return;
        }
        this.applyScore(html, typed);
      } catch {
        if (this.scoring?.controller === controller && !controller.signal.aborted) {
          this.say("No connection: the cards are kept on this phone; the points come back with the connection.");
        }
      } finally {
        clearTimeout(timer);
        ownRequest();
        if (this.scoring?.controller === controller) {
          this.scoring = null;
          this.section.classList.remove("scoring");
        }
      }
    }

    applyScore(html, typed) {
      const answer = parse(html);
      const fresh = answer.querySelector(".hand-panel");
      if (!fresh) return;
      const preview = fresh.querySelector(".preview");
      if (preview) this.form.querySelector(".preview").replaceWith(preview);
      this.form.querySelectorAll(":scope > .field-error").forEach((line) => line.remove());
      const error = fresh.querySelector("form > .field-error");
      if (error) this.form.querySelector(".live").before(error);
      if (typed) {
        // What the server read from the typed text becomes the chosen cards.
        const read = [...fresh.querySelectorAll(".chosen-card")].map((b) => b.value);
        this.setCards(read, { fromTyping: true });
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
      if (!store) return this.memoryDraft || null;
      try {
        return JSON.parse(store.getItem(this.key) || "null");
      } catch {
        return null;
      }
    }

    keepDraft({ pending, version }) {
      const old = this.readDraft();
      const draft = {
        ...this.currentEntry(),
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
      this.section.setAttribute("data-draft", "");
      return draft;
    }

    dropDraft() {
      this.memoryDraft = null;
      store?.removeItem(this.key);
      this.section.removeAttribute("data-draft");
    }

    restore() {
      const draft = this.readDraft();
      if (!draft) return;
      const stored = this.saved ? JSON.parse(this.saved) : null;
      if (stored && Panel.same(normal(stored), normal(draft))) {
        this.dropDraft(); // the server has it already (its answer was lost on the way)
        return;
      }
      if (!stored && !draft.cards && !draft.points && draft.outcome === this.server.outcome) {
        this.dropDraft(); // nothing was entered
        return;
      }
      const radio = this.form.querySelector(`input[name=outcome][value="${CSS.escape(draft.outcome)}"]`);
      if (radio) radio.checked = true;
      if (this.pointsField) this.pointsField.value = draft.points || "";
      this.versionField.value = draft.version;
      if (this.cardsField) this.cardsField.value = draft.cards;
      this.setCards(draft.cards ? draft.cards.split(/\s+/).filter((c) => this.picks.has(c)) : [], { fromTyping: true });
      this.section.setAttribute("data-draft", "");
      this.section.setAttribute("data-editing", "");
      this.section.querySelector("details").open = true;
      this.showState(draft.pending ? "waiting" : "draft");
      this.score();
      if (draft.pending) this.save();
    }

    // ------------------------------------------------------------------ saving

    showState(state = this.readDraft() ? "draft" : null) {
      const summary = this.section.querySelector("summary");
      let mark = summary.querySelector("[data-entry-state]");
      const line = this.form.querySelector("[data-send-state]");
      const retry = this.form.querySelector("[data-retry]");
      summary.querySelectorAll(".saved, .unsaved:not([data-entry-state]), .saved-now").forEach((s) => (s.hidden = Boolean(state)));
      if (line) line.hidden = !state;
      if (retry) retry.hidden = state !== "waiting";
      if (!state) {
        mark?.remove();
        return;
      }
      if (!mark) {
        mark = document.createElement("span");
        mark.setAttribute("data-entry-state", "");
        summary.querySelector(".who").after(mark);
      }
      mark.className = `unsaved draft-state ${state}`;
      mark.textContent = { draft: "not saved yet", waiting: "waiting to send", sending: "sending…" }[state];
      if (line) {
        line.textContent = {
          draft: "Not saved yet: kept on this phone until you save it.",
          waiting: "Not sent yet: no connection. It is kept on this phone and goes as soon as the connection is back.",
          sending: "Sending…",
        }[state];
      }
    }

    async save() {
      if (this.saving) return;
      this.keepDraft({ pending: true });
      if (navigator.onLine === false) {
        this.showState("waiting");
        return;
      }
      this.saving = true;
      this.showState("sending");
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), SAVE_TIMEOUT);
      ownRequest();
      let response = null;
      let html = "";
      try {
        response = await fetch(this.form.action, {
          method: "POST",
          body: this.body({ save: "1", version: this.readDraft()?.version ?? this.versionField.value }),
          headers: { "HX-Request": "true" },
          credentials: "same-origin",
          signal: controller.signal,
        });
        html = await response.text();
      } catch {
        response = null; // offline or timed out: the save waits, and the server's check of
        // the version (and of an identical hand) makes a second sending harmless
      } finally {
        clearTimeout(timer);
        ownRequest();
        this.saving = false;
      }
      if (!response || response.status === 503 || response.status === 502 || response.status === 504) {
        this.showState("waiting");
        if (response) this.say(unreachableText(html));
        return;
      }
      if (response.status === 403 || response.redirected) {
        this.keepDraft({ pending: false });
        this.showState("draft");
        this.say("This phone may not save here any more (signed out?). The hand is kept on this phone.");
        return;
      }
      const fresh = parse(html).querySelector(".hand-panel");
      if (!fresh) {
        this.keepDraft({ pending: false });
        this.showState("draft");
        this.say("The save was not taken; the hand is kept on this phone.");
        return;
      }
      if (response.ok) {
        this.dropDraft();
        const next = this.replace(fresh);
        window.htmx?.trigger(document.body, "round-changed");
        next.openNext();
        return;
      }
      // Refused (422) or saved from another phone meanwhile (409): the server's panel says
      // why and holds this phone's entry; the draft stays, no longer waiting to be sent.
      // After a conflict the draft replaces the hand the server showed: its version.
      const shown = response.status === 409 ? fresh.querySelector("input[name=version]")?.value : undefined;
      this.keepDraft({ pending: false, version: shown });
      const next = this.replace(fresh);
      if (response.status === 409) window.htmx?.trigger(document.body, "round-changed");
      next.section.setAttribute("data-draft", "");
      next.section.setAttribute("data-editing", "");
      next.showState("draft");
    }

    replace(fresh) {
      fresh.removeAttribute("data-live-stale");
      this.section.replaceWith(fresh);
      window.htmx?.process(fresh);
      panels.delete(this.section.id);
      return setUp(fresh);
    }

    openNext() {
      if (document.querySelector("#entering-for")?.value) return; // this phone enters one hand
      const all = [...document.querySelectorAll(".hand-panel")];
      const after = [...all.slice(all.indexOf(this.section) + 1), ...all.slice(0, all.indexOf(this.section))];
      const next = after.find((s) => s.querySelector("summary .unsaved") && !s.querySelector("details").open);
      if (!next) return;
      next.querySelector("details").open = true;
      next.scrollIntoView({ block: "start" });
    }
  }

  // An entry as compared with the stored hand: cards in any order, points only when counted.
  function normal(entry) {
    return {
      outcome: entry.outcome,
      cards: String(entry.cards || "").toUpperCase().split(/\s+/).filter(Boolean).sort().join(" "),
      points: entry.outcome === "points" ? String(entry.points ?? "") : "",
    };
  }

  // The live table drops a poll's answer that was drawn while this phone's own request was
  // under way: it may be older than what that request shows.
  function ownRequest() {
    document.dispatchEvent(new CustomEvent("live:own-request"));
  }

  function parse(html) {
    const holder = document.createElement("template");
    holder.innerHTML = html;
    return holder.content;
  }

  function unreachableText(html) {
    const said = parse(html).querySelector("[data-unreachable]");
    return said ? said.textContent.trim() : "Can't reach the scores right now; the hand is kept on this phone.";
  }

  function setUp(section) {
    if (!section.querySelector("form.hand-form[data-hand-size]")) return null;
    const panel = new Panel(section);
    panels.set(section.id, panel);
    return panel;
  }

  const panelOf = (element) => {
    const section = element.closest(".hand-panel");
    if (!section) return null;
    let panel = panels.get(section.id);
    if (!panel || panel.section !== section) panel = setUp(section);
    return panel;
  };

  // Taps: handled here, before htmx or the browser would send the form.
  document.addEventListener(
    "click",
    (event) => {
      const button = event.target instanceof Element && event.target.closest("form.hand-form button[name]");
      if (button?.matches("[data-retry]")) {
        event.preventDefault();
        panelOf(button)?.save();
        return;
      }
      if (!button || !["tap", "untap", "clear", "save"].includes(button.name)) return;
      const panel = panelOf(button);
      if (!panel) return;
      event.preventDefault();
      event.stopPropagation();
      if (button.name === "tap") panel.tap(button.value);
      else if (button.name === "untap") panel.untap(button.value);
      else if (button.name === "clear") panel.clear();
      else panel.save();
    },
    true,
  );
  // Enter in a field rescores rather than pressing the first button of the form.
  document.addEventListener(
    "submit",
    (event) => {
      const panel = event.target instanceof Element && event.target.matches("form.hand-form") && panelOf(event.target);
      if (!panel) return;
      event.preventDefault();
      event.stopPropagation();
      panel.changed({ typed: true });
    },
    true,
  );
  document.addEventListener("change", (event) => {
    const field = event.target;
    if (!(field instanceof Element) || !field.matches("form.hand-form input[name=outcome]")) return;
    panelOf(field)?.changed();
  });
  document.addEventListener("input", (event) => {
    const field = event.target;
    if (!(field instanceof Element) || !field.matches("form.hand-form input[name=cards], form.hand-form input[name=points]")) return;
    const panel = panelOf(field);
    if (!panel) return;
    panel.keepDraft({ pending: false });
    panel.section.setAttribute("data-editing", "");
    panel.showState("draft");
    clearTimeout(panel.typing);
    panel.typing = setTimeout(() => panel.changed({ typed: field.name === "cards" }), 400);
  });
  // The live table leaves a hand with a draft as it is (live.js asks before each swap).
  document.addEventListener("live:before-swap", (event) => {
    const section = event.target;
    if (section.classList?.contains("hand-panel") && panelOf(section)?.readDraft()) event.preventDefault();
  });
  // A panel htmx swapped in (Undo, a live update) starts from what it shows.
  document.addEventListener("htmx:afterSettle", (event) => {
    const target = event.detail.elt;
    if (target instanceof Element && target.matches(".hand-panel")) setUp(target);
  });

  const sendWaiting = () => {
    for (const panel of panels.values()) {
      if (panel.section.isConnected && panel.readDraft()?.pending) panel.save();
    }
  };
  window.addEventListener("online", sendWaiting);
  setInterval(() => navigator.onLine !== false && sendWaiting(), RETRY_EVERY);

  const start = () => {
    document.querySelectorAll(".hand-panel").forEach((section) => setUp(section)?.restore());
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
