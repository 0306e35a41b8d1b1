import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, chromiumPath } from './browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The e2e project's shared Chromium (launchChromium without extra flags connects to it). */
    chromiumEndpoint: string;
  }
}

/**
 * Vitest global setup of the e2e project: one headless Chromium for every test file that needs
 * no flags of its own, instead of one per file. Each file still gets its own browser contexts
 * (cookies, storage, cache), so no file sees another's state.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server: BrowserServer = await chromium.launchServer({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
