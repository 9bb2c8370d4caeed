// Small progressive touches; every form works without this file.
document.documentElement.classList.add("js");

// The phone's time zone, so the server shows times in it when the group chose none. The first
// Intl time zone of a page loads its data, a long task on a slow phone: asked at once only while
// the server does not know the zone (so this page's stream is drawn in it), else checked when
// the page is idle (a phone that travelled).
const noteTimeZone = () => {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && /^[A-Za-z0-9_+/-]+$/.test(zone) && !document.cookie.split("; ").includes(`tz=${zone}`)) {
      document.cookie = `tz=${zone}; path=/; max-age=31536000; samesite=lax`;
    }
  } catch {
    // No Intl time zone: times stay in the server's zone.
  }
};
// The answer to a tap stays where the thumb was: the element with this id is held at its place
// on the screen while the page grows or shrinks around it (panels opening and filling above it,
// parts drawn again under it: scroll anchoring keeps the top-most element still instead, or
// follows an old part as it goes), until the thumb moves the page itself, `ms` pass, or the
// returned release is called (before a scroll of the page's own). One hold at a time.
let releaseHold = null;
window.holdInPlace = (id, ms) => {
  releaseHold?.();
  const top = document.getElementById(id)?.getBoundingClientRect().top;
  if (top === undefined) return () => {};
  const keep = () => {
    const element = document.getElementById(id); // drawn again, it is the new one
    if (!element) return release();
    const moved = element.getBoundingClientRect().top - top;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
  };
  const watching = new ResizeObserver(keep);
  watching.observe(document.body);
  const moves = ["touchstart", "wheel", "keydown", "pointerdown", "click"];
  const timer = setTimeout(() => release(), ms);
  const release = () => {
    watching.disconnect();
    clearTimeout(timer);
    for (const type of moves) window.removeEventListener(type, release, true);
    if (releaseHold === release) releaseHold = null;
  };
  for (const type of moves) window.addEventListener(type, release, { capture: true, passive: true });
  releaseHold = release;
  return release;
};

if (!/(?:^|; )tz=/.test(document.cookie)) noteTimeZone();
else if (window.requestIdleCallback) requestIdleCallback(noteTimeZone, { timeout: 5000 });
else setTimeout(noteTimeZone, 3000);

// Installable app: the service worker caches the app shell so pages open at once.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
  });
}

// Keep the screen on while a round is being entered (Screen Wake Lock API where the browser
// has it; nothing where it does not). The lock ends when the page is hidden, so it is asked
// for again when the page comes back.
const keepAwake = () => {
  if (!("wakeLock" in navigator) || !document.querySelector("[data-keep-awake]")) return;
  let lock = null;
  const request = async () => {
    if (document.visibilityState !== "visible" || (lock && !lock.released)) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; });
    } catch {
      lock = null; // refused (battery saver, no permission): the screen may sleep
    }
  };
  document.addEventListener("visibilitychange", request);
  request();
};

// A refused htmx request that htmx does not swap (the database out of reach, 503): show the
// server's message in the panel that asked, and keep what was entered there.
document.addEventListener("htmx:responseError", (event) => {
  const xhr = event.detail.xhr;
  if (xhr.status !== 503) return;
  const holder = document.createElement("div");
  holder.innerHTML = xhr.responseText;
  const said = holder.querySelector("[data-unreachable]");
  const text = said ? said.textContent : "Can't reach the scores right now; try again in a moment.";
  const where = event.detail.elt.closest("[data-messages]") || document.querySelector("main");
  let line = where.querySelector(":scope > .unreachable, :scope form > .unreachable");
  if (!line) {
    line = document.createElement("p");
    line.className = "field-error unreachable";
    line.setAttribute("role", "alert");
    (where.querySelector("form") || where).prepend(line);
  }
  line.textContent = text;
});
document.addEventListener("htmx:afterRequest", (event) => {
  if (!event.detail.successful) return;
  const where = event.detail.elt.closest("[data-messages]");
  for (const line of where?.querySelectorAll(".unreachable") ?? []) line.remove();
});

