// Agent Chat UI on the Supervisor, in a real browser: type the refund request, wait for the
// approval widget, approve, wait for the answer, take a screenshot. A manual check (docs/own-agent.md,
// "Chat with it"), not part of `make test`; devtools/chat_ui.sh starts everything it needs.
//
//   node devtools/chat_ui_check.mjs http://127.0.0.1:3000 docs/images/agent-chat-ui-refund.png
//
// Needs playwright-core (npm) and Chromium (Debian: apt-get install chromium); CHROMIUM overrides
// the browser's path, PLAYWRIGHT_CORE where playwright-core is installed.
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(process.env.PLAYWRIGHT_CORE ?? import.meta.url);
const { chromium } = require("playwright-core");

const [ui = "http://127.0.0.1:3000", shot = "docs/images/agent-chat-ui-refund.png"] = process.argv.slice(2);
const REQUEST =
  "User Anna (user_id=42) requests a refund for a recent annual plan charge of 1200 USD. " +
  "Apply supervisor policy before any refund execution and provide a short final response.";

const profile = mkdtempSync(join(tmpdir(), "chat-ui-chromium-"));
// a fresh profile (--user-data-dir), removed afterwards
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1000, height: 760 },
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
const step = (text) => console.log(`chat-ui: ${text}`);
try {
  const page = await browser.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") console.error(`console error: ${message.text().slice(0, 300)}`);
  });
  await page.goto(ui, { waitUntil: "domcontentloaded", timeout: 180_000 });
  const box = page.getByPlaceholder("Type your message...");
  await box.waitFor({ timeout: 180_000 });
  await page.waitForLoadState("networkidle", { timeout: 180_000 }); // hydrated: the box is live
  // Next's dev-mode badge (it counts the UI's own React warnings) would cover the screenshots
  await page.addStyleTag({ content: "nextjs-portal { display: none !important; }" });
  step("chat box shown");
  await box.fill(REQUEST);
  await page.locator("button[type=submit]").first().click();
  step("refund request sent");
  // the approval widget: LangChain's HITL request (action_requests / review_configs)
  const approve = page.getByRole("button", { name: "Approve", exact: true });
  await approve.first().waitFor({ timeout: 120_000 });
  const tool = page.getByText("issue_refund").first();
  await tool.waitFor();
  await tool.scrollIntoViewIfNeeded();
  step("approval widget shown for issue_refund");
  await page.screenshot({ path: shot.replace(/\.png$/, "-approval.png") });
  await approve.first().click();
  step("approved");
  // the run's answer: the last AI message (the offline model's says "Refunded 1200.00 USD ...")
  await page.getByText(/^Refunded /).last().waitFor({ timeout: 120_000 });
  await page.waitForTimeout(1500);
  await page.screenshot({ path: shot });
  step(`answer shown; screenshot: ${shot}`);
} catch (error) {
  const page = browser.pages()[0];
  if (page) await page.screenshot({ path: `${shot}.failed.png` });
  console.error(`chat-ui: failed; the page as it was: ${shot}.failed.png`);
  throw error;
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
