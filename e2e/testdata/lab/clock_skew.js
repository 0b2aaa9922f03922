// A browser whose clock is behind the server's opens a new "Go (SBIR
// awards)" notebook and runs a cell. JupyterLab dates every message with
// the browser's clock (KernelMessage.createMessage: new Date()).
//
// Run by e2e/jupyterlab_test.go (TestE2EJupyterLabClockSkew) with LAB_URL,
// LAB_TOKEN, SKEW_SECONDS (negative: behind), KERNEL_DISPLAY_NAME, CHROMIUM.
// Prints {"status": kernel status, "output": [...], "browser_date": ...}.

'use strict';

const { chromium } = require('playwright-core');

// Timeouts scale with SBIR_TEST_SLOW, as the Go tests' limits do.
const slow = Number(process.env.SBIR_TEST_SLOW || 1);

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const result = {};
  try {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
    await page.clock.install({ time: Date.now() + Number(process.env.SKEW_SECONDS) * 1000 });
    await page.clock.resume();
    await page.goto(`${process.env.LAB_URL}/lab?reset&token=${process.env.LAB_TOKEN}`, { timeout: 60000 * slow });
    const card = page.locator(`.jp-LauncherCard[data-category="Notebook"][title="${process.env.KERNEL_DISPLAY_NAME}"]`);
    await card.first().waitFor({ timeout: 60000 * slow });
    await card.first().click();
    await page.locator('.jp-NotebookPanel .jp-Cell .cm-content').first().waitFor({ timeout: 30000 * slow });
    const deadline = Date.now() + 20000;
    let status;
    while (Date.now() < deadline) {
      status = await page.evaluate(() => {
        const k = window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel;
        return k ? k.status : 'none';
      });
      if (status === 'idle') break;
      await page.waitForTimeout(200);
    }
    result.status = status;
    result.browser_date = await page.evaluate(() => new Date().toISOString());
    await page.locator('.jp-NotebookPanel .jp-Cell .cm-content').last().click();
    await page.keyboard.insertText('6 * 7');
    await page.keyboard.press('Shift+Enter');
    await page.locator('.jp-OutputArea-output').first().waitFor({ timeout: 10000 * slow }).catch(() => {});
    result.output = await page.locator('.jp-OutputArea-output').allInnerTexts();
  } catch (e) {
    result.error = String(e.message || e).split('\n')[0];
  } finally {
    console.log(JSON.stringify(result));
    await browser.close();
  }
})();
