// Follows the table from other phones. A page that can (marked [data-live-url]) holds a stream
// of server-sent events ([data-live-stream], through htmx's SSE extension) that says when its
// table changed; it then asks its live URL once with the ETag of what it shows, and swaps in
// what changed. An unchanged table answers 304. A round page's stream carries a save's or an
// undo's change itself ("change"), which the page swaps in without asking when it shows the
// version before.
//
// Where no stream can be held (no EventSource, a server that holds none and answers 204, a
// proxy that buffers the events) the page asks its live URL every 2 seconds instead, as long
// as no event comes: it falls back by itself, and goes back to the stream when events come
// again. A stream that drops (sleep, a network change, a stopped worker) is opened again by
// the browser; its first event is the table's state, so the page catches up by asking once.
// Asking pauses while the tab is hidden or the phone offline, asks at once when it is back.
// When the server is behind (an ask that fails, times out or answers slowly, a 503 with its
// Retry-After) the page backs off: the next ask, polled or at the stream's word, waits longer
// each time, up to 30 s, instead of adding asks to the queue; a quick answer brings the wait
// back down. A phone whose asks have had no answer for 10 s says so in its status line
// ([data-live-status], role=status): plainly while the server is only slow, as a problem once
// the asks fail; it clears at the next answer.
//
// How the live answer and the rest of the page (static/js/entry.js, htmx) share it:
// - Only elements marked [data-live] with an id are swapped, each replaced by the answer's
//   element of the same id. A hand's form (picker, draft, what is being typed) is never one of
//   them: on the round page the parts are the summary, the navigation, the notice, the changes,
//   and each hand's summary line and shown cards.
// - [data-live-key]: when the answer's part has the same key as the shown one, it is left as it
//   is. [data-live-reload]: when its key changes (a game finished or reopened elsewhere), the
//   page is drawn again; drafts are kept on the phone.
// - An answer drawn while this phone had a post of its own under way (a save) may be older than
//   what that post shows: it is dropped and asked again. A change the stream carries while a
//   post is under way (most often that very save's, heard at its commit before its answer
//   arrives) is held, and swapped in once the post is answered if it follows on from what the
//   page shows and is not older than the post's own version; any other word that comes while a
//   post is under way is asked about once the post is answered.
// - A note this phone's own answer wrote ([data-own], "You undid…") is kept over the same note
//   ([data-note]) as the live answer draws it for every phone.
// - A hand's line swapped in as saved closes that hand's panel (entry.js), unless the hand is
//   being entered on this phone (a draft, chosen cards, a save under way).
(() => {
  const hook = document.querySelector("[data-live-url]");
  if (!hook || !window.fetch) return;

  const EVERY = 2000; // between two asks while there is no stream
  const FIRST_EVENT = 4000; // a stream that says nothing this long after the page opened is held up
  const QUIET = 40000; // a stream pings every 15 s: silent this long, it is lost
  const LONGEST_WAIT = 30000;
  const SPREAD = 150; // ms over which the phones told of one change ask about it
  const SLOW = 1000; // an answer slower than this says the server is behind
  const ASK_WITHIN = 20000; // an ask with no answer by then is given up (and counts as failed)
  const MISSED = 10000; // asks with no answer this long: the page says so
  const statusLine = document.querySelector("[data-live-status]");
  const url = hook.dataset.liveUrl;
  let etag = hook.dataset.liveEtag || "";
  let timer = null;
  let watchdog = null;
  let spread = null;
  let polling = true; // until the stream's first event
  let asking = false;
  let again = false; // word of a change came while asking
  let held = []; // changes the stream carried while this phone's own post was under way
  let failures = 0;
  let ownRequests = 0; // htmx requests of this phone, ended since the page loaded
  let ownUnderWay = 0;
  let ownAtEtag = 0; // ownRequests when the shown state (etag) was set
  let ownVersion = 0; // the latest game version this phone's own saves made
  let behind = 0; // ms each ask waits first while the server is behind
  let missing = null; // the timer that says no answer came, from the first unanswered ask
  let failed = ""; // why the last ask failed, if it did

  const pause = () => {
    clearTimeout(timer);
    timer = null;
  };
  const schedule = (wait) => {
    pause();
    if (!document.hidden && navigator.onLine !== false) timer = setTimeout(ask, wait);
  };

  // The status line: what the page has to say about its asks, or nothing.
  const say = (words, problem) => {
    if (!statusLine) return;
    if (statusLine.textContent !== words) statusLine.textContent = words;
    statusLine.classList.toggle("problem", Boolean(problem));
  };
  const missed = () => {
    const seconds = Math.round(MISSED / 1000);
    if (failed) say(`The server has not answered for ${seconds} seconds (${failed}). Still trying.`, true);
    else say(`Waiting for the server: the table may be behind by ${seconds} seconds or more.`, false);
  };
  const answered = () => {
    clearTimeout(missing);
    missing = null;
    failed = "";
    say("", false);
  };

  async function ask() {
    pause();
    // Hidden or offline: asked once the page is seen or the phone back online (no failed ask,
    // no back-off for a network the phone knows is gone).
    if (document.hidden || navigator.onLine === false) return;
    if (asking || ownUnderWay) {
      again = true; // after this phone's own request (its save), whose answer the change may be
      return;
    }
    asking = true;
    again = false;
    if (missing === null) missing = setTimeout(missed, MISSED);
    let wait = polling ? EVERY : null;
    const ownBefore = ownRequests;
    const started = Date.now();
    try {
      const response = await fetch(url, {
        headers: etag ? { "If-None-Match": etag } : {},
        cache: "no-store",
        credentials: "same-origin",
        redirect: "error", // signed out: the login page is no table
        signal: AbortSignal.timeout?.(ASK_WITHIN),
      });
      if (response.status === 200) {
        const html = await response.text();
        if (ownRequests !== ownBefore || ownUnderWay) {
          wait = EVERY / 8; // ask again for an answer that knows this phone's request
        } else {
          etag = response.headers.get("ETag") || "";
          ownAtEtag = ownBefore;
          apply(html);
        }
      } else if (response.status !== 304) {
        const retry = Number(response.headers.get("Retry-After")) * 1000;
        throw Object.assign(new Error(`error ${response.status}`), { retry });
      }
      failures = 0;
      const took = Date.now() - started;
      // Slow: the server is behind; wait about as long as it took before the next ask.
      behind = took > SLOW ? Math.min(Math.max(behind * 2, took), LONGEST_WAIT) : Math.floor(behind / 2);
      answered();
    } catch (error) {
      failures += 1;
      failed = error?.name === "TimeoutError" ? "no answer" : error?.retry !== undefined ? error.message : "no connection";
      behind = Math.min(Math.max(EVERY * 2 ** failures, error?.retry || 0), LONGEST_WAIT);
      wait = behind;
      if (statusLine?.textContent) missed(); // already said: with the new reason
    } finally {
      asking = false;
    }
    if (again) wait = 0; // asked for meanwhile: as soon as the server's pace allows
    if (wait !== null) schedule(Math.max(wait, behind));
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
      const openList = shown.closest("details[open][data-opened-event]");
      // A note of this phone's own answer ([data-own]: "You undid…", with the way to the hand)
      // stays over the same note as every phone has it drawn.
      for (const own of shown.querySelectorAll("[data-own][id]")) {
        const drawn = fresh.querySelector(`#${CSS.escape(own.id)}`);
        if (drawn && drawn.dataset.note === own.dataset.note) drawn.replaceWith(own.cloneNode(true));
      }
      htmx.swap(shown, fresh.outerHTML, { swapStyle: "outerHTML" });
      // A list being read (the round's changes) is asked again when what it counts moves.
      if (openList) htmx.trigger(openList, "details-opened");
    }
  }

  // A change the stream carries (a round page's: "<from version> <its ETag>" on the first line,
  // then the parts) is swapped in at once when the page shows the version it changes; else,
  // or while this phone asks or posts, it is word of a change like any other.
  // The version an ETag of the live URL starts with ("7.<digest>", made weak by gzip).
  const versionOf = (tag) => tag.replace(/^W\//, "").replaceAll('"', "").split(".")[0];

  function carried(data) {
    const end = data.indexOf("\n");
    const [from, fresh] = data.slice(0, end).split(" ");
    const shown = versionOf(etag);
    // A save of this phone's own answered since the shown state was set, and newer than this
    // change (its hand's line is newer): asked about, not swapped over it.
    const to = Number(versionOf(fresh));
    const older = ownRequests !== ownAtEtag && to < ownVersion;
    if (end < 0 || !fresh || from !== shown || asking || ownUnderWay || older) return false;
    etag = fresh;
    apply(data.slice(end + 1));
    return true;
  }

  // How the page follows the table now, for whoever looks (tests, a curious developer).
  const following = (how) => {
    hook.dataset.liveState = how;
  };
  // No word from the stream: ask the live URL every 2 seconds until there is.
  const fallBack = () => {
    if (polling) return;
    polling = true;
    following("polling");
    ask();
  };
  const expect = (wait) => {
    clearTimeout(watchdog);
    watchdog = setTimeout(fallBack, wait);
  };

  const stream = hook.dataset.liveStream;
  if (stream && window.EventSource) {
    // A dropped stream the browser opens again by itself (a network change, a restarted
    // server) is no error to report: the page asks meanwhile. Only a stream the server refused
    // is handed to htmx's extension, which tries again later.
    htmx.createEventSource = (address) => {
      const source = new EventSource(address, { withCredentials: true });
      let refused = null;
      Object.defineProperty(source, "onerror", {
        get: () => refused,
        set: (handler) => {
          refused = handler;
        },
      });
      source.addEventListener("error", (event) => {
        fallBack();
        if (source.readyState === EventSource.CLOSED) refused?.(event);
      });
      return source;
    };
    hook.setAttribute("hx-ext", "sse");
    hook.setAttribute("sse-connect", stream);
    hook.setAttribute("sse-close", "end");
    hook.setAttribute("hx-trigger", "sse:version, sse:change, sse:ping, sse:end");
    hook.addEventListener("htmx:sseMessage", (event) => {
      const wasPolling = polling;
      polling = false;
      following("stream");
      // The stream open again (after a dropped one, a restarted server): the server is back, and
      // what the page missed is asked about at once, not after the waits of the failed asks.
      if (wasPolling) behind = failures = 0;
      expect(QUIET);
      if (event.detail.type === "end") {
        // This phone may follow the stream no more (a finished game's guest): it is closed, and
        // the live URL, which decides by itself what the phone may still read, is asked every
        // 2 s from now on, not after QUIET: a guest's finished game leads on to the next one.
        clearTimeout(watchdog);
        fallBack();
        return;
      }
      if (event.detail.type === "ping") {
        if (wasPolling) pause();
        return;
      }
      if (event.detail.type === "change") {
        if (ownUnderWay && !asking) {
          held.push(event.detail.data); // taken up when the post is answered
          return;
        }
        if (carried(event.detail.data)) return;
      }
      // A change, the state on (re)opening, or the end of this phone's access. Every phone of
      // the table hears of a save at the same moment: each asks within SPREAD of it, not all
      // in the same few milliseconds.
      if (spread === null) {
        spread = setTimeout(
          () => {
            spread = null;
            ask();
          },
          behind + Math.random() * SPREAD,
        );
      }
    });
    // htmx reads these attributes when it processes the page, after this deferred script.
    polling = false;
    expect(FIRST_EVENT);
  } else {
    following("polling");
    schedule(EVERY);
  }

  // Only this phone's own posts (a save, an undo) can make the table newer than an answer
  // drawn meanwhile; its reads (the summary asked again after a save) cannot.
  const posts = (event) => event.detail.requestConfig?.verb !== "get";
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (posts(event)) ownUnderWay += 1;
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!posts(event)) return;
    ownUnderWay = Math.max(0, ownUnderWay - 1);
    ownRequests += 1;
    const made = Number(event.detail.xhr?.getResponseHeader("X-Game-Version"));
    if (made > ownVersion) ownVersion = made;
    if (ownUnderWay) return;
    // The changes heard meanwhile, in order: each swapped in if it follows on from what the page
    // shows; the first that does not (and any after it) is asked about instead.
    const changes = held;
    held = [];
    // The word of the save came before its answer: it counts as come now, so the summary the
    // answer asks for (round-changed, below) is not asked for after all.
    if (changes.length) lastWord = Date.now();
    if (changes.length && (asking || !changes.every(carried))) again = true;
    if (again && !asking) ask();
  });
  // With a stream, the word of this phone's own save brings the round's summary like any
  // other change: the summary is not asked for a second time. Should that word not come within
  // WORD_AFTER_SAVE, the page asks.
  const WORD_AFTER_SAVE = 2000;
  let lastWord = 0;
  hook.addEventListener("htmx:sseMessage", () => (lastWord = Date.now()));
  document.addEventListener("htmx:confirm", (event) => {
    if (polling || event.detail.elt.id !== "round-status") return;
    event.preventDefault();
    const asked = Date.now();
    setTimeout(() => lastWord < asked && ask(), WORD_AFTER_SAVE);
  });
  // Hidden or offline, the page does not ask: nothing is missed that it should say.
  const rest = () => {
    pause();
    answered();
  };
  document.addEventListener("visibilitychange", () => (document.hidden ? rest() : ask()));
  // Back online: the asks that failed meanwhile said nothing of the server's pace.
  window.addEventListener("online", () => {
    behind = failures = 0;
    ask();
  });
  window.addEventListener("offline", rest);
  window.addEventListener("pageshow", (event) => event.persisted && ask());
})();
