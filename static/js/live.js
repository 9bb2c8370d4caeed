// Follows the table from other phones. A page that can (marked [data-live-url]) asks its live
// URL every 2 seconds with the ETag of what it shows: an unchanged table answers 304, a changed
// one its live parts ([data-live] elements with ids), swapped in here. A hand being entered on
// this phone is left as it is; its save still meets the server's version check (the conflict
// view). Polling pauses while the tab is hidden or the phone offline, and backs off on errors.
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
  // Requests this phone made itself (a tap, a save) since the page loaded: an answer drawn
  // before one of them finished may be older than what that request just showed.
  let ownRequests = 0;
  // Parts this phone's user has opened, tapped or typed in since they were drawn.
  const touched = new WeakSet();

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
        if (ownRequests !== ownBefore) {
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

  const changed = (field) => {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") return [...field.options].some((o) => o.selected !== o.defaultSelected);
    return field.type !== "hidden" && field.value !== field.defaultValue;
  };

  // Is this part in use on this phone? A hand being entered (the server drew it so, or it has
  // a draft), a request of its own under way, a field with focus or changed, or opened here.
  function inUse(part) {
    if (part.hasAttribute("data-editing") || part.hasAttribute("data-draft")) return true;
    if (part.classList.contains("htmx-request") || part.querySelector(".htmx-request")) return true;
    const focused = document.activeElement;
    if (focused && part.contains(focused) && focused.matches("input, textarea, select")) return true;
    if ([...part.querySelectorAll("input, textarea, select")].some(changed)) return true;
    const details = part.querySelector("details");
    return touched.has(part) && Boolean(details && details.open);
  }

  function apply(html) {
    const answer = document.createElement("template");
    answer.innerHTML = html;
    answer.content.querySelectorAll("[data-live][id]").forEach((fresh) => {
      const shown = document.getElementById(fresh.id);
      if (!shown || !shown.hasAttribute("data-live")) return;
      const key = fresh.dataset.liveKey;
      if (key !== undefined && key === shown.dataset.liveKey) return;
      if (inUse(shown)) return;
      // Other scripts (drafts kept on the phone) may keep a part as it is.
      const asked = new CustomEvent("live:before-swap", { bubbles: true, cancelable: true, detail: { fresh } });
      if (!shown.dispatchEvent(asked)) return;
      if (window.htmx) {
        window.htmx.swap(shown, fresh.outerHTML, { swapStyle: "outerHTML" });
      } else {
        shown.replaceWith(fresh);
      }
    });
  }

  const mark = (event) => {
    const part = event.target instanceof Element && event.target.closest("[data-live]");
    if (part) touched.add(part);
  };
  const own = () => (ownRequests += 1);
  document.addEventListener("htmx:afterRequest", own);
  document.addEventListener("live:own-request", own); // for requests made without htmx
  // Clicks, not "toggle": browsers also fire that for panels drawn open.
  for (const type of ["input", "change", "click"]) document.addEventListener(type, mark, true);

  document.addEventListener("visibilitychange", () => (document.hidden ? pause() : ask()));
  window.addEventListener("online", () => ask());
  window.addEventListener("offline", pause);
  window.addEventListener("pageshow", (event) => event.persisted && ask());
  schedule(EVERY);
})();
