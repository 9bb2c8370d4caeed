// Small progressive touches; every form works without this file.
document.documentElement.classList.add("js");

// The phone's time zone, so the server shows times in it when the group chose none.
try {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone && /^[A-Za-z0-9_+\/-]+$/.test(zone) && !document.cookie.split("; ").includes(`tz=${zone}`)) {
    document.cookie = `tz=${zone}; path=/; max-age=31536000; samesite=lax`;
  }
} catch (error) {
  // No Intl time zone: times stay in the server's zone.
}

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
    } catch (error) {
      lock = null; // refused (battery saver, no permission): the screen may sleep
    }
  };
  document.addEventListener("visibilitychange", request);
  request();
};

document.addEventListener("DOMContentLoaded", () => {
  keepAwake();
  // New game: tap a saved player to add them to the seat order.
  const players = document.querySelector("#id_players");
  document.querySelectorAll("[data-add-player]").forEach((chip) => {
    chip.addEventListener("click", () => {
      const names = players.value.split(",").map((n) => n.trim()).filter(Boolean);
      const name = chip.dataset.addPlayer;
      if (!names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name);
      players.value = names.join(", ");
      chip.disabled = true;
    });
  });
  // New game: show only the chosen game's options.
  const kinds = document.querySelectorAll("input[name=kind]");
  const showOptions = () => {
    const chosen = document.querySelector("input[name=kind]:checked");
    document.querySelectorAll(".options[data-game]").forEach((box) => {
      box.hidden = Boolean(chosen) && box.dataset.game !== chosen.value;
    });
  };
  kinds.forEach((input) => input.addEventListener("change", showOptions));
  showOptions();
});
