"use strict";
// Jest's globalTeardown for dynapage/global-setup (Jest runs both in one process, so globalThis carries the server).
module.exports = async function globalTeardown() {
  if (globalThis.__DYNAPAGE__) await globalThis.__DYNAPAGE__.stop();
};
