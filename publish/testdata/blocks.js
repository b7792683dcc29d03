// Reads a published page holding every block of the document model as a reader would: looks at
// the hints and code blocks, switches the tabs by click and by keyboard, follows a link to a
// heading in a hidden tab, opens the expandable,
// copies a code block and reads the clipboard back, measures the formulas, checks the image and
// the embeds, and takes a screenshot. Prints what it saw. The player of the allow-listed embed
// is answered here (the test has no network), so that the page's CSP is what decides whether it
// loads.
const { open } = require('./chromium');
(async () => {
  const [url, shot] = process.argv.slice(2);
  const { context, page, seen, finish } = await open({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  let player = 'not loaded';
  await context.route('https://www.youtube-nocookie.com/**', (route) => {
    player = 'loaded';
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>player</title><p>player</p>' });
  });
  await page.goto(url);
  await page.waitForLoadState('load');
  const article = page.locator('article');

  seen.push('hints: ' + (await article.locator('.hint').evaluateAll((hs) =>
    hs.map((h) => h.querySelector('.hint-label').innerText.toLowerCase() + ' ' + h.getAttribute('role')))).join(','));
  seen.push('code: ' + await article.locator('figure.code').count() + ' blocks, line numbers ' +
    await article.locator('pre[data-line-numbers] .line').count());

  const tabs = article.getByRole('tab');
  const selected = async () => article.locator('[role=tab][aria-selected=true]').innerText();
  seen.push('tabs: ' + await selected());
  await tabs.nth(1).click();
  const panel = article.locator('[role=tabpanel]:visible');
  const hidden = await article.locator('[role=tabpanel]').evaluateAll((ps) => ps.filter((p) => p.hidden).length);
  seen.push('click: ' + await selected() + ' shows ' + await panel.innerText() + ' (others hidden: ' + (hidden === 2) + ')');
  await page.keyboard.press('ArrowRight');
  seen.push('arrow right: ' + await selected());
  await page.keyboard.press('ArrowLeft');
  seen.push('arrow left: ' + await selected());
  await page.keyboard.press('Home');
  seen.push('home: ' + await selected());
  await page.keyboard.press('End');
  seen.push('end: ' + await selected() + (await page.evaluate(() => document.activeElement.getAttribute('role')) === 'tab' ? '' : ' (focus lost)'));

  const intoTab = async () => await selected() + (await article.locator('#windows-notes').isVisible() ? ' shows it' : ' hides it');
  await tabs.first().click();
  await page.goto(url + '#windows-notes');
  seen.push('link into a tab: ' + await intoTab());
  await page.goto('about:blank');
  await page.goto(url + '#windows-notes');
  seen.push('loaded into a tab: ' + await intoTab());
  await page.goto(url);

  const details = article.locator('details.expandable');
  await details.locator('summary').click();
  const body = details.locator('p', { hasText: 'The hidden body.' });
  seen.push('expandable: ' + (await details.evaluate((d) => d.open) ? 'open' : 'closed') + ', ' + await body.innerText() + ' ' +
    (await body.isVisible() ? 'visible' : 'hidden'));

  const copy = article.locator('figure.code').first().getByRole('button', { name: 'Copy' });
  await copy.click();
  await article.locator('figure.code').first().getByRole('button', { name: 'Copied' }).waitFor();
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  seen.push('copied: Copied ' + clip.split('\n')[0] + (clip.includes('func main()') && !/^\s*1/.test(clip) ? '' : ' (wrong text: ' + clip + ')'));

  const sizes = await article.locator('math').evaluateAll((ms) => ms.map((m) => m.getBoundingClientRect()).map((r) => r.width > 0 && r.height > 0));
  seen.push('math: ' + sizes.filter(Boolean).length + ' visible');
  seen.push('image: ' + (await article.locator('figure.image img').evaluate((i) => i.complete && i.naturalWidth > 0) ? 'loaded' : 'not loaded'));
  const frame = article.locator('figure.embed iframe');
  await frame.scrollIntoViewIfNeeded();
  await page.frameLocator('figure.embed iframe').locator('p').waitFor();
  seen.push('embed: ' + (await frame.getAttribute('sandbox') ? 'sandboxed ' : '') + 'player ' + player + ', ' +
    await article.locator('p.embed a.card').count() + ' link card');
  seen.push('stepper: ' + await article.locator('ol.stepper > li').count() + ' steps');
  seen.push('columns: ' + await article.locator('.columns > .column').count());
  seen.push('table: ' + await article.locator('.table tbody tr').count() + ' rows');
  seen.push('file: ' + await article.locator('p.file a').innerText());
  seen.push('content ref: ' + await article.locator('.content-ref a').innerText());

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: shot, fullPage: false });

  await page.goto(new URL('api', url).href);
  const operation = page.locator('section.api-operation');
  const owner = operation.locator('details.api-property', { hasText: 'owner' }).first();
  await owner.locator('summary').click();
  seen.push('api operation: ' + await operation.locator('.api-title').innerText() + ', response ' +
    (await operation.locator('details.api-response').first().evaluate((d) => d.open) ? 'open' : 'closed') + ', owner: ' +
    (await owner.locator('.api-name', { hasText: 'email' }).isVisible() ? 'email visible' : 'email hidden'));
  await finish();
})().catch((e) => { console.error(e); process.exit(1); });
