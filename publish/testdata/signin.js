// Signs in to a visitor-auth site as a reader would: opens a page, is sent to the OpenID
// Provider (which signs its person in at once) and back to the site's callback, then reads the
// page; prints where it landed, what it read and the site's cookie as the browser keeps it.
const { open } = require('./chromium');
(async () => {
  const [url] = process.argv.slice(2);
  const { context, page, seen, finish } = await open({});
  await page.goto(url);
  seen.push('landed: ' + new URL(page.url()).pathname);
  seen.push('title: ' + await page.locator('article h1').innerText());
  for (const c of await context.cookies()) {
    if (c.name === 'bindery_visitor_token') {
      seen.push(`cookie: path ${c.path} httpOnly ${c.httpOnly} sameSite ${c.sameSite}`);
    }
  }
  await finish();
})().catch((e) => { console.error(e); process.exit(1); });
