// What the site's browser tests share: headless Chromium with a page whose console messages,
// page errors and failed requests are logged, what the script saw printed (with the log) should
// it fail, and the last line a count of the problems logged.
const { chromium } = require('playwright-core');

exports.open = async (contextOptions) => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const log = [];
  const seen = [];
  page.on('console', (m) => log.push(`console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => log.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  process.on('exit', (code) => { if (code !== 0) console.error(seen.join('\n') + '\n' + log.join('\n')); });
  page.setDefaultTimeout(30000);
  // finish prints what was seen, then the problems logged ("console: 0" when none), and closes.
  const finish = async () => {
    const problems = log.filter((l) => !l.startsWith('console.log'));
    seen.push('console: ' + problems.length + (problems.length ? ' ' + problems.join(' | ') : ''));
    console.log(seen.join('\n'));
    await browser.close();
  };
  return { context, page, seen, finish };
};
