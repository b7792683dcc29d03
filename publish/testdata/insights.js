// Site insights in a browser. "feedback": reads a published page with JavaScript off and sends its
// feedback form (a rating and a comment). "clicks": reads a published page and follows its link
// out of the site (to another origin on the loopback). "dashboard": reads the site's insights page, signed in with a
// token, and prints its figures and the text of its SVG charts.
const { open } = require('./chromium');
(async () => {
  const [mode, url, token] = process.argv.slice(2);
  if (mode === 'feedback') {
    const { page, seen, finish } = await open({ javaScriptEnabled: false });
    await page.goto(url);
    const form = page.locator('form.feedback');
    seen.push('legend: ' + await form.locator('legend').innerText());
    await form.getByLabel('No').check();
    await form.getByLabel('What could be better? (optional)').fill('Say which Go version.');
    await form.getByRole('button', { name: 'Send feedback' }).click();
    seen.push('answer: ' + await page.locator('h1').innerText());
    seen.push('back: ' + await page.getByRole('link', { name: 'Back to the page' }).getAttribute('href'));
    await finish();
    return;
  }
  if (mode === 'clicks') {
    const { page, seen, finish } = await open({});
    await page.goto(url);
    const link = page.getByRole('link', { name: 'the other site' });
    seen.push('href: ' + await link.getAttribute('href'));
    await link.click();
    await page.waitForURL((u) => u.hostname === 'localhost');
    seen.push('at: ' + new URL(page.url()).pathname);
    await finish();
    return;
  }
  const { page, seen, finish } = await open({ extraHTTPHeaders: { Authorization: 'Bearer ' + token } });
  await page.goto(url);
  seen.push('views: ' + await page.locator('#views').innerText());
  seen.push('visitors: ' + await page.locator('#visitors').innerText());
  seen.push('days: ' + await page.locator('section[aria-labelledby=views-title] svg rect').count());
  const chart = (id) => page.locator(`section[aria-labelledby=${id}] svg`);
  seen.push('pages: ' + (await chart('pages-title').locator('text').allTextContents()).join(' '));
  seen.push('searches: ' + (await chart('searches-title').locator('text').allTextContents()).join(' '));
  seen.push('no results: ' + (await chart('empty-title').locator('text').allTextContents()).join(' '));
  seen.push('feedback: ' + (await page.locator('section[aria-labelledby=feedback-title] tbody td').allInnerTexts()).join(' '));
  seen.push('comments: ' + await page.locator('ul.comments').innerText());
  seen.push('chart label: ' + await chart('views-title').getAttribute('aria-label'));
  await finish();
})();
