// Reads a published site as a reader would: opens the landing page, follows the sidebar down to
// a page, switches the theme, goes to the other section and switches its variant, reads the customization's colors and
// favicon, searches as it types (choosing a result with the keyboard), then through the results
// page, and takes a screenshot. Prints what it saw.
const { open } = require('./chromium');
(async () => {
  const [url, shot] = process.argv.slice(2);
  const { page, seen, finish } = await open({ viewport: { width: 1280, height: 800 } });
  const title = () => page.locator('article h1').innerText();
  await page.goto(url);
  seen.push('landing: ' + await title());
  seen.push('link color: ' + await page.locator('article a').first().evaluate((a) => getComputedStyle(a).color));
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  seen.push('background: ' + await background());
  seen.push('favicon: ' + await page.locator('link[rel=icon]').getAttribute('href'));
  const themeSwitch = page.locator('button.theme-switch');
  await themeSwitch.click();
  seen.push('switched: ' + await background() + ' ' + await themeSwitch.getAttribute('aria-label'));
  await page.locator('nav.sidebar').getByRole('link', { name: 'Guides' }).click();
  await page.locator('article h1', { hasText: 'Guides' }).waitFor();
  seen.push('kept: ' + await background());
  await themeSwitch.click(); // back to dark, for the pages after
  await page.locator('nav.sidebar').getByRole('link', { name: 'Install' }).click();
  seen.push('sidebar: ' + await title());
  await page.locator('nav.sections').getByRole('link', { name: 'Reference' }).click();
  seen.push('section: ' + await title());
  await page.locator('.variants').getByRole('link', { name: 'API v2' }).click();
  await page.waitForURL(/\/reference\/api-v2\/$/);
  seen.push('variant: ' + await title());

  const box = page.getByRole('combobox', { name: 'Search this space' });
  await box.pressSequentially('endpoints', { delay: 20 });
  const options = page.locator('#search-suggestions [role=option]');
  await options.first().waitFor();
  await page.locator('form.search [role=status]').filter({ hasText: 'result' }).waitFor();
  seen.push('as you type: ' + (await options.locator('a').allInnerTexts()).sort().join(',') +
    ' (' + await page.locator('form.search [role=status]').innerText() + ')');
  // The arrows move through the options (wrapping around) until Webhooks, which Enter opens.
  const chosen = async () => page.locator('#' + await box.getAttribute('aria-activedescendant')).innerText();
  await box.press('ArrowDown');
  if (await chosen() !== 'Webhooks') await box.press('ArrowDown');
  seen.push('arrows: ' + await chosen());
  await box.press('Enter');
  await page.waitForURL(/webhooks$/);
  seen.push('chosen: ' + await title() + ' at ' + new URL(page.url()).pathname);

  await box.fill('endpoints');
  await options.first().waitFor();
  await box.press('Escape');
  seen.push('escape: ' + (await options.first().isVisible() ? 'still open' : 'closed'));
  await box.press('Enter');
  await page.locator('ol.results').waitFor();
  seen.push('search: ' + (await page.locator('ol.results a.result').allInnerTexts()).sort().join(','));
  await page.goto(url);
  await page.screenshot({ path: shot, fullPage: false });
  await finish();
})().catch((e) => { console.error(e); process.exit(1); });
