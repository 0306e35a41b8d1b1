import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signIn } from './auth.js';
import { sharedChromium } from './browser.js';
import { startServerWithWeb, userByEmail, type TestServer, type TestUser } from './lessons.js';
import { mediaDir } from './media.js';

/**
 * How a player suite starts: a server with the web app, Chromium at 1440x900 with a user signed
 * in (the lessons' owner), and a folder for the suite's media.
 */
export interface PlayerSession {
  work: string;
  server: TestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  owner: TestUser;
}

export async function startPlayerSession(user: {
  email: string;
  name: string;
}): Promise<PlayerSession> {
  const work = mediaDir();
  const server = await startServerWithWeb();
  const browser = await sharedChromium();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signIn(page, server.url, user);
  const owner = await userByEmail(server, user.email);
  return { work, server, browser, context, page, owner };
}

/** Closes what startPlayerSession opened and removes the suite's media. */
export async function endPlayerSession(session: PlayerSession): Promise<void> {
  await session.context.close();
  await session.browser.close();
  await session.server.close();
  rmSync(session.work, { recursive: true, force: true });
}
