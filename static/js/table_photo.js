// The round page's photo of the whole table (templates/games/table_photo.html). htmx sends the
// photo and each move of its reading; this file keeps only what a phone must do itself:
// - the seat the table is photographed from is remembered on this phone, per game;
// - each hand of a reading fills its seat's panel, and "Save every hand" saves the panels, both
//   through static/js/entry.js, which keeps the panels. The events between the two files:
//   "table-hand" on a .hand-panel, detail {cards, checks}: the panel holds these cards now;
//   "save-every-hand" on the document, detail {sections}: save these panels, one after another;
//   "every-hand-saved" on the document, from entry.js: all of them were taken.
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

  // A reading (or a move) answered: each hand it gives a seat fills that seat's panel, but a
  // hand a move left as it was (what the player corrected in its panel stays).
  const given = new Map(); // seat -> the cards last given to its panel
  document.addEventListener("htmx:load", (event) => {
    const reading = event.detail.elt;
    if (!(reading instanceof Element) || !reading.matches("[data-table-reading]")) return;
    for (const [hand, section] of panelsOf(reading)) {
      if (given.get(hand.dataset.seat) === hand.dataset.cards) continue;
      given.set(hand.dataset.seat, hand.dataset.cards);
      const cards = hand.dataset.cards.split(" ").filter(Boolean);
      const checks = [...hand.querySelectorAll("li[data-card]")].map((item) => ({ card: item.dataset.card, words: item.dataset.words }));
      section.dispatchEvent(new CustomEvent("table-hand", { bubbles: true, detail: { cards, checks } }));
    }
  });

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("[data-save-every-hand]");
    const reading = button && button.closest("[data-table-reading]");
    if (!reading) return;
    const sections = panelsOf(reading).map(([, section]) => section);
    document.dispatchEvent(new CustomEvent("save-every-hand", { detail: { sections } }));
  });
  // Every hand saved: the reading is done with, and says so in place of its moves.
  document.addEventListener("every-hand-saved", () => {
    const reading = document.querySelector("[data-table-reading]");
    reading?.querySelector("form")?.setAttribute("hidden", "");
    const done = reading?.querySelector("[data-every-hand-saved]");
    if (done) done.hidden = false;
    given.clear();
  });
})();
