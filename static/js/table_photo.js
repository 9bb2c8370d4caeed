// The round page's photo of the whole table (templates/games/table_photo.html). htmx sends the
// photo and each move of its reading; this file keeps only what a phone must do itself:
// - the seat the table is photographed from is remembered on this phone, per game;
// - each hand of a reading fills its seat's panel, through static/js/entry.js, which keeps the
//   panels: the one event between them is "table-hand" on a .hand-panel, detail {cards, checks}
//   (the panel holds these cards now, as a photo of that hand would leave it);
// - "Save every hand" sends each panel holding a draft as its own Save sends it (entry.js keeps
//   the draft, its version and its key), one after another so that each is checked against those
//   saved before it; the first one not taken (refused, asked about, changed on another phone:
//   its panel drawn again) stops it and comes into view; once all are taken the reading says so.
(() => {
  const form = document.querySelector("[data-table-photo-form]");
  if (!window.htmx || !form) return;

  const seat = form.querySelector("[data-photographer]");
  const key = form.dataset.remember;
  try {
    const kept = window.localStorage.getItem(key);
    if (kept && [...seat.options].some((option) => option.value === kept)) seat.value = kept;
  } catch {
    // no storage: the page's own choice stands
  }
  seat.addEventListener("change", () => {
    try {
      window.localStorage.setItem(key, seat.value);
    } catch {
      // no storage: asked again next time
    }
  });

  const panelsOf = (reading) =>
    [...reading.querySelectorAll("[data-table-hand]")].map((hand) => [hand, document.getElementById(`hand-${hand.dataset.seat}`)]).filter(([, section]) => section);

  // The control and its reading stay where the thumb was while the panels above it open and
  // fill as a reading comes (thousands of pixels), through the panels' later growth too (their
  // points come after, later on a slow network): app.js's holdInPlace.
  const HOLD = 15000;
  let release = null;

  // A reading (or a move) answered: each hand it gives a seat fills that seat's panel, but a
  // hand a move left as it was (what the player corrected in its panel stays), and a hand the
  // photo found no card of (the panel keeps what it holds, as after a hand's own photo).
  const given = new Map(); // seat -> the cards last given to its panel
  let photoSent = false; // the reading coming answers a photo (not a move)
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt === form) photoSent = true;
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.elt === form && !event.detail.successful && !event.detail.xhr?.status) photoSent = false; // not sent: no reading comes
  });
  document.addEventListener("htmx:load", (event) => {
    const reading = event.detail.elt;
    if (!(reading instanceof Element) || !reading.matches("[data-table-reading]")) return;
    const photo = photoSent;
    photoSent = false;
    release = holdInPlace(form.closest("section").id, HOLD);
    for (const [hand, section] of panelsOf(reading)) {
      if (given.get(hand.dataset.seat) === hand.dataset.cards) continue;
      // A photo's hand with no card found: its panel keeps what it holds. (A move may empty a
      // hand: the player moved its cards away.)
      if (!hand.dataset.cards.trim() && photo) continue;
      given.set(hand.dataset.seat, hand.dataset.cards);
      const cards = hand.dataset.cards.split(" ").filter(Boolean);
      const checks = [...hand.querySelectorAll("li[data-card]")].map((item) => ({ card: item.dataset.card, words: item.dataset.words }));
      section.dispatchEvent(new CustomEvent("table-hand", { bubbles: true, detail: { cards, checks } }));
    }
    // A move's button went with the reading it was in: the focus goes on to the reading's
    // note (what the move did), not back to the top of the page.
    if (!document.activeElement || document.activeElement === document.body) reading.querySelector(".photo-note, .field-error")?.focus({ preventScroll: true });
  });

  let waiting = []; // the panels still to save after the one being sent
  let sending = null;
  const saveNext = () => {
    sending = waiting.shift() ?? null;
    if (sending && navigator.onLine === false) {
      // Offline: each is kept on this phone, waiting, and goes when the connection is back.
      for (const section of [sending, ...waiting]) htmx.trigger(section.querySelector("form.hand-form"), "submit");
      [waiting, sending] = [[], null];
      return;
    }
    if (sending) {
      htmx.trigger(sending.querySelector("form.hand-form"), "submit");
      return;
    }
    // Every hand taken: the reading is done with, and says so in place of its moves.
    const reading = document.querySelector("[data-table-reading]");
    reading?.querySelector("form")?.setAttribute("hidden", "");
    const done = reading?.querySelector("[data-every-hand-saved]");
    if (done) done.hidden = false;
    form.querySelector("[data-photo-reading]").textContent = "";
    given.clear();
    release?.();
    document.getElementById("round-status")?.scrollIntoView({ block: "start" }); // what is left to do
  };
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("[data-save-every-hand]");
    const reading = button?.closest("[data-table-reading]");
    if (!reading) return;
    waiting = panelsOf(reading).map(([, section]) => section).filter((section) => section.hasAttribute("data-draft"));
    if (waiting.length) saveNext();
  });
  const sent = (event) => {
    const id = event.detail.elt.closest?.(".hand-panel")?.id;
    return sending && id === sending.id && event.detail.requestConfig?.triggeringEvent?.type === "submit";
  };
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!sent(event)) return;
    if (event.detail.successful && event.detail.xhr.getResponseHeader("X-Hand-Version")) saveNext();
    else [waiting, sending] = [[], null]; // not sent (no connection, the server away): it waits
  });
  // A hand drawn again in answer to its save: the saving stops there, the panel in view.
  document.addEventListener("htmx:load", (event) => {
    const section = event.detail.elt;
    if (!sending || !(section instanceof Element) || section.id !== sending.id) return;
    [waiting, sending] = [[], null];
    release?.();
    section.scrollIntoView({ block: "start" });
  });
})();
