// Opens notebooks exported to HTML in headless Chromium (Debian's, driven
// by playwright-core) and checks that every chart output shows a picture:
// an image element of a chart's size whose pixels, as the page draws them,
// are not blank (some ink, and the marks' blue).
//
// Run by e2e/charts_test.go:
//
//   NODE_PATH=.../node_modules node charts_html.js A.html B.html ...
//
// with CHROMIUM (executable) and CHARTS (charts each page must show).
// Prints one JSON object per line: {"file", "chart", "ok", "detail"}, then
// {"done": true}.

'use strict';

const { chromium } = require('playwright-core');
const { pathToFileURL } = require('url');

const want = Number(process.env.CHARTS || 0);

function report(file, chart, ok, detail) {
  console.log(JSON.stringify({ file, chart, ok: !!ok, detail: String(detail) }));
}

// inkOf measures a screenshot (PNG bytes) in a page of its own: the share
// of pixels that are not near white, and how many are the first series'
// blue (#4c78a8, or lighter where blended with white).
async function inkOf(browser, png) {
  const page = await browser.newPage();
  try {
    await page.setContent('<canvas id="c"></canvas>');
    return await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = 'data:image/png;base64,' + b64;
      await img.decode();
      const c = document.getElementById('c');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let ink = 0, blue = 0;
      for (let i = 0; i < d.length; i += 4) {
        const [r, g, b] = [d[i], d[i + 1], d[i + 2]];
        if (r < 235 || g < 235 || b < 235) ink++;
        if (b > r + 40 && b > g + 20) blue++;
      }
      return { w: c.width, h: c.height, ink: ink / (d.length / 4), blue };
    }, png.toString('base64'));
  } finally {
    await page.close();
  }
}

async function checkFile(browser, file) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 60000 });
    // A chart's output: an output area holding an image (nbconvert writes
    // image/png as <img>; an SVG would be inline or an <img> of one).
    const images = page.locator('.jp-OutputArea-output img, .jp-OutputArea-output svg, .output_area img, .output_area svg');
    const n = await images.count();
    report(file, -1, n === want, `${n} images in outputs, want ${want}`);
    for (let i = 0; i < n; i++) {
      const el = images.nth(i);
      await el.scrollIntoViewIfNeeded();
      const box = await el.boundingBox();
      if (!box || box.width < 200 || box.height < 80) {
        report(file, i, false, `shown at ${box ? `${box.width}×${box.height}` : 'no size'}: not a chart's size`);
        continue;
      }
      const m = await inkOf(browser, await el.screenshot());
      const ok = m.ink > 0.01 && m.blue > 50;
      report(file, i, ok, `${m.w}×${m.h} px, ${(100 * m.ink).toFixed(1)}% ink, ${m.blue} blue pixels`);
    }
  } catch (e) {
    report(file, -1, false, e && e.message ? e.message.split('\n')[0] : e);
  } finally {
    await page.close();
  }
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-dev-shm-usage'],
  });
  try {
    for (const file of process.argv.slice(2)) {
      await checkFile(browser, file);
    }
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify({ done: true }));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
