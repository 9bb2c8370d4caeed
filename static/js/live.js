// Follows the table from other phones. A page that can (marked [data-live-url]) asks its live
// URL every 2 seconds with the ETag of what it shows: an unchanged table answers 304, a changed
// one what changed, swapped in here. Polling pauses while the tab is hidden or the phone offline,
// asks at once when it is back, and waits longer after each failed poll.
//
// How the live answer and the rest of the page (static/js/entry.js, htmx) share it:
// - Only elements marked [data-live] with an id are swapped, each replaced by the answer's
//   element of the same id. A hand's form (picker, draft, what is being typed) is never one of
//   them: on the round page the parts are the summary, the navigation, the notice, the changes,
//   and each hand's summary line and shown cards.
// - [data-live-key]: when the answer's part has the same key as the shown one, it is left as it
//   is. [data-live-reload]: when its key changes (a game finished or reopened elsewhere), the
//   page is drawn again; drafts are kept on the phone.
// - An answer drawn while this phone had an htmx request of its own under way (a save) may be
//   older than what that request shows: it is dropped and asked again.
// - A hand's line swapped in as saved closes that hand's panel (entry.js), unless the hand is
//   being entered on this phone (a draft, chosen cards, a save under way).
(() => {
  const hook = document.querySelector("[data-live-url]");
  if (!hook || !window.fetch) return;

  const EVERY = 2000;
  const LONGEST_WAIT = 30000;
  const url = hook.dataset.liveUrl;
  let etag = hook.dataset.liveEtag || "";
  let timer = null;
  let asking = false;
  let failures = 0;
  let ownRequests = 0; // htmx requests of this phone, ended since the page loaded
  let ownUnderWay = 0;

  const pause = () => {
    clearTimeout(timer);
    timer = null;
  };
  const schedule = (wait) => {
    pause();
    if (!document.hidden && navigator.onLine !== false) timer = setTimeout(ask, wait);
  };

  async function ask() {
    pause();
    if (asking || document.hidden) return;
    asking = true;
    let wait = EVERY;
    const ownBefore = ownRequests;
    try {
      const response = await fetch(url, {
        headers: etag ? { "If-None-Match": etag } : {},
        cache: "no-store",
        credentials: "same-origin",
        redirect: "error", // signed out: the login page is no table
      });
      if (response.status === 200) {
        const html = await response.text();
        if (ownRequests !== ownBefore || ownUnderWay) {
          wait = EVERY / 8; // ask again for an answer that knows this phone's request
        } else {
          etag = response.headers.get("ETag") || "";
          apply(html);
        }
      } else if (response.status !== 304) {
        throw new Error(`live: ${response.status}`);
      }
      failures = 0;
    } catch {
      failures += 1;
      wait = Math.min(EVERY * 2 ** failures, LONGEST_WAIT);
    } finally {
      asking = false;
    }
    schedule(wait);
  }

  function apply(html) {
    const answer = document.createElement("template");
    answer.innerHTML = html;
    for (const fresh of answer.content.querySelectorAll("[data-live][id]")) {
      const shown = document.getElementById(fresh.id);
      if (!shown?.hasAttribute("data-live")) continue;
      const key = fresh.dataset.liveKey;
      if (key !== undefined && key === shown.dataset.liveKey) continue;
      if (fresh.hasAttribute("data-live-reload")) {
        location.reload();
        return;
      }
      if (shown.contains(document.activeElement) && document.activeElement !== document.body) continue;
      htmx.swap(shown, fresh.outerHTML, { swapStyle: "outerHTML" });
    }
  }

  document.addEventListener("htmx:beforeRequest", () => (ownUnderWay += 1));
  document.addEventListener("htmx:afterRequest", () => {
    ownUnderWay = Math.max(0, ownUnderWay - 1);
    ownRequests += 1;
  });
  document.addEventListener("visibilitychange", () => (document.hidden ? pause() : ask()));
  window.addEventListener("online", () => ask());
  window.addEventListener("offline", pause);
  window.addEventListener("pageshow", (event) => event.persisted && ask());
  schedule(EVERY);
})();
