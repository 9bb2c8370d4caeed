// Lighthouse's mobile audit (its default settings and throttling) of one page, for
// bench/bench_lighthouse.py: the page loaded with the member's session cookie, in a Chromium
// profile kept from page to page (its cache), and, when a selector is given, that <details>
// opened as a person would once the page has loaded (its fetch and what it draws are part of
// the audit). Writes the report as JSON.
//
//   node audit_page.mjs URL PROFILE COOKIE REPORT CATEGORIES [SELECTOR]   (COOKIE: name=value)
import { writeFile } from "node:fs/promises";
import { startFlow } from "lighthouse";
import puppeteer from "puppeteer-core";

const [url, profile, cookie, report, categories, open] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  headless: true,
  userDataDir: profile,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
try {
  const page = await browser.newPage();
  const [name, value] = cookie.split("=");
  await browser.setCookie({ name, value, domain: new URL(url).hostname, path: "/" });
  if (open) {
    // Run by the browser itself in every document, not by the page (its CSP does not apply).
    await page.evaluateOnNewDocument((selector) => {
      addEventListener("load", () => {
        const details = document.querySelector(selector);
        if (details) details.open = true;
      });
    }, open);
  }
  const flow = await startFlow(page, {
    config: {
      extends: "lighthouse:default",
      // The cookie stays, and so does the cache: the pages after the first find the static
      // files cached, as a phone coming back does.
      settings: { onlyCategories: categories.split(","), disableStorageReset: true },
    },
  });
  await flow.navigate(url);
  const [step] = (await flow.createFlowResult()).steps;
  await writeFile(report, JSON.stringify(step.lhr));
} finally {
  await browser.close();
}
