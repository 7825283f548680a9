// Vitest's global setup: one headless Chromium for the whole run (tests/page/browser.js connects
// to it), so that test files share a browser process instead of each starting its own.
import { chromium } from 'playwright-core';
import { CHROMIUM_OPTIONS } from './browser.js';

let server;

export async function setup({ provide }) {
  server = await chromium.launchServer(CHROMIUM_OPTIONS);
  provide('chromiumEndpoint', server.wsEndpoint());
}

export async function teardown() {
  await server?.close();
}