// A <details data-opened-event> asks htmx for its contents each time it opens, never as it
// closes: htmx listens for "details-opened" (its hx-trigger), since a filter such as
// toggle[this.open] would be JavaScript evaluated from a string, which the page's CSP forbids.
document.addEventListener(
  "toggle",
  (event) => {
    const box = event.target;
    if (box instanceof HTMLDetailsElement && box.open && box.hasAttribute("data-opened-event")) {
      box.dispatchEvent(new Event("details-opened"));
    }
  },
  true, // toggle does not bubble
);

// Round page: choosing whose hand this phone enters opens that panel at once.
document.addEventListener("change", (event) => {
  const form = event.target instanceof Element && event.target.closest("form[data-submit-on-change]");
  if (form) form.submit();
});

// What the page's own elements need, once the page is parsed.
const start = () => {
  keepAwake();
  // New game: tap a saved player to add them to the seat order, tap again to take them out;
  // each chip shows whether its name is among those typed.
  const players = document.querySelector("#id_players");
  const chips = document.querySelectorAll("[data-add-player]");
  const typed = () => players.value.split(/[,\n]/).map((n) => n.trim()).filter(Boolean);
  const same = (a, b) => a.toLowerCase() === b.toLowerCase();
  const showPicked = () => {
    const names = typed();
    for (const chip of chips) {
      chip.setAttribute("aria-pressed", String(names.some((n) => same(n, chip.dataset.addPlayer))));
    }
  };
  for (const chip of chips) {
    chip.addEventListener("click", () => {
      const name = chip.dataset.addPlayer;
      const names = typed();
      const kept = names.filter((n) => !same(n, name));
      players.value = (kept.length < names.length ? kept : [...names, name]).join(", ");
      showPicked();
    });
  }
  if (players && chips.length) {
    players.addEventListener("input", showPicked);
    showPicked();
  }
  // New game: show only the chosen game's options.
  const kinds = document.querySelectorAll("input[name=kind]");
  const showOptions = () => {
    const chosen = document.querySelector("input[name=kind]:checked");
    document.querySelectorAll(".options[data-game]").forEach((box) => {
      box.hidden = Boolean(chosen) && box.dataset.game !== chosen.value;
    });
  };
  for (const input of kinds) input.addEventListener("change", showOptions);
  showOptions();
  // New game: an option that only counts with another's choice (a pool limit with pool
  // play) shows only then.
  const dependent = document.querySelectorAll("[data-shown-if]");
  const showDependent = () => {
    for (const field of dependent) {
      const chosen = document.querySelector(`input[name="${CSS.escape(field.dataset.shownIf)}"]:checked`);
      field.hidden = Boolean(chosen) && chosen.value !== field.dataset.shownValue;
    }
  };
  for (const field of dependent) {
    for (const input of document.querySelectorAll(`input[name="${CSS.escape(field.dataset.shownIf)}"]`)) {
      input.addEventListener("change", showDependent);
    }
  }
  showDependent();
  // Invitation and guest links: share with the Web Share API where the phone has it, else copy.
  document.querySelectorAll("[data-share]").forEach((box) => {
    const field = box.querySelector("[data-share-link]");
    const said = box.querySelector("[data-copied]");
    const shareButton = box.querySelector("[data-share-button]");
    if (navigator.share && shareButton) {
      shareButton.hidden = false;
      shareButton.addEventListener("click", () => {
        navigator.share({ title: field.dataset.shareTitle, url: field.value }).catch(() => {});
      });
    }
    box.querySelector("[data-copy-button]").addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(field.value);
        said.textContent = "Copied.";
      } catch {
        field.select();
        said.textContent = document.execCommand("copy") ? "Copied." : "Select the link and copy it.";
      }
    });
  });
};
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
