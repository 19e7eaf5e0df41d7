"use strict";
// A globalSetup for Jest (`globalSetup: "dynapage/global-setup"`, with `globalTeardown: "dynapage/global-teardown"`)
// and Vitest (`test.globalSetup: ["dynapage/global-setup"]`; Vitest calls the function this returns at the end).
// Starts one server for the run and points the AWS SDKs at it through the environment the test workers inherit:
// AWS_ENDPOINT_URL_DYNAMODB, and dummy credentials and region where none are set. DYNAPAGE_FLAGS (a JSON object of
// startDynapage() options) adds flags.
const { startDynapage } = require("./index.js");

module.exports = async function globalSetup() {
  const options = process.env.DYNAPAGE_FLAGS ? JSON.parse(process.env.DYNAPAGE_FLAGS) : {};
  const db = await startDynapage(options);
  globalThis.__DYNAPAGE__ = db;
  process.env.DYNAPAGE_ENDPOINT = db.endpoint;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = db.endpoint;
  process.env.AWS_ACCESS_KEY_ID ??= "dynapage";
  process.env.AWS_SECRET_ACCESS_KEY ??= "dynapage";
  process.env.AWS_REGION ??= "us-east-1";
  return () => db.stop();
};
