// Reads a published site as a reader would: opens the landing page, follows the sidebar down to
// a page, switches to the other variant, searches, and takes a screenshot. Prints what it saw.
const { chromium } = require('playwright-core');
(async () => {
  const [url, shot] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const log = [];
  page.on('console', (m) => log.push(`console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => log.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  process.on('exit', (code) => { if (code !== 0) console.error(log.join('\n')); });
  page.setDefaultTimeout(30000);
  const seen = [];
  await page.goto(url);
  seen.push('landing: ' + await page.locator('article h1').innerText());
  await page.locator('nav.sidebar').getByRole('link', { name: 'Guides' }).click();
  await page.locator('nav.sidebar').getByRole('link', { name: 'Install' }).click();
  seen.push('sidebar: ' + await page.locator('article h1').innerText());
  await page.locator('.variants').getByRole('link', { name: 'API' }).click();
  seen.push('variant: ' + await page.locator('article h1').innerText());
  await page.getByRole('searchbox', { name: 'Search this space' }).fill('endpoints');
  await page.keyboard.press('Enter');
  await page.locator('ol.results').waitFor();
  seen.push('search: ' + (await page.locator('ol.results a.result').allInnerTexts()).join(','));
  await page.goto(url);
  await page.screenshot({ path: shot, fullPage: false });
  const problems = log.filter((l) => !l.startsWith('console.log'));
  seen.push('console: ' + problems.length + (problems.length ? ' ' + problems.join(' | ') : ''));
  console.log(seen.join('\n'));
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
